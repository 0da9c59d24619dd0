"""Skill depth and chance against skill: how much better play pays, and how much the deal decides.

- Skill depth (Lantz, Isaksen, Jaffe, Nealen and Togelius 2017, "Depth in strategic games"; Tavener's
  skill chains): a ladder of bots, each meant to play better than the one below (random < greedy <
  search at growing budgets). Rung k seats one bot of kind k among bots of kind k-1 (rotated over the
  seats) and reports that seat's share of the wins against the fair share 1/n; it *beats* the rung
  below when the 95% interval of that share lies above 1/n. The depth is the number of rungs that
  beat the one below: a game where better play never shows has depth 0.
- Chance against skill: every deal is played n times by identical bots (the line-up's one kind in
  every seat), the bots' seeds turned one seat further each time. A seat's result then varies only
  with the deal (its hand at its place at the table) and with the bots' own choices; the share of
  the variance explained by the deal is the intraclass correlation of the one-way analysis of
  variance with one group per (deal, seat) (Shrout and Fleiss 1979, ICC(1)), with a 95% interval
  from a bootstrap over the deals. 1: the deal alone decides; near 0: the deal says nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .figures import WIN_UNIT
from .games import Deal, play_games
from .runner import map_shards, prepare, run_simulation
from .settings import Settings
from .shards import SHARD_GAMES, game_seed
from .source import compiled
from .statistics import rate

LADDER = ("random", "greedy", "search:40", "search:160")
BOOTSTRAP = 200


def skill_depth(
    edition: str,
    players: int,
    ladder: tuple,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    on_games: Callable[[int], None] | None = None,
) -> dict:
    """Each rung of the ladder against the one below, and the number of rungs that beat it."""
    rungs = []
    for lower, upper in zip(ladder, ladder[1:], strict=False):
        kinds = (upper,) + (lower,) * (players - 1)
        simulation = run_simulation(Settings((edition,), kinds, games, seed), jobs, backend, address, on_games)
        tally = simulation.tallies[0]
        won = rate(tally.wins_by_entry[0] / WIN_UNIT, tally.games)
        parity = 1 / players
        rungs.append(
            {
                "lower": lower,
                "upper": upper,
                "win_rate": won,
                "parity": round(parity, 4),
                "beats": won["ci95"][0] > parity,
            }
        )
    return {
        "ladder": list(ladder),
        "games_per_rung": games,
        "rungs": rungs,
        "depth": sum(rung["beats"] for rung in rungs),
    }


def play_rotations(sources: tuple, layouts: tuple, seed: int, index: int, deals: int) -> list:
    """Shard `index` of the deals, each played once per seat with the bots' seeds turned: for every
    deal, [rotation][seat] -> (share of the win, final total)."""
    edition, layout = compiled(sources[0]), layouts[0]
    n = layout.players
    rows = []
    for number in range(index * SHARD_GAMES, min((index + 1) * SHARD_GAMES, deals)):
        seed_g = game_seed(seed, number)
        played = play_games(edition, layout, [Deal(seed_g, tuple(range(n)), shift) for shift in range(n)])
        rows.append([[(f.wins[s] / WIN_UNIT, f.totals[s]) for s in range(n)] for f in played])
    return rows


def deal_share(table: list) -> float | None:
    """ICC(1) of [group][replicate] results, clipped to 0..1; None when the results never vary."""
    groups, k = len(table), len(table[0])
    means = [sum(row) / k for row in table]
    grand = sum(means) / groups
    between = k * sum((m - grand) ** 2 for m in means) / max(1, groups - 1)
    within = sum((y - m) ** 2 for row, m in zip(table, means, strict=True) for y in row) / (groups * (k - 1))
    if between == 0 and within == 0:
        return None
    share = (between - within) / (between + (k - 1) * within)
    return min(1.0, max(0.0, share))


def _groups(deals: list, which: int) -> list:
    """One group per (deal, seat): the seat's results over the rotations."""
    return [[rotation[seat][which] for rotation in deal] for deal in deals for seat in range(len(deal[0]))]


def _with_interval(deals: list, which: int, seed: int) -> dict:
    share = deal_share(_groups(deals, which))
    if share is None:
        return {"share": None, "ci95": None}
    rng = random.Random(f"boom-chance/{seed}/{which}")
    draws = sorted(
        s
        for s in (deal_share(_groups([rng.choice(deals) for _ in deals], which)) for _ in range(BOOTSTRAP))
        if s is not None
    )
    low, high = draws[int(0.025 * len(draws))], draws[min(len(draws) - 1, int(0.975 * len(draws)))]
    return {"share": round(share, 4), "ci95": [round(low, 4), round(high, 4)]}


def chance_and_skill(
    edition: str,
    kind: str,
    players: int,
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    on_games: Callable[[int], None] | None = None,
) -> dict:
    """The share of the variance of who wins (and of the final score) that the deal explains."""
    sources, layouts, _ = prepare(Settings((edition,), (kind,) * players, deals, seed))
    count = (deals + SHARD_GAMES - 1) // SHARD_GAMES
    tasks = [(index, sources, layouts, seed, index, deals) for index in range(count)]
    shards = {}
    for index, rows in map_shards(tasks, jobs, backend, address, play_rotations):
        shards[index] = rows
        if on_games:
            on_games(len(rows) * players)
    played = [deal for index in sorted(shards) for deal in shards[index]]
    return {
        "bots": kind,
        "deals": deals,
        "games": deals * players,
        "wins": _with_interval(played, 0, seed),
        "score": _with_interval(played, 1, seed),
    }
