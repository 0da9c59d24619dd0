"""Score sheets and rankings as rich tables (text) or JSON."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table


def round_table(edition, sheet: dict, round_index: int) -> Table:
    table = Table(title=f"Round {round_index + 1} of {edition.rounds}", title_justify="left")
    table.add_column("category")
    for player in sheet["players"]:
        table.add_column(player["name"], justify="right")
    titles = {c.key: c.title for c in edition.categories} | {r.key: r.title for r in edition.races}
    for key in edition.round_keys:
        table.add_row(titles.get(key, key), *[str(p["rounds"][round_index].get(key, 0)) for p in sheet["players"]])
    table.add_row("round total", *[str(sum(p["rounds"][round_index].values())) for p in sheet["players"]], style="bold")
    return table


def final_table(edition, sheet: dict) -> Table:
    table = Table(title="Final score sheet", title_justify="left")
    table.add_column("category")
    for player in sheet["players"]:
        table.add_column(player["name"], justify="right")
    titles = {c.key: c.title for c in edition.categories} | {r.key: r.title for r in edition.races}
    for key in edition.sheet_keys:
        table.add_row(titles.get(key, key), *[str(p["categories"][key]) for p in sheet["players"]])
    table.add_row("total", *[str(p["total"]) for p in sheet["players"]], style="bold")
    return table


def ranking_lines(edition, sheet: dict) -> list[str]:
    tie_breaks = list(edition.tie_breaks)
    def rank_key(p):
        return (p["total"],) + tuple(p["categories"].get(k, 0) for k in tie_breaks)
    ordered = sorted(sheet["players"], key=rank_key, reverse=True)
    lines = []
    for place, player in enumerate(ordered, 1):
        lines.append(f"{place}. {player['name']}  {player['total']}")
    winners = sheet["winners"]
    if len(winners) == 1:
        lines.append(f"Winner: {winners[0]}")
    else:
        lines.append(f"Shared victory: {', '.join(winners)}")
    return lines


def print_sheet(console: Console, edition, sheet: dict, per_round: bool = True) -> None:
    if per_round:
        for r in range(len(sheet["players"][0]["rounds"])):
            console.print(round_table(edition, sheet, r))
    console.print(final_table(edition, sheet))
    for line in ranking_lines(edition, sheet):
        console.print(line)


def sheet_json(sheet: dict) -> str:
    return json.dumps(sheet, indent=2, ensure_ascii=False)
