"""A seat's value of hands as a few dozen numpy calls, generated from the edition's scoring program: the search lanes.

The search bot's rollouts (bots/lanes.py) play every (sampled world x option searched) of a decision in lockstep,
pass by pass: every seat of every lane values each card of its hand as the generated pick does (dsl/program/pick.py,
value.py's statements: the seat's own round categories, a choice at its best icon, the races still open to it as if
it alone qualified, the game-end gain where its visited sites grew) and takes the first of the best. arrays.py says
the whole language as array code, but makes about 250 numpy calls a batch of hands however few its rows, more than
a decision's compiled rollouts cost. Here the categories' checked trees are turned into array code on what a hand
is made of, once an edition (fast/lane_trees.py compiles them):
- a hand is its icons' counts (lanes x seats x cards x icons), the numbers of its Throw and Catch, and its visited
  sites as one int64 mask (bit site.index, helpers.site_bits);
- a comprehension over a family's icons (`kinds(f)`, `icons(cards, f)`) is an icon axis, summed (weighted by the
  counts for `icons`); a choice is that axis over the choice's icons, at the best the seat may choose;
- a race over regions is a region axis (`subset` and `intersects` as mask tests), `connected` a frontier grown a
  byte of the mask at a time over the map (helpers.neighbour_bytes), the awards those the seat may still take;
- the game end's `len(visited)` is a bit count.
An expression that fails (a lookup of a missing row, a product past MAX_NUMBER where the compiled code checks it)
counts 0 and a requires that fails is not met, as value.py writes them. A node or standing this does not
translate raises Unsupported naming it: the bot then plays the compiled rollouts (a named fallback, never a wrong
value). tests/test_search_lanes.py holds the values to the generated pick's on random hands.
"""

from __future__ import annotations

import numpy as np

from ..dsl.program.helpers import card_mask, neighbour_bytes
from .cards import Unsupported
from .lane_trees import Hand, Regions, chosen_points, compile_tree, qualified_by, zero_where_failed


class LaneValue:
    """An edition's value of hands as arrays (module docstring), its trees compiled once; Unsupported from the
    constructor, naming what it does not translate, where it has none."""

    def __init__(self, edition):
        self.edition = edition
        if max(card.index for card in edition.cards) > 62 or max(card.site.index for card in edition.cards) > 62:
            raise Unsupported("more than 63 cards (the visited sites are one int64)")
        icons = [icon for family in edition.families.values() for icon in family.icons]   # a family's together
        icons = list(dict.fromkeys(icons + sorted({icon for card in edition.cards for icon in card.icons})))
        self.at = {icon: i for i, icon in enumerate(icons)}
        size = max(card.index for card in edition.cards) + 1
        self.counts = np.zeros((size, len(icons)), np.int64)   # card -> its icons' counts
        self.number = np.zeros(size, np.int64)   # card -> its number (0 where it has none: never read then)
        self.site = np.zeros(size, np.int64)   # card -> its site's bit
        for card in edition.cards:
            for icon in card.icons:
                self.counts[card.index, self.at[icon]] += 1
            self.number[card.index] = card.number if isinstance(card.number, int) else 0
            self.site[card.index] = 1 << card.site.index
        neighbours = [0] * size
        for card in edition.cards:
            neighbours[card.index] = card_mask(edition.paths.get(card, ()))
        self.neighbours = tuple(np.array(table, np.int64) for table in neighbour_bytes(tuple(neighbours)))
        self.rounds = tuple(c for c in edition.categories if c.when == "round" and c.counts)
        self.ends = tuple(c for c in edition.categories if c.when == "game_end" and c.counts)
        if any(c.choice is not None for c in self.ends):
            raise Unsupported("a choice in a game-end category")
        self.points = {}   # category key -> f(hand): its points (a choice's at its best icon)
        for category in self.rounds + self.ends:
            if category.choice is None:
                self.points[category.key] = zero_where_failed(compile_tree(self, category.score, {}))
            else:
                self.points[category.key] = chosen_points(self, category)
        self.races = []   # per race: (its regions, in slot order, or None; f(hand): qualified, region axis last)
        for race in edition.races:
            regions = tuple(edition.regions) if race.each else None
            scope = {"region": Regions(regions)} if race.each else {}
            self.races.append((regions, qualified_by(compile_tree(self, race.qualifies, scope))))

    def standing(self, standing) -> _Standing:
        """The seats' inputs at this standing (a decision's): Unsupported where the lanes do not value it alike."""
        return _Standing(self, standing)



class _Standing:
    """A decision's standing as arrays of seats (axis 1 of lanes x seats x cards), and the value of hands at it."""

    def __init__(self, lanes: LaneValue, standing):
        if standing.shared:
            raise Unsupported("a round category reads the other seats' cards")
        if standing.goals:
            raise Unsupported("public goals scored at the game's end")
        if tuple(c.key for c in standing.own) != tuple(c.key for c in lanes.rounds):
            raise Unsupported("the standing's round categories are not the edition's")
        seats = standing.seats
        self.lanes, self.at = lanes, standing.at
        self.before = np.array([card_mask(past.visited) for past in seats], np.int64).reshape(1, -1, 1)
        self.size = np.array([len(past.visited) for past in seats], np.int64).reshape(1, -1, 1)
        self.end_points = np.array([past.end_points for past in seats], np.int64).reshape(1, -1, 1)
        self.rounds = []   # (f(hand), the seats' `previous` of the category, the icons each seat may choose)
        for category in lanes.rounds:
            previous = np.array([past.previous.get(category.key, 0) for past in seats]).reshape(1, -1, 1)
            choosable = None
            if category.choice is not None:
                icons = category.choice.family.icons
                choosable = np.array([[icon in past.choosable[category.key] for icon in icons] for past in seats])
                choosable = choosable.reshape(1, len(seats), 1, len(icons))
            self.rounds.append((lanes.points[category.key], previous, choosable))
        self.races = []   # (f(hand), the awards each seat may still take: 1 x seats x 1 [x regions])
        for index, (regions, qualified) in enumerate(lanes.races):
            awards = np.zeros((1, len(seats), 1, len(regions or (None,))), np.int64)
            for seat, races in enumerate(standing.open_races):
                for region, award in races[index]:
                    if not isinstance(award, int) or isinstance(award, bool):
                        raise Unsupported(f"a race award of {award!r}")
                    if regions is None:
                        awards[0, seat, 0, 0] += award
                    else:
                        awards[0, seat, 0, next(i for i, r in enumerate(regions) if r is region)] += award
            if awards.any():
                self.races.append((qualified, awards if regions is not None else awards[..., 0]))

    def value(self, counts, visited, throw, catch):
        """Each hand's value, what the seat's generated pick gives it (pick.py): counts lanes x seats x cards x icons,
        visited (with the sites visited before the round), throw and catch (card indices) lanes x seats x cards."""
        lanes = self.lanes
        hand = Hand(counts, visited, lanes.number.take(throw), lanes.number.take(catch), self.at)
        value = 0
        for points, previous, choosable in self.rounds:
            hand.previous = previous
            value = value + (points(hand) if choosable is None else points(hand, choosable))
        for qualified, awards in self.races:
            ok = qualified(hand)
            if ok is not False:
                ok = np.where(ok, awards, 0)
                value = value + (ok.sum(axis=-1) if awards.ndim == 4 else ok)
        if lanes.ends:
            end = 0
            for category in lanes.ends:
                end = end + lanes.points[category.key](hand)
            sites = np.bitwise_count(visited).astype(np.int64)
            value = value + np.where(sites != self.size, end - self.end_points, 0)
        return value
