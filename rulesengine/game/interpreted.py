"""What both runners of a scoring program share (game/program.py, the compiled; game/reference.py, the
interpreter): the call of one expression on its own (its `run`, which the edition's runner made: a generated
function, or the interpreter's closures), the award of a race's place (called so by both: the sheet keeps each
award it works out, so none is worth a place in the program), and the shape of a seat's value of hands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..dsl import DslRuntimeError


@dataclass(frozen=True)
class SeatValue:
    """What hands are worth to one seat at the start of a round (its standing bound once):
    own(cards, visited): the seat's own round categories (a choice at its best icon), the races still
    open to it as if it alone qualified, and what the game-end categories gain (visited: its visited
    cards with these, in deck order); shared(cards, visited, others): what the categories that read
    the other seats' cards add (None when there are none); order(first, options, rest) ->
    for_world(sums, heads, dealt): adds to sums[i] the value of option i's hand in each order of
    heads (see dsl.program.order), the other seats holding what was dealt less the hand; charges: whether
    order's functions may charge the step meter (dsl/meter.py), which a bot then reads after each world;
    pick: () -> pick(hand, first, last), the search bot's rollout pick (dsl/program/pick.py: the card of hand
    whose hand first + [card] + last own() values most, the first of equals, and that value), made once a
    decision; None where it is not generated (other seats' cards read, steps charged, the reference runner...):
    its caller values the options."""

    own: Callable
    shared: Callable | None
    order: Callable
    charges: bool = True
    pick: Callable | None = None


def run(expression, env: dict):
    """The expression's value in env by its own `run` (as the edition's runner compiled it); a failure raises,
    carrying the node it points at."""
    try:
        return expression.run(env)
    except DslRuntimeError as exc:
        exc.node = exc.node or expression.tree[0]
        raise


def award(race, region, *, place, players, round, rounds, sharing=1):
    """What a place of a race pays, to each of the `sharing` seats that take it together (the race's award
    expression by its own `run`: the sheet keeps each award it works out, so none is worth a place in the program)."""
    return run(race.award, {"place": place, "sharing": sharing, "players": players, "round": round, "rounds": rounds,
                            "region": region})
