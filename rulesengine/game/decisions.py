"""A decision as data: the question a game asks one seat, what every front end and bot reads.

It holds no game state and never more than the asked seat may know (its own options).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    """A question the game asks one seat. options: card letters, or icons plus None for a choice."""

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
