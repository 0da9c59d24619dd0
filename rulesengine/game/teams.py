"""Teams on the score sheet: a team's total is the sum of its members', and teams are ranked by it.

Only the sheet's team lines live here (teams are ranked in ranking.py); each seat keeps its own sheet lines (the
draft itself does not change). It never decides a seat's points: those come from the sheet.
"""

from __future__ import annotations


def team_lines(edition, sheet_players: list[dict]) -> list[dict]:
    """One entry per team: its name (the members' names joined by ' & '), members, total and the
    sum of each line (what its tie-breaks compare)."""
    teams = []
    for seats in edition.draft.members(len(sheet_players)):
        members = [sheet_players[seat] for seat in seats]
        lines = {key: sum(p["categories"][key] for p in members) for key in edition.sheet_keys}
        teams.append({"name": " & ".join(p["name"] for p in members), "members": [p["name"] for p in members],
                      "total": sum(p["total"] for p in members), "categories": lines})
    return teams

