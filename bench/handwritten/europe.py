"""Boomerang: Europe by hand: Throw & Catch, cuisine, transport, national treasures, sites, regions, Passport."""

from __future__ import annotations

from .deck import Race, counts, icon_table, mask, pair_points, read_csv

_ROWS = read_csv("europe-deck.csv")
CUISINES = ("Beer", "Cheese", "Wine", "Spirits")
CUISINE_VALUES = (1, 2, 3, 5)
TRANSPORTS = ("Car", "Train", "Bicycle", "Boat", "Plane")
TRANSPORT_VALUES = (3, 4, 5, 7, 9)
TREASURES = ("Art", "Architecture", "Music", "Natural Wonders")
TREASURE_RATE = {2: 4, 3: 3, 4: 2}
PASSPORT_POINTS = {1: 7, 2: 3, 3: 1}

LETTERS = tuple(row["letter"] for row in _ROWS)
NUMBER = [int(row["number"]) for row in _ROWS]
CUISINE = [CUISINE_VALUES[i] if i >= 0 else 0 for i in icon_table(_ROWS, "cuisine", CUISINES)]
TRANSPORT = icon_table(_ROWS, "transport", TRANSPORTS)
TREASURE = icon_table(_ROWS, "national_treasure", TREASURES)
REGIONS = [(mask(LETTERS.index(x) for x in row["deck_letters"].split(";")), int(row["region_bonus"]))
           for row in read_csv("europe-regions.csv")]


class Rules:
    CARDS = len(LETTERS)
    LETTERS = LETTERS
    CHOICE = "treasures"

    def __init__(self, players: int):
        self.players = players
        self.visited = [0] * players
        self.used = [set() for _ in range(players)]
        self.regions = [Race(players) for _ in REGIONS]
        self.passport = Race(players)
        self.totals = [0] * players

    def choice_options(self, seat: int, cards: list[int]) -> list[str]:
        """Treasures shown on the seat's own cards this round and not scored in an earlier round."""
        found = counts(cards, TREASURE, len(TREASURES))
        return [icon for icon, count in zip(TREASURES, found, strict=True) if count and icon not in self.used[seat]]

    def score_round(self, drafts: list[list[int]], choices: list) -> None:
        everyone = counts([card for cards in drafts for card in cards], TREASURE, len(TREASURES))
        for seat, cards in enumerate(drafts):
            points = abs(NUMBER[cards[0]] - NUMBER[cards[-1]])
            cuisine = sum(CUISINE[card] for card in cards)
            points += (cuisine + 1) // 2 if cuisine >= 8 else cuisine
            points += pair_points(counts(cards, TRANSPORT, len(TRANSPORTS)), TRANSPORT_VALUES)
            chosen = choices[seat]
            if chosen is not None:
                kind = TREASURES.index(chosen)
                mine = sum(1 for card in cards if TREASURE[card] == kind)
                points += (everyone[kind] - mine) * TREASURE_RATE[self.players]
                self.used[seat].add(chosen)
            self.totals[seat] += points
            self.visited[seat] |= mask(cards)
        for race, (cards, bonus) in zip(self.regions, REGIONS, strict=True):
            place, seats = race.run([visited & cards == cards for visited in self.visited])
            if place == 1:
                for seat in seats:
                    self.totals[seat] += bonus
        place, seats = self.passport.run([all(visited & cards for cards, _ in REGIONS) for visited in self.visited])
        award = 0 if place == 3 and self.players < 3 else PASSPORT_POINTS.get(place, 0)
        for seat in seats:
            self.totals[seat] += award

    def finish(self) -> None:
        for seat, visited in enumerate(self.visited):
            self.totals[seat] += visited.bit_count()
