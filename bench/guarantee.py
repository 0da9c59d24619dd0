"""The per-game guarantee against what a game takes: for each edition, the worst case the validator
works out (edition/guarantee.py, in evaluation steps and in seconds at its 5,000,000 steps a second),
the steps one greedy game counts (every evaluation at its worst case, played the slow way as
tests/edge_editions.counted_game plays it), and the CPU seconds of one greedy game played as usual.

Not a test: run by hand (`python bench/guarantee.py [--edges]`); the shipped base editions, and with
--edges the editions at the edge of each limit (tests/edge_editions.py). CPU time, so a busy machine
slows it less than the wall clock; take the best of --repeat runs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from edge_editions import counted_game, edge_sizes, edition_data, write  # noqa: E402

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.greedy import GreedyAgent  # noqa: E402
from rulesengine.bots.registry import agent_seed  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402


def greedy_cpu(edition, players: int, seed: int, repeat: int) -> float:
    best = None
    for _ in range(repeat):
        game = Game(edition, [f"P{s}" for s in range(players)], seed)
        start = time.process_time()
        play(game, [GreedyAgent(agent_seed(seed, s), edition) for s in range(players)])
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="also the editions at the edge of each limit")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    editions = [(name, load_edition(ROOT / "editions" / f"{name}.yaml")) for name in ("australia", "europe", "usa")]
    if args.edges:
        folder = Path(tempfile.mkdtemp())
        for name, sizes in edge_sizes().items():
            editions.append((f"edge: {name}", load_edition(write(folder, name, edition_data(**sizes, ident="edge")))))
    print(f"{'edition':24} {'seats':>5} {'guarantee steps':>16} {'(s)':>7} {'counted':>14} {'share':>6} "
          f"{'greedy game CPU s':>18} {'guarantee / CPU':>16}")
    for name, edition in editions:
        players = edition.players_max
        guarantee = edition.guarantee
        _, counted = counted_game(edition, players, 1)
        cpu = greedy_cpu(edition, players, 1, args.repeat)
        print(f"{name:24} {players:>5} {guarantee.game_work:>16,} {guarantee.seconds:>7.1f} {counted:>14,} "
              f"{counted / guarantee.game_work:>6.2f} {cpu:>18.3f} {guarantee.seconds / cpu:>15.0f}x")


if __name__ == "__main__":
    main()
