"""Boomerang: Australia by hand: Throw & Catch, collections, animals, activities, sites, region bonuses."""

from __future__ import annotations

from .deck import ACTIVITY_POINTS, Race, counts, mask, pair_points, read_csv

_ROWS = read_csv("australia-cards.csv")
COLLECTIONS = ("Leaves", "Wildflowers", "Shells", "Souvenirs")
COLLECTION_VALUES = (1, 2, 3, 5)
ANIMALS = ("Kangaroos", "Emus", "Wombats", "Koalas", "Platypuses")
ANIMAL_VALUES = (3, 4, 5, 7, 9)
ACTIVITIES = ("Indigenous Culture", "Sightseeing", "Bushwalking", "Swimming")

LETTERS = tuple(row["letter"] for row in _ROWS)
NUMBER = [int(row["number"]) for row in _ROWS]
COLLECTION = [COLLECTION_VALUES[COLLECTIONS.index(row["collection"])] if row["collection"] != "none" else 0
              for row in _ROWS]
ANIMAL = [ANIMALS.index(row["animal"]) if row["animal"] != "none" else -1 for row in _ROWS]
ACTIVITY = [ACTIVITIES.index(row["activity"]) if row["activity"] != "none" else -1 for row in _ROWS]
REGIONS = [(mask(LETTERS.index(x) for x in row["letters"].split(";")), int(row["region_bonus"]))
           for row in read_csv("australia-regions.csv")]


class Rules:
    CARDS = len(LETTERS)
    LETTERS = LETTERS
    CHOICE = "activities"

    def __init__(self, players: int):
        self.players = players
        self.visited = [0] * players
        self.used = [set() for _ in range(players)]
        self.regions = [Race(players) for _ in REGIONS]
        self.totals = [0] * players

    def choice_options(self, seat: int, cards: list[int]) -> list[str]:
        """Activities shown on the round's cards and not scored in an earlier round."""
        found = counts(cards, ACTIVITY, len(ACTIVITIES))
        return [icon for icon, count in zip(ACTIVITIES, found, strict=True) if count and icon not in self.used[seat]]

    def score_round(self, drafts: list[list[int]], choices: list) -> None:
        for seat, cards in enumerate(drafts):
            points = abs(NUMBER[cards[0]] - NUMBER[cards[-1]])
            collected = sum(COLLECTION[card] for card in cards)
            points += 2 * collected if collected <= 7 else collected
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

    def finish(self) -> None:
        for seat, visited in enumerate(self.visited):
            self.totals[seat] += visited.bit_count()
