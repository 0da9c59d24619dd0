"""The step budget of an evaluation as it runs: the work budget (budget.py) bounds an expression before a
game starts; this counts the same work while it is done, so that if the bound was ever wrong (nested lists
compared item by item were once charged one step a list), an evaluation stops at RUNTIME_STEPS with a
located error instead of running for hours, and a bot stops sampling worlds when its decision has spent
its share (bots/greedy.py reads `spent`).

What is charged is where the work of an evaluation grows: each item a comprehension goes through, and each
item compared when lists or seats are compared (`==`, `!=`, `in`, `not in`), counted down to the cards.
Every one of these is also a step of the work budget, so an expression that validated never comes near
RUNTIME_STEPS. Both runners charge it: the reference closures (compiler.py) and the generated program
(program/expression.py), which begins an evaluation only in a statement that charges (a statement without
a comprehension or a comparison of lists costs nothing more). One meter a thread: a server's worker plays
its bots on a thread of their own.

The runners do not charge alike: the generated program writes out comprehensions over the edition's own
lists (uncharged), counts through tallies, and hoists what a comprehension's items share. What holds for both
(docs/limits.md, tests/test_guarantees_budget.py): for each decision of the same game, compiled <= reference
<= the work budget's worst case, so a cut reached by the compiled program is reached by the reference first;
where no cut binds (the greedy bot on any validated edition) they play the same games. icon_steps keeps the
program's in-place walk of icons(cards, family) within that bound.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from .budget import MAX_WORK
from .builtins import DslRuntimeError

RUNTIME_STEPS = MAX_WORK   # charged steps of one evaluation; what validated takes at most MAX_WORK steps in all


class _Meter(threading.local):
    left = RUNTIME_STEPS   # what the evaluation under way may still charge
    spent = 0              # charged since the thread started: a bot measures a decision by it


METER = _Meter()


class OverBudget(DslRuntimeError):
    """An evaluation charged more than RUNTIME_STEPS: it stops where it was, located like any runtime error."""


def begin() -> None:
    """An evaluation starts: it may charge RUNTIME_STEPS."""
    METER.left = RUNTIME_STEPS


@contextmanager
def aside():
    """Work remembered once for many decisions (a memo of a pure function: a standing, an estimate fitted
    once per edition): charged to its evaluations' own budgets as ever, but not to the thread's `spent`,
    so a bot's decision spends the same steps whether an earlier one filled the memo or not."""
    spent = METER.spent
    try:
        yield
    finally:
        METER.spent = spent


def charge(steps: int, node=None) -> None:
    meter = METER
    meter.spent += steps
    meter.left -= steps
    if meter.left < 0:
        raise OverBudget(
            f"this evaluation went over {RUNTIME_STEPS:,} steps (the work budget let it through: please report it)",
            node,
        )


def steps(items, node=None):
    """items, charged one step each (a comprehension's source)."""
    charge(len(items), node)
    return items


def icon_steps(cards, members, node=None):
    """cards whose icons of a family (members) a comprehension over icons(cards, family) goes through in place
    (the generated program): charged one step an icon of the family, as the reference runner charges the list
    icons() gives, not one a card."""
    charge(sum(1 for card in cards for icon in card.icons if icon in members), node)
    return cards


def size(value, seen: dict | None = None) -> int:
    """How many items comparing value goes through: a list's items and theirs, down to the cards; a seat's
    cards and visited cards. Counted once per distinct list (a list holding the same list twice is counted
    in time linear in its distinct lists, though comparing it goes through both copies)."""
    if isinstance(value, list | tuple):
        if not value:
            return 0
        first = value[0]
        if not isinstance(first, list | tuple) and not hasattr(first, "visited"):
            return len(value)   # a list's items are of one type: cards, numbers, icons...
        seen = {} if seen is None else seen
        key = id(value)
        if key not in seen:
            seen[key] = len(value) + sum(size(item, seen) for item in value)
        return seen[key]
    if hasattr(value, "visited"):   # a seat: its cards and its visited cards
        return len(value.cards) + len(value.visited)
    return 0


def within(item, items, node=None) -> bool:
    """item in items, charged item by item when they are lists or seats (Python compares them in full)."""
    if isinstance(item, list | tuple) or hasattr(item, "visited"):
        charge(len(items) * (1 + size(item)), node)
    return item in items
