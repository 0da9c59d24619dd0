"""Card data for the hand-written games, read from tests/reference, and the bitmask helpers they share.

Cards are small integers (their row in the reference deck), sets of cards are int bitmasks. Nothing
here knows a rule: each edition's module holds its own.
"""

from __future__ import annotations

import csv
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent.parent / "tests" / "reference"
HAND_SIZE = 7
ROUNDS = 4


def read_csv(name: str) -> list[dict]:
    with open(REFERENCE / name, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def mask(cards) -> int:
    """The bitmask of these card numbers."""
    bits = 0
    for card in cards:
        bits |= 1 << card
    return bits


def icon_table(rows: list[dict], family: str, icons: tuple) -> list[int]:
    """Per card: the index in `icons` of its icon of this family (deck files: icon_1/icon_2), or -1."""
    table = []
    for row in rows:
        found = -1
        for slot in ("icon_1", "icon_2"):
            if row[f"{slot}_family"] == family:
                found = icons.index(row[slot])
        table.append(found)
    return table


def pair_points(counts: list[int], values: tuple) -> int:
    """Each kind scores its value once per pair."""
    return sum(value * (count // 2) for count, value in zip(counts, values, strict=True))


def counts(cards: list[int], table: list[int], kinds: int) -> list[int]:
    """How many of these cards show each icon of one family."""
    found = [0] * kinds
    for card in cards:
        icon = table[card]
        if icon >= 0:
            found[icon] += 1
    return found


ACTIVITY_POINTS = {1: 0, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}   # Australia and USA score sheets


class Race:
    """A race won once per seat: seats qualifying in the same round share a place (1, 2, ...)."""

    def __init__(self, players: int):
        self.won = [False] * players
        self.places = 0

    def run(self, qualifies: list[bool]) -> tuple[int, list[int]]:
        """The place given this round (0 if none) and the seats that take it."""
        seats = [seat for seat, ok in enumerate(qualifies) if ok and not self.won[seat]]
        if not seats:
            return 0, seats
        self.places += 1
        for seat in seats:
            self.won[seat] = True
        return self.places, seats
