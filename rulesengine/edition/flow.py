"""A game's flow declared in YAML: the steps of a round, each a general block any edition may use.

An edition without `flow:` plays the drafting round (rounds, hand_size, passing). One with it plays
a round assembled from these blocks, again and again until its end holds: reveal cards until a
condition holds, a secret choice, a bidding loop around a shared pot (a stock of tokens per seat),
an ordered claim. This module checks each block's parameters and compiles its conditions, reporting
located errors; it never plays a step (rulesengine/game/steps.py does) and never names a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dsl import BOOL
from ..errors import suggest
from .model import Expression, Family
from .scopes import UNTIL

BLOCKS = ("reveal", "secret_choice", "bidding", "claim")


@dataclass(frozen=True)
class Reveal:
    until: Expression  # true/false over `circle`: stop turning cards up


@dataclass(frozen=True)
class SecretChoice:
    key: str
    family: Family


@dataclass(frozen=True)
class Bidding:
    stock: str
    first: str  # "random" or "last_left"


@dataclass(frozen=True)
class Claim:
    choice: str  # the key of the secret choice revealed


@dataclass(frozen=True)
class Flow:
    steps: tuple  # the blocks of one round, in order
    end: str = "deck_empty"

    def step(self, kind: type):
        return next((s for s in self.steps if isinstance(s, kind)), None)


def build_flow(builder, families: dict, constants: dict, symbol_table, stocks: dict) -> Flow | None:
    """The edition's Flow, or None; every problem is reported on `builder` at its key."""
    spec = builder.data.get("flow")
    if spec is None:
        return None
    steps, choices, seen = [], {}, {}
    for index, step in enumerate(spec.get("round") or ()):
        if not isinstance(step, dict) or len(step) != 1:
            continue  # the schema reported it
        ((kind, params),) = step.items()
        path = ("flow", "round", index, kind)
        if kind in seen:
            builder.error(path, f"the round has two '{kind}' steps", "M330", "a round takes each block once", key=True)
            continue
        seen[kind] = index
        if kind == "reveal":
            until = builder.expression(path + ("until",), UNTIL.checker_scope(constants), symbol_table, BOOL)
            if until is not None:
                steps.append(Reveal(until))
        elif kind == "secret_choice":
            family = families.get(params["from"])
            if family is None:
                if not builder.cut.covers("families", params["from"]):
                    builder.error(
                        path + ("from",),
                        f"unknown family '{params['from']}'",
                        "M313",
                        suggest(params["from"], families),
                    )
                continue
            choices[params["key"]] = family
            steps.append(SecretChoice(params["key"], family))
        elif kind == "bidding":
            if params["stock"] not in stocks:
                builder.error(
                    path + ("stock",),
                    f"unknown stock '{params['stock']}'",
                    "M331",
                    suggest(params["stock"], stocks) or "declare it under `stocks:`",
                )
                continue
            steps.append(Bidding(params["stock"], params.get("first", "last_left")))
        elif kind == "claim":
            if params["choice"] not in choices:
                builder.error(
                    path + ("choice",),
                    f"no secret choice '{params['choice']}' comes before this claim",
                    "M332",
                    suggest(params["choice"], choices) or "add a `secret_choice` step before it",
                )
                continue
            steps.append(Claim(params["choice"]))
    order = [kind for kind in BLOCKS if kind in seen]
    if order and [k for k in sorted(seen, key=seen.get)] != order:
        builder.error(("flow", "round"), f"the steps of a round go in the order {', '.join(order)}", "M330")
    for kind in ("reveal", "secret_choice", "bidding", "claim"):
        if kind not in seen and "flow" not in builder.cut.sections:
            builder.error(
                ("flow", "round"),
                f"this round has no '{kind}' step",
                "M330",
                "a round reveals cards, takes a secret choice, bids for the order and claims the cards",
            )
    return Flow(tuple(steps), spec.get("end", "deck_empty"))
