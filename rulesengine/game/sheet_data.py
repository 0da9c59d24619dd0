"""The score sheet as data: the shape `boom score --format json` prints, saves keep and views show.

Made from a ScoreKeeper once its game has moved (the keeper keeps the last one made) and handed out as
a fresh copy each time, so that no caller can change the keeper's sheet through what it was given.
"""

from __future__ import annotations

from . import teams


def sheet_data(keeper) -> dict:
    """keeper's sheet as it stands: every seat's lines and rounds; the winners and ranking once it is finished."""
    players = []
    for seat, name in enumerate(keeper.players):
        totals = keeper.category_totals(seat)
        row = {"name": name, "total": keeper.counted(totals), "categories": totals,
               "rounds": [dict(points) for points in keeper.rounds[seat]]}
        if keeper.holdings is not None:
            captured = getattr(keeper.holdings, "captured", None)
            row.update(captured=[c.letter for c in captured[seat]] if captured else [], stocks=keeper.stocks(seat))
        if keeper.goals:  # each goal drawn, its points (0 until the game ends)
            points = keeper.goal_points[seat] if keeper.goal_points else {}
            row["goals"] = {goal: points.get(goal, 0) for goal in keeper.goals}
        players.append(row)
    if keeper.end_scores is None:
        return {"players": players, "winners": [], "ranking": [], "decided_by": None}
    edition, ranking = keeper.edition, keeper.ranking()
    decider = ranking.decided_by
    names = list(keeper.players)
    if edition.draft.teams:  # the ranking's places are teams
        names = [" & ".join(keeper.players[seat] for seat in team) for team in edition.draft.members(len(names))]
    return {
        "players": players,
        "winners": [keeper.players[seat] for seat in ranking.winners],
        "ranking": [{"rank": p.rank, "name": names[p.seat], "shared": p.shared} for p in ranking.places],
        "decided_by": None if decider is None else {
            "key": decider.key, "title": edition.line_titles.get(decider.key, decider.key),
            "winner": decider.winner, "runner_up": decider.runner_up,
        },
    }


def fresh_copy(sheet: dict, edition) -> dict:
    """A copy of a sheet made by sheet_data that shares nothing a caller may change (teams' lines added)."""
    copied = {
        "players": [
            dict(p, categories=dict(p["categories"]), rounds=[dict(r) for r in p["rounds"]], **_held_copy(p),
                 **({"goals": dict(p["goals"])} if "goals" in p else {}))
            for p in sheet["players"]
        ],
        "winners": list(sheet["winners"]),
        "ranking": [dict(place) for place in sheet["ranking"]],
        "decided_by": dict(sheet["decided_by"]) if sheet["decided_by"] else None,
    }
    if edition.draft.teams:
        copied["teams"] = teams.team_lines(edition, copied["players"])
    return copied


def _held_copy(row: dict) -> dict:
    return {"captured": list(row["captured"]), "stocks": dict(row["stocks"])} if "stocks" in row else {}
