"""Boomerang: USA by hand: Throw & Catch, Americana, animals, activities, towns, regions, coast to coast."""

from __future__ import annotations

from .deck import ACTIVITY_POINTS, Race, counts, icon_table, mask, pair_points, read_csv

_ROWS = read_csv("usa-deck.csv")
AMERICANA = ("Mail box", "Baseball cap", "Football jersey", "US flag")
AMERICANA_VALUES = (1, 2, 3, 5)
ANIMALS = ("Trout", "Cattle", "Grizzly", "Bald eagle", "Bigfoot")
ANIMAL_VALUES = (3, 4, 5, 7, 9)
ACTIVITIES = ("Sightseeing", "Sporting events", "Hiking", "Dining")

LETTERS = tuple(row["letter"] for row in _ROWS)
NUMBER = [int(row["number"]) for row in _ROWS]
AMERICANA_OF = [AMERICANA_VALUES[i] if i >= 0 else 0 for i in icon_table(_ROWS, "americana", AMERICANA)]
ANIMAL = icon_table(_ROWS, "animal", ANIMALS)
ACTIVITY = icon_table(_ROWS, "activity", ACTIVITIES)
_TOWNS = read_csv("usa-towns.csv")
_REGION_NAMES = list(dict.fromkeys(row["region"] for row in _TOWNS))
REGIONS = [(mask(LETTERS.index(row["letter"]) for row in _TOWNS if row["region"] == name), 3) for name in _REGION_NAMES]
WEST = mask(LETTERS.index(row["letter"]) for row in _TOWNS if row["coast"] == "west")
EAST = mask(LETTERS.index(row["letter"]) for row in _TOWNS if row["coast"] == "east")
NEIGHBOURS = [0] * len(LETTERS)                 # card -> bitmask of the towns one path away
for _row in read_csv("usa-map.csv"):
    _a, _b = LETTERS.index(_row["town_a"]), LETTERS.index(_row["town_b"])
    NEIGHBOURS[_a] |= 1 << _b
    NEIGHBOURS[_b] |= 1 << _a


def coast_to_coast(visited: int) -> bool:
    """A chain of paths between visited towns from a west-coast town to an east-coast town."""
    reached = frontier = visited & WEST
    while frontier:
        grown = 0
        while frontier:
            low = frontier & -frontier
            grown |= NEIGHBOURS[low.bit_length() - 1]
            frontier ^= low
        frontier = grown & visited & ~reached
        reached |= frontier
    return bool(reached & EAST)


class Rules:
    CARDS = len(LETTERS)
    LETTERS = LETTERS
    CHOICE = "activities"

    def __init__(self, players: int):
        self.players = players
        self.visited = [0] * players
        self.used = [set() for _ in range(players)]
        self.americana = [0] * players          # each seat's Americana score of the previous round
        self.regions = [Race(players) for _ in REGIONS]
        self.coast = Race(players)
        self.totals = [0] * players

    def choice_options(self, seat: int, cards: list[int]) -> list[str]:
        """Activities shown on the round's cards and not scored in an earlier round."""
        found = counts(cards, ACTIVITY, len(ACTIVITIES))
        return [icon for icon, count in zip(ACTIVITIES, found, strict=True) if count and icon not in self.used[seat]]

    def score_round(self, drafts: list[list[int]], choices: list) -> None:
        for seat, cards in enumerate(drafts):
            throw, catch = NUMBER[cards[0]], NUMBER[cards[-1]]
            points = throw if catch >= throw else 0
            americana = sum(AMERICANA_OF[card] for card in cards)
            americana = americana if americana > self.americana[seat] else 0
            self.americana[seat] = americana
            points += americana
            points += pair_points(counts(cards, ANIMAL, len(ANIMALS)), ANIMAL_VALUES)
            chosen = choices[seat]
            if chosen is not None:
                kind = ACTIVITIES.index(chosen)
                points += ACTIVITY_POINTS[sum(1 for card in cards if ACTIVITY[card] == kind)]
                self.used[seat].add(chosen)
            self.totals[seat] += points
            self.visited[seat] |= mask(cards)
        for race, (cards, bonus) in zip(self.regions, REGIONS, strict=True):
            place, seats = race.run([visited & cards == cards for visited in self.visited])
            if place == 1:
                for seat in seats:
                    self.totals[seat] += bonus
        place, seats = self.coast.run([coast_to_coast(visited) for visited in self.visited])
        award = 7 if place == 1 else 3 if place == 2 else 1 if self.players >= 3 else 0
        for seat in seats:
            self.totals[seat] += award

    def finish(self) -> None:
        for seat, visited in enumerate(self.visited):
            self.totals[seat] += visited.bit_count()
