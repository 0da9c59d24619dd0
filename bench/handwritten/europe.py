"""Boomerang: Europe by hand: Throw & Catch, cuisine, transport, national treasures, sites, regions, Passport."""

from __future__ import annotations

import zlib

from .deck import GOLDEN, MIX_1, MIX_2, M, counted, icon_table, kinds_in, mask, packed, pair_points, read_csv

_ROWS = read_csv("europe-deck.csv")
CUISINES = ("Beer", "Cheese", "Wine", "Spirits")
CUISINE_VALUES = (1, 2, 3, 5)
TRANSPORTS = ("Car", "Train", "Bicycle", "Boat", "Plane")
TRANSPORT_VALUES = (3, 4, 5, 7, 9)
TREASURES = ("Art", "Architecture", "Music", "Natural Wonders")
TREASURE_RATE = (0, 0, 4, 3, 2)            # by players
PASSPORT_POINTS = (0, 7, 3, 1)             # by place (the third only with 3 or 4 players)

LETTERS = tuple(row["letter"] for row in _ROWS)
CARDS = len(LETTERS)
CHOICE, CHOICES = "treasures", TREASURES
CHOICE_CODE = zlib.crc32(CHOICE.encode())   # the category, as the random bot mixes it in
NUMBER = tuple(int(row["number"]) for row in _ROWS)
_CUISINE = [CUISINE_VALUES[i] if i >= 0 else 0 for i in icon_table(_ROWS, "cuisine", CUISINES)]
_TRANSPORT = icon_table(_ROWS, "transport", TRANSPORTS)
_TREASURE = icon_table(_ROWS, "national_treasure", TREASURES)
# a card's icons: its cuisine value (bits 0-5), 3 bits a count of each transport (6-20), 5 bits a count of each
# treasure (21-40: wide enough for every seat's cards added together)
ICONS = tuple(packed((_CUISINE, 0, 6), (counted(_TRANSPORT, 3), 6, 15), (counted(_TREASURE, 5), 21, 20)))
CUISINE_POINTS = tuple((total + 1) // 2 if total >= 8 else total for total in range(64))   # halved from 8
PAIRS = tuple(pair_points(TRANSPORT_VALUES, 3))
OPTIONS = tuple(kinds_in(len(TREASURES)))
REGIONS = [(mask(LETTERS.index(x) for x in row["deck_letters"].split(";")), int(row["region_bonus"]))
           for row in read_csv("europe-regions.csv")]
REGION_CARDS = tuple(cards for cards, _ in REGIONS)


def score_round(sheet, drafts: list[list[int]], keys, asked: int, chosen: list[int]) -> None:
    """Score one round on the sheet. With the seats' `keys`, each random seat chooses a treasure (or none) as the
    engine's random bot does (`asked`: the decision's kind, round and category, mixed in) and `chosen`
    receives its kind; without, `chosen` holds each seat's kind (-1: none)."""
    totals, visited, used = sheet.totals, sheet.visited, sheet.used
    players = sheet.players
    seat_icons = [0] * players
    everyone = 0
    for seat in range(players):
        icons = 0
        seen = visited[seat]
        for card in drafts[seat]:
            icons += ICONS[card]
            seen |= 1 << card
        visited[seat] = seen
        seat_icons[seat] = icons
        everyone += icons
    rate = TREASURE_RATE[players]
    for seat in range(players):
        cards, icons = drafts[seat], seat_icons[seat]
        points = NUMBER[cards[0]] - NUMBER[cards[-1]]
        if points < 0:
            points = -points
        points += CUISINE_POINTS[icons & 63] + PAIRS[icons >> 6 & 0x7FFF]
        treasures = icons >> 21
        if keys is not None:                                  # the random bot's draw: options, then none
            own = ((1 if treasures & 31 else 0) | (2 if treasures >> 5 & 31 else 0)
                   | (4 if treasures >> 10 & 31 else 0) | (8 if treasures >> 15 else 0))
            options = OPTIONS[own & ~used[seat]]
            count = len(options) + 1
            x = (keys[seat] ^ asked ^ count << 12) + GOLDEN & M
            x = (x ^ x >> 30) * MIX_1 & M
            x = (x ^ x >> 27) * MIX_2 & M
            pick = (x ^ x >> 31) % count
            kind = chosen[seat] = options[pick] if pick < len(options) else -1
        else:
            kind = chosen[seat]
        if kind >= 0:
            shift = 21 + 5 * kind
            points += ((everyone >> shift & 31) - (treasures >> 5 * kind & 31)) * rate
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
    given = False                                             # Passport: a site in every region
    for seat in range(players):
        if sheet.won >> seat & 1:
            continue
        seen = visited[seat]
        for cards in REGION_CARDS:
            if not seen & cards:
                break
        else:
            if not given:
                sheet.places += 1
                given = True
            sheet.won |= 1 << seat
            place = sheet.places
            if place <= 3 and (place < 3 or players >= 3):
                totals[seat] += PASSPORT_POINTS[place]


def finish(sheet) -> None:
    """The tourist sites: a point a site visited."""
    for seat in range(sheet.players):
        sheet.totals[seat] += sheet.visited[seat].bit_count()
