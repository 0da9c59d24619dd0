"""The places of a round's cards and tokens: what the blocks share, and who may see each one.

A block keeps its own state to itself (the picks of a pass, the mulligan answers, the pot); what
another block, the score sheet or a view reads is a place, declared once by the block that makes
it, with who may see it: everyone (ALL), only the seat it belongs to (OWN), or nobody (NONE; its
size may still be public). The views, the bots' sampled worlds and the secrecy tests read these
declarations (Block.hidden says what a seat cannot see now); a place never names an edition.
"""

from __future__ import annotations

from dataclasses import dataclass

ALL, OWN, NONE = "all", "own", "none"


@dataclass(frozen=True)
class Place:
    """A place of the table: its name (game.places.<name>), who sees it, and whether it holds one entry a
    seat (ghost hands included: a ghost's entry is nobody's) and cards (the secrecy test looks for their
    letters) or values (a secret choice, a stock of tokens)."""

    name: str
    seen_by: str
    per_seat: bool = True
    cards: bool = True
    words: str = ""


class Places:
    """The round's places of one game, as attributes named by their declarations (game.places.hands)."""

    def __repr__(self) -> str:
        return f"Places({', '.join(sorted(vars(self)))})"
