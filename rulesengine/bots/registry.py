"""Bots. An agent sees only a seat's view (never the game) and answers one decision at a time.

Every bot is built the same way, BOTS[kind](seed, edition=edition, **options), and keeps no state
between decisions (see bots.seeding.decision_rng), so a resumed game replays identically.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from .seeding import (
    PLANNED_CHOICES,
    STEP_SEEDS,
    STRING_SEEDS,
    agent_seed,
    by_step,
    decision_rng,
    decision_seed,
    decision_seed_from_key,
    seed_key,
    step_key,
)

if TYPE_CHECKING:
    from ..edition.model import Edition
    from ..game.state import Decision


class RandomAgent:
    """Uniformly random legal decisions (replayable: see decision_seed); drawing from integer seeds it
    reads nothing of the view, so play() hands it none (view may be None)."""

    __slots__ = ("seed", "seeding", "edition", "reads_view", "_key")  # (made for every seat of every game)
    kind = "random"
    lazy_view = True          # play() hands it a view that costs nothing unread

    def __init__(self, seed: int = 0, edition: Edition | None = None, *, seeding: int = STEP_SEEDS):
        self.seed = seed
        self.seeding = seeding
        self.edition = edition
        # string seeds count the cards taken; a repeated question (a bid) is told apart by the seat's step
        # (format 4), read in the view
        self.reads_view = seeding == STRING_SEEDS or edition is not None and by_step(edition, seeding)
        self._key = seed_key(seed)

    def decide(self, view: dict | None, decision: Decision):
        options, key = decision.options, self._key
        if self.reads_view:  # string seeds, or repeated questions told apart by the step (else the decision alone)
            if self.seeding == STRING_SEEDS:
                return decision_rng(self.seed, view, decision, STRING_SEEDS).choice(options)
            key = step_key(key, self.edition, view)
        return options[decision_seed_from_key(key, decision) % len(options)]   # = decision_seed(seed, ...)


DEFAULT_ROLLOUTS = 160  # the search bot's: 34.2% (29.8-39.0%) against three greedy bots, 400 games (docs/bots.md)


_CLASSES: dict = {}   # kind -> its class, once imported (BotKinds)


class BotKinds(Mapping):
    """The bot kinds by name, in the order commands list them; a kind's class is imported when first
    asked for, so a command of random seats never loads the other bots' code."""

    WHERE = {"random": (".registry", "RandomAgent"), "greedy1": (".one_ply", "OnePlyAgent"),
             "greedy": (".greedy", "GreedyAgent"), "search": (".search", "SearchAgent"),
             "ismcts": (".ismcts", "IsmctsAgent"), "blend": (".blend", "BlendAgent"),
             "guided": (".guided", "GuidedAgent")}

    def __getitem__(self, kind: str) -> type:
        found = _CLASSES.get(kind)
        if found is None:   # imported once: import_module on every call made make_bot 7.5 us, not 3.7 (timeit),
            module, name = self.WHERE[kind]   # four a random 4-seat game of about 550 us
            found = _CLASSES[kind] = getattr(importlib.import_module(module, __package__), name)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.WHERE)

    def __len__(self) -> int:
        return len(self.WHERE)


BOTS = BotKinds()
SEARCHING = ("search", "ismcts", "blend", "guided")  # the kinds that take a budget (rollouts, iterations, think time)
TREES = ("ismcts", "guided")   # the searching kinds whose budget is iterations and whose time budget is `think` (ms)


def __getattr__(name: str):
    """The bots' classes (GreedyAgent, SearchAgent, ...), imported when first named (see BotKinds)."""
    for kind, (_, cls) in BotKinds.WHERE.items():
        if cls == name:
            return BOTS[kind]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_bot(kind: str, edition: Edition, seed: int, *, seeding: int = PLANNED_CHOICES, **options):
    """A bot of this kind for this edition; options go to the bots that take them (search budget).
    seeding: how it draws (seeding_for(the game's file format) for a saved or logged game)."""
    cls = _CLASSES.get(kind) or BOTS[kind]   # (imported already: no Python call for every seat of every game)
    if kind in SEARCHING:
        return cls(seed, edition, seeding=seeding, **options)
    return cls(seed, edition, seeding=seeding)


def bot_options(kind: str, rollouts: int | None = None, seconds: float | None = None) -> dict:
    """A bot's budget from the command line's (--search-rollouts; --search-seconds or --think): the search and
    blend bots take both, the ismcts and guided bots a time limit as their think time (their iterations stay their
    default otherwise); the other kinds take none."""
    if kind in ("search", "blend"):   # (the blend bot's budget is its search's)
        return search_budget(rollouts, seconds)
    if kind in TREES and seconds is not None:
        return {"think": seconds * 1000, "iterations": None}
    return {}


def search_budget(rollouts: int | None, seconds: float | None) -> dict:
    """The options of a search bot for a budget given on the command line: a time limit alone
    lifts the default rollout count, both keep both, neither keeps the default."""
    options = {}
    if rollouts is not None:
        options["rollouts"] = rollouts
    if seconds is not None:
        options["seconds"] = seconds
        options.setdefault("rollouts", None)
    return options


# what the number of a searching seat kind counts
BUDGET = {"search": "rollouts", "ismcts": "iterations", "blend": "rollouts", "guided": "iterations"}
KINDS_HELP = "a budget as search:ROLLOUTS, blend:ROLLOUTS, ismcts:ITERATIONS or guided:ITERATIONS"


def bot_kind(kind: str) -> tuple[str, dict]:
    """A seat kind as the bot's kind and options: 'search:40' is a search bot of 40 rollouts, 'ismcts:100'
    an ismcts bot of 100 iterations; ValueError(kind) for anything else."""
    name, _, budget = kind.partition(":")
    if name not in BOTS or (budget and (name not in BUDGET or not budget.isdigit() or int(budget) < 1)):
        raise ValueError(kind)
    return name, ({BUDGET[name]: int(budget)} if budget else {})


def unknown_kind(kinds) -> str | None:
    """The first of these seat kinds that bot_kind refuses, or None."""
    for kind in kinds:
        try:
            bot_kind(kind)
        except ValueError:
            return kind
    return None


def parse_seats(text: str) -> list[str]:
    """The bot of each seat from a line-up such as "greedy,random,blend:40"; ValueError says what is wrong."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = unknown_kind(kinds)
    if unknown is not None:
        raise ValueError(f"unknown bot '{unknown}' (bots: {', '.join(BOTS)}; {KINDS_HELP})")
    if not kinds:
        raise ValueError("name at least one bot")
    return kinds


__all__ = ["BOTS", "SEARCHING", "RandomAgent", "agent_seed", "bot_kind", "bot_options", "decision_rng",
           "decision_seed", "make_bot", "parse_seats"]
