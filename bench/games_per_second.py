"""Random-bot games per CPU-second: the engine against a hand-written game of the same rules.

Not a test: run by hand (`make bench`). For each edition and player count it plays the same number
of games through the engine (rulesengine, random bots, one process) and through bench/handwritten
(the lean baseline: plain Python written for speed, playing the engine's games of the same seeds),
in alternating slices so that a machine shared with other work slows both alike, and prints both
rates and their ratio. The scoring columns time
the engine's score sheet and the hand scorer of tests/handscorers on the engine's records.
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
sys.path.insert(0, str(ROOT / "tests"))

from handwritten.game import play as play_by_hand  # noqa: E402

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import RandomAgent, agent_seed  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402
from rulesengine.game.scoring import ScoreKeeper  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee"]
SLICES = 10


def engine_games(edition, players: int, seeds: range, records: list) -> float:
    start = time.process_time()
    for seed in seeds:
        game = Game(edition, NAMES[:players], seed, events=False)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        records.append(game.record())
    return time.process_time() - start


def hand_games(rules, players: int, seeds: range) -> float:
    start = time.process_time()
    for seed in seeds:
        play_by_hand(rules, players, seed)
    return time.process_time() - start


def score_with_engine(edition, records) -> float:
    start = time.process_time()
    for record in records:
        keeper = ScoreKeeper(edition, record["players"])
        for round_data in record["rounds"]:
            drafts = [[edition.card(x) for x in round_data["drafts"][name]] for name in record["players"]]
            choices = [round_data["choices"].get(name, {}) for name in record["players"]]
            keeper.score_round(drafts, choices)
        keeper.finish()
        keeper.sheet()
    return time.process_time() - start


def score_by_hand(module, records) -> float:
    start = time.process_time()
    for record in records:
        module.score(record)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per edition and player count (default 2000)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    args = parser.parse_args()
    print(f"{args.games} random-bot games per line, CPU time of this process, "
          "engine and hand-written game in alternating slices")
    print(f"{'edition':<11}{'players':>8}{'engine/s':>10}{'hand/s':>10}{'ratio':>8}{'ms/game':>9}   "
          f"{'scoring: engine/s':>18}{'hand/s':>10}{'ratio':>8}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        rules = importlib.import_module(f"handwritten.{name}")
        scorer = importlib.import_module(f"handscorers.{name}")
        for players in args.players:
            engine_time = hand_time = 0.0
            records: list = []
            size = max(1, args.games // SLICES)
            for first in range(0, args.games, size):
                seeds = range(first, min(args.games, first + size))
                engine_time += engine_games(edition, players, seeds, records)
                hand_time += hand_games(rules, players, seeds)
            engine_scoring, hand_scoring = score_with_engine(edition, records), score_by_hand(scorer, records)
            games = args.games
            print(f"{name:<11}{players:>8}{games / engine_time:>10,.0f}{games / hand_time:>10,.0f}"
                  f"{hand_time / engine_time:>7.2f}x{1000 * engine_time / games:>9.2f}   "
                  f"{games / engine_scoring:>18,.0f}{games / hand_scoring:>10,.0f}"
                  f"{hand_scoring / engine_scoring:>7.2f}x")


if __name__ == "__main__":
    main()
