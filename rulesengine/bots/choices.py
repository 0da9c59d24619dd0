"""A once-per-game choice at a round's end planned over the rounds left (the guided bot's `plan` option).

best_choice (greedy.py) scores the icon worth most now if it is worth at least a fixed reserve (the mean points of a
legal icon in a random round): the same threshold in the first round as in the third, with four icons left or one.
Here the choice is the one that maximises the points now plus the expected points of the icons still unused over the
rounds still to come, V(icons left, rounds left), by dynamic programming over the sets of icons left: in each round to
come, the points every icon would score are drawn from seeded random first-round hands (the reserve's own estimate of
a round), and the best icon, or none, is taken with the rounds after it in view. Scoring two points now with an icon
that a later round would likely score seven with is then weighed, not thresholded.

The hands are random, not drafted (a seat that drafts for an icon collects more of it): the future it weighs is the
same modest one the reserve assumes, so it errs, as best_choice does, towards scoring now (the rounds to come's points
taken 1.5 times, as a drafter's might be, did no better: docs/bots.md).
An icon chosen more than once a game (`once_per_game: N`) is left to best_choice (its standing keeps a set of icons).
Measured (docs/bots.md, 2026-11-28): the guided bot planning its choices, and nothing else changed, gained +2.8 +- 3.1
points against three greedy bots (600 paired games of seed 50, 4-player Australia) and won 50.8% (48.6-52.9%) of
2,000 fresh games (48.4% of 2,000 before); a file format 6 game's guided bot plans (bots/seeding.PLANNED_CHOICES).
"""

from __future__ import annotations

from ..edition.model import Edition
from .evaluate import choice_points, face_up_cards, standing_from_view
from .greedy import best_choice, random_choice_points

HANDS = 400   # random rounds drawn for the expected points of the rounds to come (seeded: the same for every game)


def planned_choice(edition: Edition, view: dict, decision):
    """The icon (or None) that maximises the points now plus V(the icons left after it, the rounds after this)."""
    category = next(c for c in edition.choice_categories if c.key == decision.category)
    if not category.choice.once_per_game or category.choice.times != 1:
        return best_choice(edition, view, decision)
    standing = standing_from_view(edition, view)
    seat = view["seat"]
    later = max(0, standing.edition.rounds - standing.round)
    used = standing.seats[seat].used.get(category.key, ())
    left = frozenset(icon for icon in category.choice.family.icons if icon not in used)
    points = choice_points(standing, seat, category, *face_up_cards(edition, view))
    future = rounds_to_come(edition, category, standing.players)
    best, best_value = None, future.value(left, later)
    for icon in decision.options:
        if icon is None or points.get(icon, 0) <= 0:
            continue
        value = points[icon] + future.value(left - {icon}, later)
        if value > best_value:
            best, best_value = icon, value
    return best


def rounds_to_come(edition: Edition, category, players: int) -> _Future:
    """V of this category's icons over the drawn rounds, kept with the edition per category and number of players."""
    return edition.kept(("planned choice", category.key, players), _Future.drawn, edition, category, players)


class _Future:
    """V(icons left, rounds left): the expected points of the best choices over the rounds to come (module docstring),
    over some drawn rounds (icon -> points, the legal icons), its values remembered as they are worked out."""

    def __init__(self, rounds: list):
        self.rounds = rounds
        self.values: dict = {}

    @classmethod
    def drawn(cls, edition: Edition, category, players: int) -> _Future:
        """Over the points of every legal icon in HANDS seeded random first-round hands (kept with the edition)."""
        return cls(random_choice_points(edition, category, players, "planned", HANDS))

    def value(self, left: frozenset, later: int) -> float:
        if not later or not left:
            return 0.0
        key = (left, later)
        if key not in self.values:
            total = 0.0
            for points in self.rounds:
                best = self.value(left, later - 1)
                for icon in left:
                    if points.get(icon, 0) > 0:
                        best = max(best, points[icon] + self.value(left - {icon}, later - 1))
                total += best
            self.values[key] = total / len(self.rounds)
        return self.values[key]
