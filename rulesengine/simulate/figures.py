"""What one finished game says about the balance, read from its public record, sheet and events.

Every figure of a simulation is a sum over these per-game figures. They come only from what any
onlooker may read after the game (game.record(), game.scores.sheet() with each round's points, and
for an edition scored over holdings, the public events), never from the game's internals, so a record played on a
real table would give the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass

# A shared victory counts 1/k for each of its k winners; in units of 1/27720 (the least common
# multiple of 1..12 players) every share is a whole number, so sums are exact in any order.
WIN_UNIT = 27720


@dataclass(frozen=True)
class GameFigures:
    """One game, by seat position: points per sheet key, totals, who won and how."""

    points: tuple  # seat -> tuple of points, one per sheet key (categories, then races)
    totals: tuple  # seat -> final total
    wins: tuple  # seat -> share of the victory in WIN_UNITs (0 for a loser)
    margin: int  # the best total minus the best total of the others (0 when shared)
    tied: bool  # the best total is shared before the tie-breaks
    decided_by: str | None  # the tie-break that decided a tie, "shared" if none did, None without a tie
    lead_changes: int  # rounds after which none of the previous leaders leads any more
    late_leader_lost: int  # 1: none of the leaders after the second-last round won; 0: one did (or one round)
    race_rounds: tuple  # race key -> tuple of rounds (1-based) in which a seat was awarded points
    thrown: tuple  # seat -> the letters of its Throw cards, one per round
    taken_first: tuple  # seat -> the first card drafted after the Throw, one per round
    caught: tuple  # seat -> the letters of its Catch cards, one per round
    drafted: tuple  # seat -> frozenset of every letter it drafted (scored over holdings: captured) in the game
    kept: tuple = ()  # holdings: seat -> the tokens it kept, one per stock of the edition
    rounds_played: int = 0  # holdings: how many rounds the deck lasted
    drama: int = 0  # the most points the winner trailed the leader by after a round before the last
    decisive_round: int = 0  # the round from which only winners led (the last round at the latest)
    play: Play | None = None  # what the seats were asked (decisions, options, the bots' option values)


@dataclass(frozen=True)
class Play:
    """What the seats were asked in one game: the decisions, how many had a real choice, the options
    offered, and the spread of the values a greedy or search bot gave its options (clarity)."""

    asked: int = 0  # decisions of every seat, forced ones included
    choices: int = 0  # decisions with two options or more
    options: int = 0  # options offered, summed over every decision
    valued: int = 0  # decisions whose options a greedy or search bot valued
    spread: float = 0.0  # the sum, over those decisions, of the standard deviation of the option values


def _leaders(totals) -> set:
    best = max(totals)
    return {seat for seat, total in enumerate(totals) if total == best}


def _decided_by(sheet: dict, tied: bool) -> str | None:
    """The tie-break the sheet's ranking (game/ranking.py, with each key's order) named; "shared" for a
    tie no tie-break broke; None without a tie on the best total."""
    if not tied:
        return None
    decider = sheet.get("decided_by")
    return decider["key"] if decider else "shared"


@dataclass(frozen=True)
class Arc:
    """How a game's standings moved from round to round (the figures of tension)."""

    lead_changes: int
    late_leader_lost: int
    drama: int
    decisive_round: int


def game_arc(round_totals: list, winners: set) -> Arc:
    """The arc of a game from each round's points per seat and its winners.

    After each round before the last the standings are the running totals; the last round decides
    (end-of-game lines and tie-breaks included), so it is never counted against the winner.
    - lead changes: rounds after which none of the previous round's leaders still leads;
    - the leader before the last round loses: none of the leaders after the second-last round wins;
    - drama (Browne): the most points by which the winner trailed the leader after a round before
      the last, 0 when the winner always led (of several winners, the one who trailed least);
    - decisiveness: the first round from which every leader, after it and after every later round,
      is a winner (round 1: the winner led alone from the first round on)."""
    running = [0] * len(round_totals[0]) if round_totals else []
    standings, leaders_after = [], []
    for points in round_totals:
        running = [a + b for a, b in zip(running, points, strict=True)]
        standings.append(running)
        leaders_after.append(_leaders(running))
    changes = sum(1 for before, after in zip(leaders_after, leaders_after[1:], strict=False) if not before & after)
    before_last = standings[:-1]
    late = 1 if before_last and not leaders_after[-2] & winners else 0
    drama = min((max(max(s) - s[w] for s in before_last) for w in winners), default=0) if before_last else 0
    decisive = len(round_totals)
    while decisive > 1 and leaders_after[decisive - 2] <= winners:
        decisive -= 1
    return Arc(changes, late, drama, decisive)


def game_figures(
    record: dict, sheet: dict, sheet_keys: tuple, race_keys: tuple, play: Play | None = None
) -> GameFigures:
    """The figures of one finished game from its record and its score sheet (whose rounds are
    the points each round_scored event told: the game need keep no events), and what its seats
    were asked (play, counted by whoever played it)."""
    players = record["players"]
    seat_of = {name: seat for seat, name in enumerate(players)}
    rows = {row["name"]: row for row in sheet["players"]}
    seats = [rows[name] for name in players]
    totals = tuple(row["total"] for row in seats)
    winners = {seat_of[name] for name in sheet["winners"]}
    share = WIN_UNIT // len(winners)
    ordered = sorted(totals, reverse=True)
    tied = ordered.count(ordered[0]) > 1
    by_seat = [row["rounds"] for row in seats]          # seat -> round -> line -> points
    round_totals = [[sum(points.values()) for points in lines] for lines in zip(*by_seat, strict=True)]
    race_rounds = tuple(tuple(number for number, lines in enumerate(zip(*by_seat, strict=True), 1)
                              for points in lines if points.get(key, 0) > 0) for key in race_keys)
    arc = game_arc(round_totals, winners)
    drafts = [[r["drafts"][name] for r in record["rounds"]] for name in players]   # seat -> round -> letters
    return GameFigures(
        points=tuple(tuple(row["categories"].get(key, 0) for key in sheet_keys) for row in seats),
        totals=totals,
        wins=tuple(share if seat in winners else 0 for seat in range(len(players))),
        margin=ordered[0] - ordered[1] if len(ordered) > 1 else 0,
        tied=tied,
        decided_by=_decided_by(sheet, tied),
        lead_changes=arc.lead_changes,
        late_leader_lost=arc.late_leader_lost,
        race_rounds=race_rounds,
        thrown=tuple(tuple(taken[0] for taken in mine) for mine in drafts),
        taken_first=tuple(tuple(taken[1] for taken in mine if len(taken) > 2) for mine in drafts),
        caught=tuple(tuple(taken[-1] for taken in mine) for mine in drafts),
        drafted=tuple(frozenset().union(*mine) for mine in drafts),
        drama=arc.drama,
        decisive_round=arc.decisive_round,
        play=play,
    )


def holding_figures(
    record: dict, events: list, sheet: dict, sheet_keys: tuple, stocks: tuple, play: Play | None = None
) -> GameFigures:
    """The figures of one finished game of an edition scored over holdings (once, at game end): no round
    totals, races, Throws or Catches; what each seat captured and the tokens it kept instead."""
    players = record["players"]
    rows = {row["name"]: row for row in sheet["players"]}
    totals = tuple(rows[name]["total"] for name in players)
    winners = set(sheet["winners"])
    ordered = sorted(totals, reverse=True)
    tied = len(_leaders(totals)) > 1
    return GameFigures(
        points=tuple(tuple(rows[name]["categories"].get(key, 0) for key in sheet_keys) for name in players),
        totals=totals,
        wins=tuple(WIN_UNIT // len(winners) if name in winners else 0 for name in players),
        margin=ordered[0] - ordered[1] if len(ordered) > 1 else 0,
        tied=tied,
        decided_by=_decided_by(sheet, tied),
        lead_changes=0,
        late_leader_lost=0,
        race_rounds=(),
        thrown=((),) * len(players),
        taken_first=((),) * len(players),
        caught=((),) * len(players),
        drafted=tuple(frozenset(record["captured"][name]) for name in players),
        kept=tuple(tuple(record["kept"][name].get(stock, 0) for stock in stocks) for name in players),
        rounds_played=sum(1 for event in events if event.get("type") == "round_start"),
        play=play,
    )
