"""`boom ladder`: a ladder of bots, each rung measured against the one below and against greedy bots.

Two matches a rung, both fixed by the run's seed (the same figures for any --jobs):
- against the rung below, paired, at the edition's smallest player count (2 in the Almes editions):
  every deal is played once with the rung in each seat and the rung below in the others, so with 2
  players twice, the seats swapped (each seat keeps its bot seed, agent_seed(deal, seat); only which
  rung sits there changes): the luck of the deal and of the seat cancels within the deal. A shared
  win counts 1/k.
- against greedy bots at the edition's usual player count (4 where it may, else its most): the rung at
  seat g mod n of game g, greedy bots in every other seat; parity is 1/n.
Rates carry 95% Wilson intervals over the games. Ratings are Elo-style (Elo 1978): a win rate p
against the rung below is a difference of 400 log10(p / (1 - p)) points, and with n players, one rung
among n - 1 of the other, 400 log10(p (n - 1) / (1 - p)) (Luce's choice model, the same for n = 2),
added up the chain from the bottom rung (0); a rating's interval adds the variances of its differences
(each from the Wilson interval of its rate, read as 1.96 standard deviations). Each rung's thinking time is the CPU time
of its picks in its games against greedy bots (mean, median and 90th centile; a round-end choice or a
single option is no pick). It never prints: the command line does.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain

from ..bots.registry import SEARCHING, TREES, agent_seed, make_bot
from ..bots.tournament import wilson
from ..edition.loader import load_edition
from ..edition.shipped import resolve_edition
from ..game.blocks import round_plan
from ..game.loop import play
from ..game.state import Game
from .games import bot_kind, seat_names
from .ladder_journal import Journal
from .runner import map_shards, prepare
from .settings import Settings
from .shards import game_seed
from .source import compiled

# a strength order at two players, each rung measured to beat the one below in >= 60% of paired games, topped by the
# guided bot at two budgets (issue #36's ladder; docs/bots.md, `boom ladder`, 2026-11-27, seed 41, 1,000 games each):
# guided:25 over search 72.7% (69.9-75.4%), guided (200 iterations) over guided:25 63.1% (60.1-66.0%). Left out (--rungs
# has them): the blend (over search 64.4% of 2,000, under guided 71.3% of 750: no room for both steps beside it),
# guided:50 (guided over it 56.9% of 600, seed 40), the ismcts bot at 100 and 400 iterations (400 over 100 53.3% of 600)
DRAFTING_RUNGS = ("random", "greedy1", "greedy", "search", "guided:25", "guided")
FLOW_RUNGS = ("random", "greedy", "search", "ismcts:400", "ismcts:1000")  # greedy1 is greedy there
SHARD = 5  # games (or deals) a task: small, as a search bot's game takes seconds


def default_rungs(flow: bool) -> tuple:
    return FLOW_RUNGS if flow else DRAFTING_RUNGS


def usual_players(minimum: int, maximum: int) -> int:
    """The player count of the matches against greedy bots: 4 where the edition allows it."""
    return max(minimum, min(4, maximum))


@dataclass(frozen=True)
class Match:
    """The tally of one match: the rung's share of the wins, its games, its pick times (ms, CPU)."""

    wins: float
    games: int
    picks_ms: tuple = ()

    def as_dict(self, parity: float) -> dict:
        low, high = wilson(self.wins, self.games)
        return {"wins": round(self.wins, 4), "games": self.games, "win_rate": _rate(self.wins, self.games),
                "ci95": [round(low, 4), round(high, 4)], "parity": round(parity, 4)}


def _rate(wins: float, games: int) -> float:
    return round(wins / games, 4) if games else 0.0


def rung_options(kind: str, think: float | None) -> tuple[str, dict]:
    """A rung as its bot's kind and options: 'ismcts:100' is 100 iterations, 'search:40' 40 rollouts;
    with think (ms a pick) every searching bot stops at that deadline instead of its budget."""
    name, options = bot_kind(kind)
    if think is not None and name in SEARCHING:
        options = {"think": think, "iterations": None} if name in TREES else {"seconds": think / 1000,
                                                                                  "rollouts": None}
    return name, options


def play_one(edition, kinds: tuple, seed: int, think: float | None, timed: int | None,
             setting: dict | None = None) -> tuple[list, list]:
    """One game, kinds[seat] at each seat: (each seat's share of the win, CPU ms of seat `timed`'s picks).
    setting: options more for seat `timed`'s bot (bench/screen.py screens a setting that is no kind)."""
    n = len(kinds)
    agents = []
    for seat, kind in enumerate(kinds):
        name, options = rung_options(kind, think)
        if setting and seat == timed:
            options = {**options, **setting}
        agents.append(make_bot(name, edition, agent_seed(seed, seat), **options))
    picks: list = []
    if timed is not None:
        agents[timed] = _Timed(agents[timed], picks)
    game = play(Game(edition, seat_names(n), seed, events=False), agents)
    winners = game.scores.winners()
    return [1 / len(winners) if seat in winners else 0.0 for seat in range(n)], picks


class _Timed:
    """An agent whose picks are timed in CPU milliseconds; every answer is the agent's own."""

    def __init__(self, agent, picks: list):
        self.agent, self.picks = agent, picks
        self.reads_view = getattr(agent, "reads_view", True)
        self.lazy_view = getattr(agent, "lazy_view", False)

    def decide(self, view, decision):
        start = time.process_time()
        answer = self.agent.decide(view, decision)
        if decision.kind != "choice" and len(decision.options) > 1:
            self.picks.append(1000 * (time.process_time() - start))
        return answer


def play_pairs(source, upper: str, lower: str, players: int, seed: int, index: int, deals: int, think):
    """Shard `index` of the paired deals: each played with the upper rung in every seat in turn, the lower
    rung in the others; the upper rung's wins and games."""
    edition, wins, games = compiled(source), 0.0, 0
    for number in range(index * SHARD, min((index + 1) * SHARD, deals)):
        deal = game_seed(seed, number)
        for at in range(players):
            kinds = tuple(upper if seat == at else lower for seat in range(players))
            shares, _ = play_one(edition, kinds, deal, think, None)
            wins += shares[at]
            games += 1
    return wins, games


def play_greedy(source, rung: str, players: int, seed: int, index: int, games: int, think) -> tuple[float, int, list]:
    """Shard `index` of the games of a rung against greedy bots: its wins, games and pick times."""
    edition, wins, played, picks = compiled(source), 0.0, 0, []
    for number in range(index * SHARD, min((index + 1) * SHARD, games)):
        at = number % players
        kinds = tuple(rung if seat == at else "greedy" for seat in range(players))
        shares, times = play_one(edition, kinds, game_seed(seed, number), think, at)
        wins += shares[at]
        played += 1
        picks += times
    return wins, played, picks


def elo(rate: float, games: int, players: int = 2) -> float:
    """The Elo difference of a win rate against players - 1 bots of the rung below, the rate kept half a
    game from 0 and 1 (a finite figure)."""
    edge = 0.5 / games if games else 0.5
    p = min(1 - edge, max(edge, rate))
    return 400 * math.log10(p * (players - 1) / (1 - p))


def ratings(pairs: list, players: int = 2) -> list[dict]:
    """Elo-style ratings up the chain of (wins, games) of each rung against the one below, from 0, with
    95% intervals: each difference's standard deviation is its Wilson interval's width in Elo / (2 x 1.96)."""
    out = [{"rating": 0.0, "ci95": [0.0, 0.0]}]
    rating, variance = 0.0, 0.0
    for wins, games in pairs:
        low, high = wilson(wins, games)
        rating += elo(wins / games if games else 0.5, games, players)
        variance += ((elo(high, games, players) - elo(low, games, players)) / (2 * 1.96)) ** 2
        half = 1.96 * math.sqrt(variance)
        out.append({"rating": round(rating, 1), "ci95": [round(rating - half, 1), round(rating + half, 1)]})
    return out


def run_ladder(
    edition: str,
    rungs: tuple | None = None,
    games: int = 100,
    seed: int = 0,
    jobs: int = 1,
    think: float | None = None,
    on_games: Callable[[int], None] | None = None,
    journal: str | os.PathLike | None = None,
) -> dict:
    """The ladder's report: its rungs, each pair's match, each rung against greedy bots, the ratings.
    games: deals a pair (each played twice) and games against greedy bots, per rung. journal: a file keeping each
    finished shard, from which a run of the same ladder goes on (ladder_journal.py; JournalError if it is
    another's); on_games is told of the games read back from it first."""
    first = load_edition(resolve_edition(edition))
    players = usual_players(first.players_min, first.players_max)
    sources, _, editions = prepare(Settings((edition,), ("greedy",) * players, 1, seed))
    source, loaded = sources[0], editions[0]
    rungs = tuple(rungs or default_rungs(not round_plan(loaded).scores_rounds))
    for rung in rungs:
        rung_options(rung, think)   # ValueError for an unknown kind
    count = (games + SHARD - 1) // SHARD
    tasks, smallest = [], loaded.players_min
    for k in range(1, len(rungs)):
        tasks += [(("pair", k, i), source, rungs[k], rungs[k - 1], smallest, seed, i, games, think)
                  for i in range(count)]
    for k, rung in enumerate(rungs):
        tasks += [(("greedy", k, i), source, rung, players, seed, i, games, think) for i in range(count)]
    pair_results = {k: [0.0, 0] for k in range(1, len(rungs))}
    greedy_results = {k: [0.0, 0, []] for k in range(len(rungs))}
    kept = Journal(journal, {"edition": loaded.id, "rules_sha256": loaded.rules_sha256, "rungs": list(rungs),
                             "games": games, "seed": seed, "think": think}) if journal is not None else None
    done = kept.done if kept is not None else {}
    started = time.perf_counter()
    try:
        if kept is not None:
            kept.check_shards({task[0] for task in tasks})
        for key, result in chain(done.items(), map_shards([t for t in tasks if t[0] not in done], jobs,
                                                          play=_play_task)):
            if kept is not None and key not in done:
                kept.record(key, result)
            kind, k, _ = key
            tally = pair_results[k] if kind == "pair" else greedy_results[k]
            tally[0] += result[0]
            tally[1] += result[1]
            if kind == "greedy":
                tally[2] += result[2]
            if on_games:
                on_games(result[1])
    finally:
        if kept is not None:
            kept.close()
    seconds = time.perf_counter() - started
    pairs = [Match(*pair_results[k]) for k in range(1, len(rungs))]
    against = [Match(wins, played, tuple(picks)) for wins, played, picks in
               (greedy_results[k] for k in range(len(rungs)))]
    return report(loaded.id, loaded.name, rungs, (smallest, players), games, seed, think, pairs, against, seconds)


def _play_task(*arguments):
    """A task of map_shards: a pair's shard (8 arguments) or a rung's against greedy bots (7)."""
    if len(arguments) == 8:
        return play_pairs(*arguments)
    return play_greedy(*arguments)


def report(edition_id: str, name: str, rungs: tuple, counts: tuple, games: int, seed: int, think,
           pairs: list, against: list, seconds: float) -> dict:
    """The ladder's figures as data (report.json): every number the text and the page show.
    counts: the players of the paired matches and of the matches against greedy bots."""
    paired, players = counts
    rated = ratings([(m.wins, m.games) for m in pairs], paired)
    rows = []
    for k, rung in enumerate(rungs):
        row = {"rung": rung, "rating": rated[k]["rating"], "rating_ci95": rated[k]["ci95"],
               "against_below": pairs[k - 1].as_dict(1 / paired) if k else None,
               "against_greedy": against[k].as_dict(1 / players), "pick_ms": pick_ms(against[k].picks_ms)}
        rows.append(row)
    return {"edition": edition_id, "name": name, "date": time.strftime("%Y-%m-%d"), "seed": seed,
            "games_per_match": games, "players_paired": paired, "players_against_greedy": players, "think_ms": think,
            "budget": "time" if think is not None else "fixed (reproducible)",
            "games": sum(m.games for m in pairs) + sum(m.games for m in against),
            "seconds": round(seconds, 1), "rungs": rows}


def pick_ms(times: tuple) -> dict | None:
    """The CPU ms of a rung's picks: the mean (what a budget a pick bounds), median, 90th centile, most, count."""
    if not times:
        return None
    ordered = sorted(times)
    return {"mean": round(statistics.fmean(ordered), 2), "median": round(statistics.median(ordered), 2),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 2), "max": round(ordered[-1], 2),
            "picks": len(ordered)}
