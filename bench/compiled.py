"""The compiled forms of a game (#35) against the lean hand-written game, measured in one run.

Not a test: run by hand or by `make bench`. For each edition and player count it plays the same
seeds, random seats, through the lean baseline (bench/handwritten: the engine's games written by
hand for speed), the engine (rulesengine: Game and its random bots) and the batch simulator
(rulesengine/fast/batch.py: thousands of games at once in numpy arrays), in alternating slices so
that a machine busy with other work slows each alike, by this process's CPU time. It prints each
one's games per CPU-second, its ratio to the lean game, and the machine's load (1-minute average)
before and after. Every form plays the same games: tests/test_bench_baseline.py and
tests/test_fast_batch.py check it seed by seed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from timed import engine, lean, load  # noqa: E402

from rulesengine import load_edition  # noqa: E402
from rulesengine.fast import batch  # noqa: E402


def batched(edition, players: int, seeds: range) -> float:
    start = time.process_time()
    batch.play(edition, players, list(seeds))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8000, help="games per form, edition and player count")
    parser.add_argument("--batch", type=int, default=4000, help="games a batch (and a slice of the others)")
    parser.add_argument("--engine-games", type=int, default=1000, help="games through the engine (it is slow)")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2])
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    args = parser.parse_args()
    print(f"random seats, games per CPU-second of this process, forms in alternating slices; load {load()}")
    print(f"{'edition':<11}{'players':>8}{'lean/s':>9}{'engine/s':>10}{'ratio':>7}{'batch/s':>10}{'ratio':>7}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        module = importlib.import_module(f"handwritten.{name}")
        for players in args.players:
            batch.play(edition, players, list(range(50)))                 # the plan made once, as a command does
            times = {"lean": 0.0, "engine": 0.0, "batch": 0.0}
            engine_per_slice = max(1, args.engine_games * args.batch // args.games)
            for first in range(0, args.games, args.batch):
                seeds = range(first, min(args.games, first + args.batch))
                times["lean"] += lean(module, players, seeds)
                times["batch"] += batched(edition, players, seeds)
                times["engine"] += engine(edition, players, range(first, first + engine_per_slice))
            rates = {"lean": args.games / times["lean"], "batch": args.games / times["batch"],
                     "engine": engine_per_slice * len(range(0, args.games, args.batch)) / times["engine"]}
            print(f"{name:<11}{players:>8}{rates['lean']:>9,.0f}{rates['engine']:>10,.0f}"
                  f"{rates['engine'] / rates['lean']:>6.2f}x{rates['batch']:>10,.0f}"
                  f"{rates['batch'] / rates['lean']:>6.2f}x")
    print(f"load {load()} at the end")


if __name__ == "__main__":
    main()
