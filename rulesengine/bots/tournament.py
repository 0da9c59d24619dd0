"""Bots against bots, many games: win rates with confidence intervals, to measure a bot's strength.

Seats rotate from game to game (entry i of the line-up sits at seat (i + g) mod n in game g), so
the advantage or handicap of a seat cancels out over a multiple of n games. A shared victory counts
1/k for each of its k winners. Games can run in worker processes: every game is fixed by its seed,
so the result does not depend on how many workers played it.
It never prints: the command line and the benchmark script do.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..edition.loader import load_edition
from ..edition.model import Edition
from ..game.loop import play
from ..game.state import Game
from .registry import BOTS, KINDS_HELP, agent_seed, bot_kind, make_bot, unknown_kind


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for z = 1.96); (0, 1) when no game was played."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Entry:
    """One entry of the line-up over all games: its bot, its wins and points."""

    position: int
    kind: str
    wins: float
    points: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_points(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True)
class Tournament:
    edition: str
    kinds: tuple
    games: int
    seed: int
    seconds: float
    entries: tuple
    played_by: str = "the engine"   # who played the games: the generated game, or the engine and why

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict:
        return {
            "edition": self.edition,
            "seats": list(self.kinds),
            "games": self.games,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 3),
            "played_by": self.played_by,
            "entries": [
                {
                    "position": e.position,
                    "kind": e.kind,
                    "wins": e.wins,
                    "win_rate": round(e.rate, 4),
                    "ci95": [round(x, 4) for x in e.interval],
                    "mean_points": round(e.mean_points, 2),
                }
                for e in self.entries
            ],
        }


def check_kinds(kinds) -> None:
    unknown = unknown_kind(kinds)
    if unknown is not None:
        raise ValueError(f"unknown bot {unknown!r} (bots: {', '.join(BOTS)}; {KINDS_HELP})")


def seat_bot(kind: str, edition: Edition, seed: int, options: dict):
    """The bot of a line-up entry: 'blend:40' is a blend bot of 40 rollouts, its own budget over the
    command line's for its kind (options: kind -> keyword options)."""
    name, budget = bot_kind(kind)
    return make_bot(name, edition, seed, **{**options.get(name, {}), **budget})


GENERATED = "the generated game (rulesengine/compiled)"


def played_by(edition: Edition, kinds: tuple, games: int) -> str:
    """Who plays a tournament of this line-up: the generated game (random seats, an edition whose every
    block has a compiled form, enough games to pay for compiling it), or the engine and why."""
    if any(kind != "random" for kind in kinds):
        others = ", ".join(sorted({kind for kind in kinds if kind != "random"}))
        return f"the engine (the generated game plays random seats only, and the line-up has {others})"
    from ..compiled import GENERATED_FROM, fallback

    if games < GENERATED_FROM:
        return f"the engine ({games} games: the generated game pays for its compiling from {GENERATED_FROM})"

    why = fallback(edition)
    return GENERATED if why is None else f"the engine (the generated game does not play {why})"


def play_one(edition: Edition, kinds: tuple, number: int, seed: int, options: dict,
             generated: bool = False) -> tuple[list, list]:
    """Game `number` of a tournament: (wins, points) per line-up entry (generated: by the generated game,
    the same game: each random seat's bot seeded by its seat)."""
    n = len(kinds)
    game_seed = seed + number
    entry_at = [(seat - number) % n for seat in range(n)]  # seat -> line-up entry
    names = [f"P{seat + 1}" for seat in range(n)]
    if generated:
        from ..compiled import play_random

        scores = play_random(edition, names, game_seed).scores
    else:
        agents = [seat_bot(kinds[entry_at[seat]], edition, agent_seed(game_seed, seat), options) for seat in range(n)]
        scores = play(Game(edition, names, game_seed, events=False), agents).scores
    wins, points = [0.0] * n, [0] * n
    totals = [scores.total(seat) for seat in range(n)]
    best = max(totals)
    if totals.count(best) == 1 and not edition.draft.teams:   # the ranking's first rule: one best total wins
        winners = [totals.index(best)]                         # (no tie-break read: 2x a game's ranking)
    else:
        winners = scores.winners()
    for seat in range(n):
        points[entry_at[seat]] = totals[seat]
        if seat in winners:
            wins[entry_at[seat]] = 1 / len(winners)
    return wins, points


_WORKER: dict = {}   # a worker's edition: the driver's own, forked, or loaded by the worker from its path


def _load_in_worker(path: str) -> None:
    if _WORKER.get("path") != path:   # a worker not forked from the driver (spawn, forkserver)
        _WORKER.update(path=path, edition=load_edition(path))


def _play_chunk(kinds: tuple, numbers: list, seed: int, options: dict, generated: bool) -> list:
    return [play_one(_WORKER["edition"], kinds, number, seed, options, generated) for number in numbers]


def run_tournament(
    edition_path: str,
    kinds,
    games: int,
    seed: int = 0,
    options: dict | None = None,
    jobs: int = 1,
    on_game: Callable[[int], None] | None = None,
) -> Tournament:
    """Play `games` games of this line-up; options: bot kind -> keyword options (e.g. a search budget)."""
    kinds, options = tuple(kinds), dict(options or {})
    check_kinds(kinds)
    edition = load_edition(edition_path)
    Game(edition, [f"P{i + 1}" for i in range(len(kinds))], seed)  # the player count is checked once, here
    who = played_by(edition, kinds, games)
    generated, n = who == GENERATED, len(kinds)
    results = []
    start = time.perf_counter()
    if jobs <= 1:
        for number in range(games):
            results.append(play_one(edition, kinds, number, seed, options, generated))
            if on_game:
                on_game(1)
    else:
        from ..workers import numbered_results

        if generated:
            from ..compiled import generated as generated_game

            generated_game(edition, n)   # compiled here, once: the forked workers start with it
        _WORKER.update(path=str(edition_path), edition=edition)
        chunks = _chunks(games, jobs)
        try:
            done_by_chunk = {}
            for index, done in numbered_results(jobs, _play_chunk, [(kinds, chunk, seed, options, generated)
                                                                    for chunk in chunks],
                                                _load_in_worker, (str(edition_path),)):
                done_by_chunk[index] = done
                if on_game:
                    on_game(len(done))
        finally:
            _WORKER.clear()
        results = [result for index in range(len(chunks)) for result in done_by_chunk[index]]  # in game order
    seconds = time.perf_counter() - start
    entries = tuple(
        Entry(i, kinds[i], sum(r[0][i] for r in results), sum(r[1][i] for r in results), len(results)) for i in range(n)
    )
    return Tournament(edition.id, kinds, len(results), seed, seconds, entries, who)


def _chunks(games: int, jobs: int) -> list:
    """The games' numbers in chunks a worker plays at once: 16 a worker (a searching game takes seconds, and
    the last chunks still spread over the workers), never fewer than 4 games (a random game through the
    generated game takes ~0.2 ms, a chunk's round trip between processes about as long)."""
    size = max(4, games // (16 * jobs))
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]
