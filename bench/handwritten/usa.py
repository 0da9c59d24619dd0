"""Boomerang: USA by hand: Throw & Catch, Americana, animals, activities, towns, regions, coast to coast."""

from __future__ import annotations

import zlib

from .deck import (
    ACTIVITY_POINTS,
    GOLDEN,
    MIX_1,
    MIX_2,
    M,
    counted,
    icon_table,
    kinds_in,
    mask,
    packed,
    pair_points,
    read_csv,
    shown,
)

_ROWS = read_csv("usa-deck.csv")
AMERICANA = ("Mail box", "Baseball cap", "Football jersey", "US flag")
AMERICANA_VALUES = (1, 2, 3, 5)
ANIMALS = ("Trout", "Cattle", "Grizzly", "Bald eagle", "Bigfoot")
ANIMAL_VALUES = (3, 4, 5, 7, 9)
ACTIVITIES = ("Sightseeing", "Sporting events", "Hiking", "Dining")

LETTERS = tuple(row["letter"] for row in _ROWS)
CARDS = len(LETTERS)
CHOICE, CHOICES = "activities", ACTIVITIES
CHOICE_CODE = zlib.crc32(CHOICE.encode())   # the category, as the random bot mixes it in
NUMBER = tuple(int(row["number"]) for row in _ROWS)
_AMERICANA = [AMERICANA_VALUES[i] if i >= 0 else 0 for i in icon_table(_ROWS, "americana", AMERICANA)]
_ANIMAL = icon_table(_ROWS, "animal", ANIMALS)
_ACTIVITY = icon_table(_ROWS, "activity", ACTIVITIES)
# a card's icons: its Americana value (bits 0-5), 3 bits a count of each animal (6-20) and activity (21-32)
ICONS = tuple(packed((_AMERICANA, 0, 6), (counted(_ANIMAL, 3), 6, 15), (counted(_ACTIVITY, 3), 21, 12)))
PAIRS = tuple(pair_points(ANIMAL_VALUES, 3))
SHOWN = tuple(shown(len(ACTIVITIES), 3))
OPTIONS = tuple(kinds_in(len(ACTIVITIES)))
_TOWNS = read_csv("usa-towns.csv")
_REGION_NAMES = list(dict.fromkeys(row["region"] for row in _TOWNS))
REGIONS = [(mask(LETTERS.index(row["letter"]) for row in _TOWNS if row["region"] == name), 3) for name in _REGION_NAMES]
WEST = mask(LETTERS.index(row["letter"]) for row in _TOWNS if row["coast"] == "west")
EAST = mask(LETTERS.index(row["letter"]) for row in _TOWNS if row["coast"] == "east")
_NEIGHBOURS = [0] * CARDS                 # card -> bitmask of the towns one path away
for _row in read_csv("usa-map.csv"):
    _a, _b = LETTERS.index(_row["town_a"]), LETTERS.index(_row["town_b"])
    _NEIGHBOURS[_a] |= 1 << _b
    _NEIGHBOURS[_b] |= 1 << _a
NEIGHBOURS = tuple(_NEIGHBOURS)
COAST_POINTS = (0, 7, 3, 1)               # by place (1 for every later place, with 3 or 4 players)


def score_round(sheet, drafts: list[list[int]], keys, asked: int, chosen: list[int]) -> None:
    """Score one round on the sheet. With the seats' `keys`, each random seat chooses an activity (or none) as the
    engine's random bot does (`asked`: the decision's kind, round and category, mixed in) and `chosen`
    receives its kind; without, `chosen` holds each seat's kind (-1: none)."""
    totals, visited, used, previous = sheet.totals, sheet.visited, sheet.used, sheet.previous
    players = sheet.players
    for seat in range(players):
        cards = drafts[seat]
        icons = 0
        seen = visited[seat]
        for card in cards:
            icons += ICONS[card]
            seen |= 1 << card
        visited[seat] = seen
        throw = NUMBER[cards[0]]
        points = throw if NUMBER[cards[-1]] >= throw else 0
        americana = icons & 63
        if americana <= previous[seat]:                       # more than last round's Americana score, or 0
            americana = 0
        previous[seat] = americana
        points += americana + PAIRS[icons >> 6 & 0x7FFF]
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
    given = False                                             # coast to coast: a chain of towns west to east
    for seat in range(players):
        if sheet.won >> seat & 1:
            continue
        seen = visited[seat]
        reached = frontier = seen & WEST
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= NEIGHBOURS[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & seen & ~reached
            reached |= frontier
        if reached & EAST:
            if not given:
                sheet.places += 1
                given = True
            sheet.won |= 1 << seat
            place = sheet.places
            totals[seat] += COAST_POINTS[place] if place < 3 else 1 if players >= 3 else 0


def finish(sheet) -> None:
    """The towns: a point a town visited."""
    for seat in range(sheet.players):
        sheet.totals[seat] += sheet.visited[seat].bit_count()
