"""The generated whole game (#35) against the lean hand-written game and the engine, measured in one run.

Not a test: run by hand or by `make bench`. For each edition and player count it plays the same
seeds, random seats, through the lean baseline (bench/handwritten), the generated game
(rulesengine/compiled: the edition's bot-only game as one generated Python function, on the
engine's score sheet) and the engine (Game and its random bots), in alternating slices so that a
machine busy with other work slows each alike, by this process's CPU time. It prints each one's
games per CPU-second and its ratio to the lean game, a tournament's games per CPU-second through
the generated game (its ranking included), the greedy seats' games per CPU-second (played by the
engine: the generated game has no greedy form), and the machine's load (1-minute average) before
and after. Every form plays the same games: tests/test_bench_baseline.py and
tests/test_compiled_game.py check it seed by seed.
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

from timed import NAMES, engine, lean, load  # noqa: E402

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.greedy import GreedyAgent  # noqa: E402
from rulesengine.bots.registry import agent_seed  # noqa: E402
from rulesengine.bots.tournament import play_one  # noqa: E402
from rulesengine.compiled import fallback, play_random  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402


def generated(edition, players: int, seeds: range) -> float:
    names = NAMES[:players]
    start = time.process_time()
    for seed in seeds:
        play_random(edition, names, seed)
    return time.process_time() - start


def tournament(edition, players: int, seeds: range, generated: bool) -> float:
    kinds = ("random",) * players
    start = time.process_time()
    for number in seeds:
        play_one(edition, kinds, number, 0, {}, generated)
    return time.process_time() - start


def greedy(edition, players: int, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        game = Game(edition, NAMES[:players], seed, events=False)
        play(game, [GreedyAgent(agent_seed(seed, s), edition) for s in range(players)])
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6000, help="games per form, edition and player count")
    parser.add_argument("--slice", type=int, default=500, help="games a slice of each form")
    parser.add_argument("--engine-games", type=int, default=1500, help="games through the engine (it is slow)")
    parser.add_argument("--greedy-games", type=int, default=20, help="games of four greedy seats")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2])
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    args = parser.parse_args()
    print(f"random seats, games per CPU-second of this process, forms in alternating slices; load {load()}")
    print(f"{'edition':<11}{'players':>8}{'lean/s':>9}{'generated/s':>13}{'ratio':>7}{'engine/s':>10}{'ratio':>7}"
          f"{'tournament/s':>14}{'engine':>8}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        module = importlib.import_module(f"handwritten.{name}")
        assert fallback(edition) is None, fallback(edition)
        for players in args.players:
            generated(edition, players, range(2))                    # the game generated once, as a command does
            times = dict.fromkeys(("lean", "generated", "engine", "tournament", "tournament by engine"), 0.0)
            slices = range(0, args.games, args.slice)
            engine_per_slice = max(1, args.engine_games // len(slices))
            for first in slices:
                seeds = range(first, min(args.games, first + args.slice))
                times["lean"] += lean(module, players, seeds)
                times["generated"] += generated(edition, players, seeds)
                times["tournament"] += tournament(edition, players, seeds, True)
                few = range(first, first + engine_per_slice)
                times["engine"] += engine(edition, players, few)
                times["tournament by engine"] += tournament(edition, players, few, False)
            engine_games = engine_per_slice * len(slices)
            rates = {"lean": args.games / times["lean"], "generated": args.games / times["generated"],
                     "tournament": args.games / times["tournament"],
                     "engine": engine_games / times["engine"],
                     "tournament by engine": engine_games / times["tournament by engine"]}
            print(f"{name:<11}{players:>8}{rates['lean']:>9,.0f}{rates['generated']:>13,.0f}"
                  f"{rates['generated'] / rates['lean']:>6.2f}x{rates['engine']:>10,.0f}"
                  f"{rates['engine'] / rates['lean']:>6.2f}x{rates['tournament']:>14,.0f}"
                  f"{rates['tournament by engine']:>8,.0f}")
    edition = load_edition(ROOT / "editions" / "australia.yaml")
    seconds = greedy(edition, 4, args.greedy_games)
    print(f"four greedy seats, australia: {args.greedy_games / seconds:.1f} games per CPU-second, played by the "
          "engine (the generated game has no greedy form: the greedy bots' own valuation is most of a game)")
    print(f"load {load()} at the end")


if __name__ == "__main__":
    main()
