"""Card data for the hand-written games, read from tests/reference, and the tables they look up.

Cards are small integers (their row in the reference deck), sets of cards are int bitmasks. A card's
icons are one packed integer (a few bits a count), so a seat's whole round is counted by one add a
card, and each score is read from a table indexed by a packed field: everything here runs at import,
nothing in a game calls it. Nothing here knows a rule: each edition's module holds its own.
"""

from __future__ import annotations

import csv
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent.parent / "tests" / "reference"
HAND_SIZE = 7
ROUNDS = 4
M = (1 << 64) - 1                         # splitmix64's constants: the random bot's draw (bots/seeding.py)
GOLDEN, MIX_1, MIX_2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
ACTIVITY_POINTS = (0, 0, 2, 4, 7, 10, 15, 15)   # Australia and USA score sheets, by icons of the kind (1..6)


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


def packed(*fields: tuple[list[int], int, int]) -> list[int]:
    """Per card, its fields packed into one integer: each field (per-card value, shift, width) adds
    the card's value at `shift` (a kind index k of a counted family: pass 1 << (width * k))."""
    cards = len(fields[0][0])
    table = [0] * cards
    for values, shift, _ in fields:
        for card in range(cards):
            table[card] += values[card] << shift
    return table


def counted(kinds: list[int], width: int) -> list[int]:
    """Per card: 1 in the `width`-bit slot of its kind (-1: no icon of the family, 0)."""
    return [1 << (width * kind) if kind >= 0 else 0 for kind in kinds]


def pair_points(values: tuple, width: int) -> list[int]:
    """Points by a packed field of counts (`width` bits a kind): each kind scores its value a pair."""
    slot = (1 << width) - 1
    table = []
    for field in range(1 << (width * len(values))):
        table.append(sum(value * ((field >> (width * k) & slot) // 2) for k, value in enumerate(values)))
    return table


def shown(kinds: int, width: int) -> list[int]:
    """The bitmask of the kinds present (count > 0), by a packed field of counts."""
    slot = (1 << width) - 1
    return [sum(1 << k for k in range(kinds) if field >> (width * k) & slot) for field in range(1 << (width * kinds))]


def kinds_in(kinds: int) -> list[tuple]:
    """The kinds of each bitmask, in order: the options of a choice."""
    return [tuple(k for k in range(kinds) if bits >> k & 1) for bits in range(1 << kinds)]


class Sheet:
    """One game's score sheet, as the rules of every edition keep it (each edition reads what it needs)."""

    __slots__ = ("players", "totals", "visited", "used", "open", "won", "places", "previous")

    def __init__(self, players: int, regions: list[tuple[int, int]]):
        self.players = players
        self.totals = [0] * players
        self.visited = [0] * players         # the cards seen in earlier rounds, a bitmask a seat
        self.used = [0] * players            # the choice's kinds scored in earlier rounds, a bitmask a seat
        self.open = list(regions)            # (cards, bonus) of the regions nobody has completed yet
        self.won = 0                         # seats that took the edition's race (Passport, coast to coast)
        self.places = 0                      # places of that race given so far
        self.previous = [0] * players        # USA: each seat's Americana score of the previous round
