"""Score sheets and rankings as rich tables (text) or JSON."""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table

from rulesengine.edition.goals import GOALS_TITLE, goals_of
from rulesengine.edition.model import ROUND


def round_table(edition, sheet: dict, round_index: int) -> Table:
    """One round as the pad has it: each category's points and their total, then the bonuses won."""
    table = Table(title=f"Round {round_index + 1} of {edition.rounds}", title_justify="left")
    table.add_column("category")
    players = sheet["players"]
    for player in players:
        table.add_column(player["name"], justify="right")
    apart = _uncounted(edition)
    for category in edition.categories:
        if category.when == ROUND and category.key not in apart:
            table.add_row(category.title, *[str(p["rounds"][round_index].get(category.key, 0)) for p in players])
    leave_out = {race.key for race in edition.races} | set(apart)
    table.add_row("round total", *[str(_without(p["rounds"][round_index], leave_out)) for p in players],
                  style="bold", end_section=bool(edition.races) or any(c.when == ROUND for c in apart.values()))
    for race in edition.races:
        table.add_row(race.title, *[str(p["rounds"][round_index].get(race.key, 0)) for p in players])
    for category in apart.values():
        if category.when == ROUND:
            table.add_row(f"{category.title} (not counted)",
                          *[str(p["rounds"][round_index].get(category.key, 0)) for p in players], style="dim")
    return table


def final_table(edition, sheet: dict) -> Table:
    """The pad's last page: each round's points, then the bonuses and the end-of-game lines, and a
    total that is the sum of the lines above it."""
    table = Table(title="Final score sheet", title_justify="left")
    table.add_column("")
    for player in sheet["players"]:
        table.add_column(player["name"], justify="right")
    players = sheet["players"]
    apart = _uncounted(edition)
    leave_out = {race.key for race in edition.races} | set(apart)
    for index in range(len(players[0]["rounds"]) if players else 0):
        table.add_row(f"round {index + 1}", *[str(_without(p["rounds"][index], leave_out)) for p in players],
                      end_section=index + 1 == len(players[0]["rounds"]))
    lines = [(race.title, race.key) for race in edition.races]
    lines += [(c.title, c.key) for c in edition.categories if c.when != ROUND and c.key not in apart]
    for number, (title, key) in enumerate(lines, 1):
        table.add_row(title, *[str(p["categories"].get(key, 0)) for p in players], end_section=number == len(lines))
    drawn = goals_drawn(edition, players)
    table.add_row("total", *[str(p["total"]) for p in players], style="bold", end_section=bool(apart or drawn))
    for goal, name in drawn:   # each public goal drawn: its part of the Public goals line
        table.add_row(f"{name} (in {GOALS_TITLE})", *[str(p["goals"][goal]) for p in players], style="dim",
                      end_section=goal == drawn[-1][0] and bool(apart))
    for category in apart.values():  # shown, never added: a tally or a tie-break (`counts: false`)
        table.add_row(f"{category.title} (not counted)", *[str(p["categories"].get(category.key, 0)) for p in players],
                      style="dim")
    for stock in edition.stocks:                # a flow's tokens kept: its tie-break
        table.add_row(edition.line_titles[stock], *[str(p["stocks"][stock]) for p in players], style="dim")
    for icon, counts in captured_counts(edition, players):
        table.add_row(f"{icon} captured", *map(str, counts), style="dim")
    return table


def goals_drawn(edition, players: list) -> list[tuple[str, str]]:
    """(id, name) of each public goal drawn, in the order drawn (none in an edition without goals)."""
    goals = goals_of(edition)
    if goals is None or not players or "goals" not in players[0]:
        return []
    return [(goal, goals.by_id[goal].name) for goal in players[0]["goals"]]


def captured_counts(edition, players: list) -> list[tuple[str, list[int]]]:
    """A hunting game's captured cards by the icons of the edition's first family (the 2010 game's species,
    on which the majorities are counted): the counts a player checks the Animals line against."""
    if not players or "captured" not in players[0] or not edition.families:
        return []
    family = next(iter(edition.families.values()))
    return [(icon, [sum(icon in edition.card(x).icons for x in p["captured"]) for p in players])
            for icon in family.icons]


def ranking_lines(sheet: dict, edition=None) -> list[str]:
    """The ranking the game decided, as printed lines: shared ranks as `1=`, and what broke a tie (the
    winner's on its own line; below first place, beside the place, given the edition's tie-breaks).
    With teams, the places are teams (the sheet's team lines)."""
    teams = sheet.get("teams")
    totals = {p["name"]: p["total"] for p in teams or sheet["players"]}
    ranks = [place["rank"] for place in sheet["ranking"]]
    lines = [f"{place['rank']}{'=' if ranks.count(place['rank']) > 1 else '.'} {place['name']}  {totals[place['name']]}"
             for place in sheet["ranking"]]
    if edition is not None and not teams:
        lines = [line + _ahead_on(edition, sheet, index) for index, line in enumerate(lines)]
    winners, decider = sheet["winners"], sheet.get("decided_by")
    if teams:
        winners = [place["name"] for place in sheet["ranking"] if place["rank"] == 1]
    if len(winners) > 1:
        lines.append(f"Shared victory: {', '.join(winners)}")
    elif decider:
        lines.append(f"{winners[0]} wins on {decider['title']}, {decider['winner']} to {decider['runner_up']}")
    elif winners:
        lines.append(f"{'Winning team' if teams else 'Winner'}: {winners[0]}")
    return lines


def _ahead_on(edition, sheet: dict, index: int) -> str:
    """Below first place, a place ahead of the next on the same total: the tie-break that ordered them."""
    places, rows = sheet["ranking"], {p["name"]: p for p in sheet["players"]}
    if index == 0 or index + 1 >= len(places) or places[index]["rank"] == places[index + 1]["rank"]:
        return ""
    mine, next_one = rows[places[index]["name"]], rows[places[index + 1]["name"]]
    if mine["total"] != next_one["total"]:
        return ""
    for key in edition.tie_breaks:
        ours, theirs = (_tie_value(row, key) for row in (mine, next_one))
        if ours != theirs:
            return f"  (ahead of {next_one['name']} on {edition.line_titles.get(key, key)}, {ours} to {theirs})"
    return ""


def _tie_value(row: dict, key: str) -> int:
    return row["categories"].get(key, row.get("stocks", {}).get(key, 0))


def round_drafts(edition, players, finished: dict, verbose: bool) -> list[str]:
    """After a round: the Throws revealed; with verbose, each seat's cards in the order taken
    (Throw first, Catch last) and its choices. Only what every player sees once the round ends."""
    drafts = finished["drafts"]
    if not verbose:
        return ["Throws revealed: " + ", ".join(f"{name} {_card(edition, drafts[name][0])}" for name in players)]
    lines = []
    for name in players:
        letters = drafts[name]
        middle = " ".join(letters[1:-1])
        choices = "".join(f"; {key}: {icon}" for key, icon in (finished.get("choices") or {}).get(name, {}).items())
        throw, catch = _card(edition, letters[0]), _card(edition, letters[-1])
        lines.append(f"  {name}: Throw {throw} | {middle} | Catch {catch}{choices}")
    return lines


def _uncounted(edition) -> dict:
    """The categories with `counts: false`, by key: shown apart, below the lines that add up."""
    return {c.key: c for c in edition.categories if c.key not in edition.counting_keys}


def hunt_line(event: dict) -> str:
    """A round of a game with a flow in words: who was left last and what each seat's hunt took."""
    taken = "; ".join(f"{name} ({event['choices'][name]}) took {len(cards)} card{'s' if len(cards) != 1 else ''}"
                      for name, cards in event["captured"].items())
    return f"{event['last_left']} was left last. {taken or 'Nobody took a card'}."


def _without(points: dict, keys) -> int:
    """A round's points but those of the given keys (the bonuses, shown on their own lines)."""
    return sum(v for k, v in points.items() if k not in keys)


def _card(edition, letter: str) -> str:
    return f"{letter} ({edition.card(letter).number})"


def print_sheet(console: Console, edition, sheet: dict, per_round: bool = True) -> None:
    if per_round:
        for r in range(len(sheet["players"][0]["rounds"])):
            console.print(round_table(edition, sheet, r))
    console.print(final_table(edition, sheet))
    for line in ranking_lines(sheet, edition):
        console.print(line)


def sheet_json(sheet: dict) -> str:
    return json.dumps(sheet, indent=2, ensure_ascii=False)
