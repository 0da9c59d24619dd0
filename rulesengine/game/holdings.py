"""The score sheet's lines over what seats hold: the cards they captured and the tokens they kept.

An edition whose round claims cards and bids with tokens (the 2010 game) scores at game end over
those holdings: a majority category compares seats (per icon of its family, the seats whose
captured cards show it most often score that count, the others 0), an expression category reads
`captured` and each stock by name. The lines are shown as they stand while the game runs (the
holdings are on the table), and ScoreKeeper writes them into its sheet; the same function serves
the game, `boom score` and the bots, so they can never disagree. It never looks at how the cards
were captured.
"""

from __future__ import annotations

from collections import Counter

from ..edition.model import HOLDINGS
from ..edition.scopes import flow_end_env


def holding_categories(edition) -> tuple:
    return tuple(c for c in edition.categories if c.when == HOLDINGS)


def majority_points(family, captured: list[list], pays: tuple = (100,)) -> list[int]:
    """Per seat, the points of a majority over this family: for each icon, the seats whose cards
    show it most often (at least once) score that count; with `pays`, the seats at the next places
    (the second most, ...) score their share of their own count (percent, rounded down)."""
    points = [0] * len(captured)
    counts = [Counter(icon for card in cards for icon in card.icons if icon in family.icon_set) for cards in captured]
    for icon in family.icons:
        places = sorted({c[icon] for c in counts if c[icon]}, reverse=True)[:len(pays)]
        for place, count in enumerate(places):
            for seat, c in enumerate(counts):
                if c[icon] == count:
                    points[seat] += count * pays[place] // 100
    return points


def holding_points(edition, captured: list[list], stocks: list[dict], run) -> list[dict]:
    """Per seat, key -> the points of each holding category (run: how the sheet runs an expression)."""
    players = len(stocks)
    columns = {}
    for category in holding_categories(edition):
        if category.majority is not None:
            columns[category.key] = majority_points(category.majority, captured, category.pays)
        else:
            columns[category.key] = [run(category.score, flow_end_env(captured[s], players, stocks[s]), 0)
                                     for s in range(players)]
    return [{key: points[seat] for key, points in columns.items()} for seat in range(players)]
