"""Boomerang: Australia by hand: Throw & Catch, collections, animals, activities, sites, region bonuses."""

from __future__ import annotations

import zlib

from .deck import (
    ACTIVITY_POINTS,
    GOLDEN,
    MIX_1,
    MIX_2,
    M,
    counted,
    kinds_in,
    mask,
    packed,
    pair_points,
    read_csv,
    shown,
)

_ROWS = read_csv("australia-cards.csv")
COLLECTIONS = ("Leaves", "Wildflowers", "Shells", "Souvenirs")
COLLECTION_VALUES = (1, 2, 3, 5)
ANIMALS = ("Kangaroos", "Emus", "Wombats", "Koalas", "Platypuses")
ANIMAL_VALUES = (3, 4, 5, 7, 9)
ACTIVITIES = ("Indigenous Culture", "Sightseeing", "Bushwalking", "Swimming")

LETTERS = tuple(row["letter"] for row in _ROWS)
CARDS = len(LETTERS)
CHOICE, CHOICES = "activities", ACTIVITIES
CHOICE_CODE = zlib.crc32(CHOICE.encode())   # the category, as the random bot mixes it in
NUMBER = tuple(int(row["number"]) for row in _ROWS)
_COLLECTION = [COLLECTION_VALUES[COLLECTIONS.index(row["collection"])] if row["collection"] != "none" else 0
               for row in _ROWS]
_ANIMAL = [ANIMALS.index(row["animal"]) if row["animal"] != "none" else -1 for row in _ROWS]
_ACTIVITY = [ACTIVITIES.index(row["activity"]) if row["activity"] != "none" else -1 for row in _ROWS]
# a card's icons: its collection value (bits 0-5), 3 bits a count of each animal (6-20) and activity (21-32)
ICONS = tuple(packed((_COLLECTION, 0, 6), (counted(_ANIMAL, 3), 6, 15), (counted(_ACTIVITY, 3), 21, 12)))
COLLECTION_POINTS = tuple(2 * total if total <= 7 else total for total in range(64))   # doubled from 1 to 7
PAIRS = tuple(pair_points(ANIMAL_VALUES, 3))
SHOWN = tuple(shown(len(ACTIVITIES), 3))
OPTIONS = tuple(kinds_in(len(ACTIVITIES)))
REGIONS = [(mask(LETTERS.index(x) for x in row["letters"].split(";")), int(row["region_bonus"]))
           for row in read_csv("australia-regions.csv")]


def score_round(sheet, drafts: list[list[int]], keys, asked: int, chosen: list[int]) -> None:
    """Score one round on the sheet. With the seats' `keys`, each random seat chooses an activity (or none) as the
    engine's random bot does (`asked`: the decision's kind, round and category, mixed in) and `chosen`
    receives its kind; without, `chosen` holds each seat's kind (-1: none)."""
    totals, visited, used = sheet.totals, sheet.visited, sheet.used
    players = sheet.players
    for seat in range(players):
        cards = drafts[seat]
        icons = 0
        seen = visited[seat]
        for card in cards:
            icons += ICONS[card]
            seen |= 1 << card
        visited[seat] = seen
        points = NUMBER[cards[0]] - NUMBER[cards[-1]]
        if points < 0:
            points = -points
        points += COLLECTION_POINTS[icons & 63] + PAIRS[icons >> 6 & 0x7FFF]
        activities = icons >> 21
        if keys is not None:                                  # the random bot's draw: options, then none
            options = OPTIONS[SHOWN[activities] & ~used[seat]]
            count = len(options) + 1
            x = (keys[seat] ^ asked ^ count << 12) + GOLDEN & M
            x = (x ^ x >> 30) * MIX_1 & M
            x = (x ^ x >> 27) * MIX_2 & M
            pick = (x ^ x >> 31) % count
            kind = chosen[seat] = options[pick] if pick < len(options) else -1
        else:
            kind = chosen[seat]
        if kind >= 0:
            points += ACTIVITY_POINTS[activities >> 3 * kind & 7]
            used[seat] |= 1 << kind
        totals[seat] += points
    for region in sheet.open[:]:                              # once taken, closed to later rounds
        cards, bonus = region
        taken = False
        for seat in range(players):
            if visited[seat] & cards == cards:
                totals[seat] += bonus
                taken = True
        if taken:
            sheet.open.remove(region)


def finish(sheet) -> None:
    """The tourist sites: a point a site visited."""
    for seat in range(sheet.players):
        sheet.totals[seat] += sheet.visited[seat].bit_count()
