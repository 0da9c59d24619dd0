"""How fast the bots play, per edition: greedy games per CPU-second, CPU ms a pick of the searching bots, and
how closely a thinking time (--think) is kept.

Not a test: run by hand. Four players; each searching bot (registry.SEARCHING: search and blend at their
default rollouts, ismcts and guided at their default iterations) plays seat 0 against three greedy bots; its picks
(not its round-end choices) are timed one by one in CPU time (one core) and the median and the maximum printed.
Then each searching bot plays with a thinking time of --think ms a pick (the command line's budget:
registry.bot_options), and the wall time of its picks is set against it: the median and the largest ratio (the
issue's bar: within 10% on an idle machine). The load is printed beside the figures: on a busy machine the wall
time of a pick includes what other processes took.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import SEARCHING, agent_seed, bot_options, make_bot  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def greedy_games(edition, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        agents = [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(4)]
        play(Game(edition, NAMES, seed, events=False), agents)
    return games / (time.process_time() - start)


def pick_times(edition, kind: str, games: int, clock, **options) -> list[float]:
    """The times (by clock) of the picks of a `kind` bot in seat 0 against three greedy bots."""
    times = []
    for seed in range(games):
        game = Game(edition, NAMES, seed, events=False)
        agents = [make_bot(kind, edition, agent_seed(seed, 0), **options)]
        agents += [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(1, 4)]
        while not game.over:
            for decision in game.pending():
                view = game.view(decision.seat, lazy=True)
                start = clock()
                answer = agents[decision.seat].decide(view, decision)
                if decision.seat == 0 and decision.kind != "choice" and len(decision.options) > 1:
                    times.append(clock() - start)
                game.apply(decision.seat, answer, decision.category)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    parser.add_argument("--greedy-games", type=int, default=10)
    parser.add_argument("--search-games", type=int, default=1)
    parser.add_argument("--think", type=float, default=50.0, help="the thinking time checked, ms a pick")
    args = parser.parse_args()
    print(f"4 players; the searching bots at their default budgets in seat 0 against three greedy bots; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'edition':<11}{'greedy games/s':>16}{'bot':>8}{'CPU ms/pick: median':>21}{'max':>6}{'picks':>7}"
          f"{f'think {args.think:g} ms: wall median':>28}{'max':>7}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        rate = greedy_games(edition, args.greedy_games)
        for kind in SEARCHING:
            cpu = pick_times(edition, kind, args.search_games, time.process_time)
            budget = bot_options(kind, None, args.think / 1000)   # the command line's --think
            wall = pick_times(edition, kind, args.search_games, time.perf_counter, **budget)
            ratios = [1000 * t / args.think for t in wall]
            print(f"{name:<11}{rate:>16.2f}{kind:>8}{1000 * statistics.median(cpu):>21.1f}{1000 * max(cpu):>6.0f}"
                  f"{len(cpu):>7}{statistics.median(ratios):>27.2f}x{max(ratios):>6.2f}x", flush=True)
    print(f"load afterwards {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
