"""The score sheet of a game with a flow: game-end categories over what each seat captured and kept.

A majority category compares seats (per icon of its family, the seats whose captured cards show it
most often score that count, the others 0); an expression category reads `captured` and each stock
by name. One function serves the game, `boom score` and the bots, so they can never disagree.
It never looks at how the cards were captured, and never ranks by anything but the edition's
tie-breaks (category keys, or a stock's name: the tokens kept).
"""

from __future__ import annotations

from collections import Counter

from ..edition.model import Edition
from ..edition.scopes import flow_end_env
from .scoring import evaluate


def majority_points(family, captured: list[list]) -> list[int]:
    """Per seat, the points of a majority over this family: for each icon, the seats whose cards
    show it most often (at least once) score that count."""
    points = [0] * len(captured)
    counts = [Counter(icon for card in cards for icon in card.icons if icon in family.icon_set) for cards in captured]
    for icon in family.icons:
        best = max(c[icon] for c in counts)
        if best:
            for seat, c in enumerate(counts):
                if c[icon] == best:
                    points[seat] += best
    return points


def flow_sheet(edition: Edition, players: list[str], captured: list[list], kept: list[dict]) -> dict:
    """The final sheet: per player the total, each category's points and the stocks kept; the winners."""
    columns = {}
    for category in edition.categories:
        if category.majority is not None:
            columns[category.key] = majority_points(category.majority, captured)
        else:
            columns[category.key] = [_run(category, captured[s], len(players), kept[s]) for s in range(len(players))]
    rows = []
    for seat, name in enumerate(players):
        categories = {key: points[seat] for key, points in columns.items()}
        rows.append(
            {
                "name": name,
                "total": sum(categories.values()),
                "categories": categories,
                "rounds": [],
                "captured": [c.letter for c in captured[seat]],
                "stocks": dict(kept[seat]),
            }
        )
    return {"players": rows, "winners": [rows[s]["name"] for s in winners(edition, rows)]}


def winners(edition: Edition, rows: list[dict]) -> list[int]:
    """The seats ranked first: the highest total, then each tie-break in order; still tied, all of them."""

    def rank(seat):
        row = rows[seat]
        return (row["total"],) + tuple(
            row["categories"].get(key, row["stocks"].get(key, 0)) for key in edition.tie_breaks
        )

    best = max(rank(s) for s in range(len(rows)))
    return [s for s in range(len(rows)) if rank(s) == best]


def _run(category, captured: list, players: int, kept: dict) -> int:
    return evaluate(category.score, flow_end_env(captured, players, kept), f"category '{category.key}' at game end")
