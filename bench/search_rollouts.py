"""The search bot's time a pick by its rollout backends (bots/backend.py, bots/lanes.py), in one run, the same games.

Not a test: run by hand or by `make bench`. For each edition it plays --games games of four seats, the search
bot (its default budget) in seat 0 against three greedy bots, with the engine's rollouts (the oracle: a Game a
sampled world, play_out), with the engine's rollouts and the cyclic garbage collector paused for each of seat 0's
decisions, with the compiled ones, and with the array lanes (bots/lanes.py: the compiled numbers, every world and
option of a decision played at once in numpy), the four in turn (which goes first rotates game by game), each with the
bots' memo of standings emptied first (none reuses what another worked out). Seat 0's picks (not its round-end
choices) are timed one by one in CPU time. It prints the mean and median CPU ms a pick of each and two ratios
(how many times less time a pick): engine / compiled, as the issue's target reads, and engine paused / compiled,
like for like (the compiled backend plays a decision's worlds with the collector paused: collector.py; here the
engine's whole decision is paused, a little more than the compiled backend pauses), and the machine's load
(1-minute average) before and after; it stops with an error if a single decision differs (the backends must give
the same decisions for the same seed: tests/test_search_backend.py checks it too). The lanes' column says what
played their decisions' rollouts: "lanes", or the compiled rollouts with the reason (Europe's scoring has no array
lanes: its engine / lanes is then the compiled backend's again).
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

from rulesengine import Game, collector, load_edition  # noqa: E402
from rulesengine.bots.registry import agent_seed, make_bot  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee"]
SIDES = ("engine", "engine paused", "compiled", "lanes")   # the rollouts' backend, and the collector paused


def one_game(edition, seed: int, side: str) -> tuple[list[float], list, set]:
    """The CPU times of seat 0's picks, every answer of the game, and what played its rollouts (the search bot's
    rollouts_used), the search bot in seat 0."""
    edition.kept("standings", dict).clear()   # the bots' memo of standings (evaluate.standing_from_view): cold
    game = Game(edition, NAMES, seed, events=False)
    agents = [make_bot("search", edition, agent_seed(seed, 0), rollouts_by=side.split()[0])]
    agents += [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(1, 4)]
    paused = side == "engine paused"
    times, answers, used = [], [], set()
    while not game.over:
        for decision in game.pending():
            view = game.view(decision.seat, lazy=True)
            start = time.process_time()
            if paused and decision.seat == 0:
                with collector.paused():
                    answer = agents[0].decide(view, decision)
            else:
                answer = agents[decision.seat].decide(view, decision)
            if decision.seat == 0 and decision.kind != "choice" and len(decision.options) > 1:
                times.append(time.process_time() - start)
            answers.append(answer)
            if decision.seat == 0 and agents[0].rollouts_used is not None:
                used.add(agents[0].rollouts_used)
            game.apply(decision.seat, answer, decision.category)
    return times, answers, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    print(f"search bot (default budget) in seat 0 against three greedy bots, 4 players, {args.games} games an edition; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'edition':<11}{'picks':>6}{'engine ms/pick mean':>21}{'median':>8}{'paused mean':>13}"
          f"{'compiled mean':>15}{'median':>8}{'lanes mean':>12}{'median':>8}{'engine/compiled':>17}"
          f"{'paused/compiled':>17}{'engine/lanes':>14}{'compiled/lanes':>16}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        times: dict = {side: [] for side in SIDES}
        used: set = set()
        for seed in range(args.games):
            answers = {}
            turn = seed % len(SIDES)
            for side in SIDES[turn:] + SIDES[:turn]:
                spent, answers[side], by = one_game(edition, seed, side)
                times[side] += spent
                if side == "lanes":
                    used |= by
            if not answers["engine"] == answers["engine paused"] == answers["compiled"]:
                raise SystemExit(f"{name} seed {seed}: the compiled rollouts decided otherwise than the engine's")
            if answers["lanes"] != answers["compiled"]:
                raise SystemExit(f"{name} seed {seed}: the lanes decided otherwise than the compiled rollouts")
        engine, paused, compiled, lanes = (times[side] for side in SIDES)
        print(f"{name:<11}{len(engine):>6}{1000 * statistics.mean(engine):>21.2f}"
              f"{1000 * statistics.median(engine):>8.2f}{1000 * statistics.mean(paused):>13.2f}"
              f"{1000 * statistics.mean(compiled):>15.2f}{1000 * statistics.median(compiled):>8.2f}"
              f"{1000 * statistics.mean(lanes):>12.2f}{1000 * statistics.median(lanes):>8.2f}"
              f"{sum(engine) / sum(compiled):>16.2f}x{sum(paused) / sum(compiled):>16.2f}x"
              f"{sum(engine) / sum(lanes):>13.2f}x{sum(compiled) / sum(lanes):>15.2f}x", flush=True)
        print(f"  {name}'s lanes played by: {'; '.join(sorted(used))}; load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"load afterwards {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
