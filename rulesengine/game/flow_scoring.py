"""The score sheet of a game with a flow: game-end categories over what each seat captured and kept.

A majority category compares seats (per icon of its family, the seats whose captured cards show it
most often score that count, the others 0); an expression category reads `captured` and each stock
by name. One function serves the game, `boom score` and the bots, so they can never disagree.
It never looks at how the cards were captured, and never ranks by anything but the edition's
tie-breaks (category keys, or a stock's name: the tokens kept) through game/ranking.py.
"""

from __future__ import annotations

from collections import Counter

from ..edition.model import Edition
from ..edition.scopes import flow_end_env
from .ranking import rank_seats
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
    ranking = rank_seats([row["total"] for row in rows], [dict(row["stocks"], **row["categories"]) for row in rows],
                         edition.tie_breaks, edition.lowest_first)
    decider = ranking.decided_by
    titles = {c.key: c.title for c in edition.categories} | {stock: f"{stock} kept" for stock in edition.stocks}
    return {
        "players": rows,
        "winners": [players[seat] for seat in ranking.winners],
        "ranking": [{"rank": p.rank, "name": players[p.seat], "shared": p.shared} for p in ranking.places],
        "decided_by": None if decider is None else {"key": decider.key, "title": titles.get(decider.key, decider.key),
                                                    "winner": decider.winner, "runner_up": decider.runner_up},
    }


def _run(category, captured: list, players: int, kept: dict) -> int:
    return evaluate(category.score, flow_end_env(captured, players, kept), f"category '{category.key}' at game end")
