"""A decision as data: the question a game asks one seat, what every front end and bot reads.

It holds no game state and never more than the asked seat may know (its own options).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, init=False)
class Decision:
    """A question the game asks one seat. options: card letters, or icons plus None for a choice."""

    seat: int
    kind: str
    round: int
    options: tuple
    category: str | None = None

    def __init__(self, seat: int, kind: str, round: int, options: tuple, category: str | None = None):
        # one dict in place of five frozen writes: a decision is made for every seat at every step
        fields = {"seat": seat, "kind": kind, "round": round, "options": options, "category": category}
        object.__setattr__(self, "__dict__", fields)

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "round": self.round,
            "options": list(self.options),
            "category": self.category,
        }
