"""How fast the bots play, per edition: games per CPU-second with four greedy seats, CPU ms per search-bot pick.

Not a test: run by hand. The search bot plays seat 0 at its default strength against three
greedy bots; its picks (not its round-end choices) are timed one by one and the median printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import agent_seed, make_bot  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def greedy_games(edition, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        agents = [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(4)]
        play(Game(edition, NAMES, seed, events=False), agents)
    return games / (time.process_time() - start)


def search_picks(edition, games: int) -> list[float]:
    times = []
    for seed in range(games):
        game = Game(edition, NAMES, seed, events=False)
        agents = [make_bot("search" if s == 0 else "greedy", edition, agent_seed(seed, s)) for s in range(4)]
        while not game.over:
            for decision in game.pending():
                view = game.view(decision.seat, lazy=True)
                start = time.process_time()
                answer = agents[decision.seat].decide(view, decision)
                if decision.seat == 0 and decision.kind != "choice" and len(decision.options) > 1:
                    times.append(time.process_time() - start)
                game.apply(decision.seat, answer, decision.category)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    parser.add_argument("--greedy-games", type=int, default=10)
    parser.add_argument("--search-games", type=int, default=1)
    args = parser.parse_args()
    print("4 players, CPU time; the search bot at its default strength, seat 0 against three greedy bots")
    print(f"{'edition':<11}{'greedy games/s':>16}{'search ms/pick: median':>24}{'max':>6}{'picks':>7}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        rate = greedy_games(edition, args.greedy_games)
        times = search_picks(edition, args.search_games)
        search = (f"{1000 * statistics.median(times):>24.0f}{1000 * max(times):>6.0f}" if times
                  else f"{'-':>24}{'-':>6}")
        print(f"{name:<11}{rate:>16.2f}{search}{len(times):>7}", flush=True)


if __name__ == "__main__":
    main()
