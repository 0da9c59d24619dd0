"""A decision as data: the question a game asks one seat, what every front end and bot reads.

It holds no game state and never more than the asked seat may know (its own options).
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple


class Decision(NamedTuple):
    """A question the game asks one seat. options: card letters, or icons plus None for a choice.

    A named tuple, not a frozen dataclass: it is as immutable, equal and hashable by its fields, and a
    game makes one for every seat at every step, which a tuple makes in two thirds of the time."""

    seat: int
    kind: str
    round: int
    options: tuple
    category: str | None = None

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "round": self.round,
            "options": list(self.options),
            "category": self.category,
        }


# Decision(*fields) from the five fields as one tuple, made without the Python frame of a named tuple's
# __new__ (as Decision._make makes it): the game makes one for every seat at every step
decision_from_fields = partial(tuple.__new__, Decision)
