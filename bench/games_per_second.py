"""Random-bot games per second for each edition, and the share of time spent scoring.

Not a test: run by hand (`make bench`). The baseline measured in the same run is the hand-written
Python scorer of tests/handscorers, scoring the same records: the ratio says what the YAML/DSL
scoring costs against plain code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import RandomAgent, agent_seed  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402
from rulesengine.game.scoring import ScoreKeeper  # noqa: E402


def play_games(edition, players: int, games: int):
    names = ["Ana", "Ben", "Cy", "Dee"][:players]
    records = []
    start = time.perf_counter()
    for seed in range(games):
        game = Game(edition, names, seed)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        records.append(game.record())
    return time.perf_counter() - start, records


def score_with_engine(edition, records):
    start = time.perf_counter()
    for record in records:
        keeper = ScoreKeeper(edition, record["players"])
        for round_data in record["rounds"]:
            drafts = [[edition.card(x) for x in round_data["drafts"][name]] for name in record["players"]]
            choices = [round_data["choices"].get(name, {}) for name in record["players"]]
            keeper.score_round(drafts, choices)
        keeper.finish()
        keeper.sheet()
    return time.perf_counter() - start


def score_by_hand(module, records):
    start = time.perf_counter()
    for record in records:
        module.score(record)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"{args.games} random-bot games per edition, {args.players} players")
    print(f"{'edition':<12}{'games/s':>10}{'YAML scoring/s':>16}{'hand scoring/s':>16}{'ratio':>8}")
    for name in ("australia", "europe", "usa"):
        path = ROOT / "editions" / f"{name}.yaml"
        if not path.exists():
            continue
        edition = load_edition(path)
        elapsed, records = play_games(edition, args.players, args.games)
        engine_time = score_with_engine(edition, records)
        try:
            hand = importlib.import_module(f"handscorers.{name}")
            hand_time = score_by_hand(hand, records)
            hand_rate, ratio = f"{args.games / hand_time:,.0f}", f"{engine_time / hand_time:.2f}x"
        except ImportError:
            hand_rate, ratio = "-", "-"
        print(f"{name:<12}{args.games / elapsed:>10,.0f}{args.games / engine_time:>16,.0f}{hand_rate:>16}{ratio:>8}")


if __name__ == "__main__":
    main()
