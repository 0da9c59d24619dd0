"""Greedy seats: the batch simulator's (rulesengine/fast/greedy.py) against the engine's greedy bots, in one run.

Not a test: run by hand or by `make bench`. For each edition, four greedy seats: the engine's game
loop with its greedy bots (the baseline) and the batch's greedy seats play the same seeds' deals in
alternating slices, timed by this process's CPU time, so a machine busy with other work slows both
alike. It prints games per CPU-second, the batch's ratio to the engine, and the load before and
after. The two play the same policy with different random numbers (the batch's are its own): their
games agree statistically, not seed by seed (tests/test_fast_greedy.py). Issue #35's target: at least
400 greedy games per CPU-second (one core).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import agent_seed, make_bot  # noqa: E402
from rulesengine.fast import batch  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402

NAMES = ["P1", "P2", "P3", "P4"]


def engine(edition, players: int, seeds: range) -> float:
    start = time.process_time()
    for seed in seeds:
        agents = [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(players)]
        play(Game(edition, NAMES[:players], seed, events=False), agents)
    return time.process_time() - start


def batched(edition, players: int, seeds: range) -> float:
    start = time.process_time()
    batch.play(edition, players, list(seeds), seats=batch.GREEDY)
    return time.process_time() - start


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="batch games per edition")
    parser.add_argument("--batch", type=int, default=2000, help="games a batch (as boom simulate plays a block)")
    parser.add_argument("--engine-games", type=int, default=40, help="engine games per edition (it is slow)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    args = parser.parse_args()
    print(f"{args.players} greedy seats, games per CPU-second of this process, alternating slices; load {load()}")
    print(f"{'edition':<11}{'engine/s':>10}{'batch/s':>10}{'ratio':>8}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        batch.play(edition, args.players, list(range(20)), seats=batch.GREEDY)     # the plan made once
        engine(edition, args.players, range(2))
        slices = max(1, args.games // args.batch)
        per_slice = max(1, args.engine_games // slices)
        times = {"engine": 0.0, "batch": 0.0}
        for at in range(slices):
            first = at * args.batch
            times["batch"] += batched(edition, args.players, range(first, first + args.batch))
            times["engine"] += engine(edition, args.players, range(first, first + per_slice))
        rates = {"engine": per_slice * slices / times["engine"], "batch": args.batch * slices / times["batch"]}
        print(f"{name:<11}{rates['engine']:>10,.1f}{rates['batch']:>10,.0f}{rates['batch'] / rates['engine']:>7.1f}x")
    print(f"load {load()} at the end")


if __name__ == "__main__":
    main()
