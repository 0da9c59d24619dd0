"""The search bot's time a pick by its two rollout backends (bots/backend.py), measured in one run, the same games.

Not a test: run by hand or by `make bench`. For each edition it plays --games games of four seats, the search
bot (its default budget) in seat 0 against three greedy bots, once with the engine's rollouts (the oracle: a
Game a sampled world, play_out) and once with the compiled ones, alternating which goes first game by game,
each with the bots' memo of standings emptied first (neither reuses what the other worked out). Seat 0's picks
(not its round-end choices) are timed one by one in CPU time. It prints the mean and median CPU ms a pick of
each, their ratio (engine / compiled: how many times less time a pick), and the machine's load (1-minute
average) before and after; and it stops with an error if a single decision differs (the backends must give the
same decisions for the same seed: tests/test_search_backend.py checks it too).
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
from rulesengine.bots.registry import agent_seed, make_bot  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee"]
BACKENDS = ("engine", "compiled")


def one_game(edition, seed: int, rollouts_by: str) -> tuple[list[float], list]:
    """The CPU times of seat 0's picks and every answer of the game, the search bot in seat 0."""
    edition.kept("standings", dict).clear()   # the bots' memo of standings (evaluate.standing_from_view): cold
    game = Game(edition, NAMES, seed, events=False)
    agents = [make_bot("search", edition, agent_seed(seed, 0), rollouts_by=rollouts_by)]
    agents += [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(1, 4)]
    times, answers = [], []
    while not game.over:
        for decision in game.pending():
            view = game.view(decision.seat, lazy=True)
            start = time.process_time()
            answer = agents[decision.seat].decide(view, decision)
            if decision.seat == 0 and decision.kind != "choice" and len(decision.options) > 1:
                times.append(time.process_time() - start)
            answers.append(answer)
            game.apply(decision.seat, answer, decision.category)
    return times, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    print(f"search bot (default budget) in seat 0 against three greedy bots, 4 players, {args.games} games an edition; "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"{'edition':<11}{'picks':>6}{'engine ms/pick mean':>21}{'median':>8}{'compiled mean':>15}{'median':>8}"
          f"{'engine/compiled':>17}")
    for name in args.editions:
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        times: dict = {kind: [] for kind in BACKENDS}
        for seed in range(args.games):
            answers = {}
            for kind in (BACKENDS if seed % 2 == 0 else BACKENDS[::-1]):
                spent, answers[kind] = one_game(edition, seed, kind)
                times[kind] += spent
            if answers["engine"] != answers["compiled"]:
                raise SystemExit(f"{name} seed {seed}: the compiled rollouts decided otherwise than the engine's")
        engine, compiled = times["engine"], times["compiled"]
        print(f"{name:<11}{len(engine):>6}{1000 * statistics.mean(engine):>21.2f}"
              f"{1000 * statistics.median(engine):>8.2f}{1000 * statistics.mean(compiled):>15.2f}"
              f"{1000 * statistics.median(compiled):>8.2f}"
              f"{sum(engine) / sum(compiled):>16.2f}x", flush=True)
    print(f"load afterwards {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
