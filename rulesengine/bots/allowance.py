"""The evaluation steps a searching bot's decision may spend: on an edition whose evaluations are expensive, the
search, ismcts and blend bots play fewer worlds instead of running for hours (issue #32).

A step is what dsl/meter.py charges as an evaluation runs (each item a comprehension goes through, each item
compared when lists are compared), counted per thread, so a budget in steps stops a decision at the same point
on every machine and at every load: a game with a rollout budget still replays exactly from its seed (a clock
would not). The searching bots check their allowance before every greedy pick of a rollout and stop the
world under way when it is spent (a world half played is dropped, never averaged); with no world finished,
the decision is the greedy bot's. The default is SEARCH_STEPS: 4 x the greedy bot's decision budget (about
4 s on one core); the shipped editions' evaluations charge no step in their generated program, and the
variants that charge spend at most 544,628 steps on an ismcts decision of 400 iterations (australia-europe,
measured), so no shipped game reaches it: it changes nothing there. With a step budget alone it never reads the
clock. A time budget (--think) adds a deadline, checked at the same points: the world or iteration under way
when it passes is dropped, so a decision ends within one pick's work of its deadline (a whole rollout, the first
of Europe's in the ismcts bot, ran 3.7x past 50 ms when only the loop between worlds read the clock). A time
budget is not reproducible anyway: the steps stay what makes a seeded game replay.
"""

from __future__ import annotations

from time import perf_counter

from ..dsl.meter import METER
from ..edition.guarantee import DECISION_WORK

SEARCH_STEPS = 4 * DECISION_WORK   # steps of one searching decision (20,000,000): see the docstring


class Spent(Exception):
    """The decision has spent its steps (or reached its deadline): the world under way is dropped."""


class Allowance:
    """What one decision may still charge, from the moment it is made; None: no limit. deadline: the
    time.perf_counter() past which it is spent too (a time budget), or None."""

    __slots__ = ("until", "deadline")

    def __init__(self, steps: int | None, deadline: float | None = None):
        self.until = None if steps is None else METER.spent + steps
        self.deadline = deadline

    def check(self) -> None:
        """Raise Spent once the decision has charged its steps or reached its deadline."""
        if self.until is not None and METER.spent > self.until:
            raise Spent
        if self.deadline is not None and perf_counter() >= self.deadline:
            raise Spent


def steps_option(steps: int | None) -> int | None:
    """A bot's `steps` option, checked: None (no limit) or a positive count."""
    if steps is not None and steps < 1:
        raise ValueError(f"a searching bot's step budget must be at least 1, not {steps}")
    return steps
