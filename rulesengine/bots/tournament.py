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
from concurrent.futures import ProcessPoolExecutor, as_completed
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
    winners = scores.winners()
    for seat in range(n):
        points[entry_at[seat]] = scores.total(seat)
        if seat in winners:
            wins[entry_at[seat]] = 1 / len(winners)
    return wins, points


_WORKER: dict = {}


def _load_in_worker(path: str) -> None:
    _WORKER["edition"] = load_edition(path)


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
    generated = who == GENERATED
    results = []
    start = time.perf_counter()
    if jobs <= 1:
        for number in range(games):
            results.append(play_one(edition, kinds, number, seed, options, generated))
            if on_game:
                on_game(1)
    else:
        with ProcessPoolExecutor(jobs, initializer=_load_in_worker, initargs=(str(edition_path),)) as pool:
            futures = [pool.submit(_play_chunk, kinds, chunk, seed, options, generated)
                       for chunk in _small_chunks(games)]
            for future in as_completed(futures):
                done = future.result()
                results.extend(done)
                if on_game:
                    on_game(len(done))
    seconds = time.perf_counter() - start
    n = len(kinds)
    entries = tuple(
        Entry(i, kinds[i], sum(r[0][i] for r in results), sum(r[1][i] for r in results), len(results)) for i in range(n)
    )
    return Tournament(edition.id, kinds, len(results), seed, seconds, entries, who)


def _small_chunks(games: int, size: int = 4) -> list:
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]
