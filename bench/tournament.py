"""The strength report of issues #6 and #36: win rates with 95% confidence intervals, per edition.

Not a test: run by hand (`.venv/bin/python bench/tournament.py`). For Australia, Europe and USA:
greedy against three random bots (goal: >= 60%), search against three greedy bots (goal: >= 35%,
parity 25%), search against greedy with two players (parity 50%), ismcts against three greedy bots
(goal: >= 50% in Australia, >= 45% in Europe and USA), ismcts against search with two players
(goal: >= 55%), and the same two matches for the blend bot (the search and blend bots take
--search-rollouts). Seats rotate from game to game; a shared victory counts 1/k. `boom ladder` measures
the whole ladder with paired deals and Elo ratings; this is the quick look at the issues' matches.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine.bots.ismcts import DEFAULT_ITERATIONS  # noqa: E402
from rulesengine.bots.search import DEFAULT_ROLLOUTS  # noqa: E402
from rulesengine.bots.tournament import run_tournament  # noqa: E402

MATCHES = {
    "greedy-random": ("greedy vs 3 random", ["greedy", "random", "random", "random"], "games"),
    "search-greedy": ("search vs 3 greedy", ["search", "greedy", "greedy", "greedy"], "search_games"),
    "search-greedy-2p": ("search vs greedy (2p)", ["search", "greedy"], "search_games"),
    "ismcts-greedy": ("ismcts vs 3 greedy", ["ismcts", "greedy", "greedy", "greedy"], "search_games"),
    "ismcts-search-2p": ("ismcts vs search (2p)", ["ismcts", "search"], "search_games"),
    "blend-greedy": ("blend vs 3 greedy", ["blend", "greedy", "greedy", "greedy"], "search_games"),
    "blend-search-2p": ("blend vs search (2p)", ["blend", "search"], "search_games"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games of greedy vs random, per edition")
    parser.add_argument(
        "--search-games", type=int, default=200, help="games of each match with a search bot, per edition"
    )
    parser.add_argument(
        "--search-rollouts", type=int, default=DEFAULT_ROLLOUTS, help="search and blend bots: rollouts per decision"
    )
    parser.add_argument(
        "--ismcts-iterations", type=int, default=DEFAULT_ITERATIONS, help="ismcts bot: iterations per decision"
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--editions", default="australia,europe,usa")
    parser.add_argument("--matches", default=",".join(MATCHES), help="some of: " + ", ".join(MATCHES))
    args = parser.parse_args()
    unknown = [m for m in args.matches.split(",") if m not in MATCHES]
    if unknown:
        parser.error(f"unknown match {unknown[0]!r} (matches: {', '.join(MATCHES)})")
    options = {"search": {"rollouts": args.search_rollouts}, "ismcts": {"iterations": args.ismcts_iterations},
               "blend": {"rollouts": args.search_rollouts}}
    print(
        f"search budget: {args.search_rollouts} rollouts per decision; ismcts: {args.ismcts_iterations} iterations; "
        f"{args.jobs} worker processes; seed {args.seed}"
    )
    print(f"{'edition':<11}{'match':<24}{'games':>6}{'first seat wins':>17}{'95% CI':>17}{'games/s':>9}")
    start = time.perf_counter()
    for name in args.editions.split(","):
        path = ROOT / "editions" / f"{name}.yaml"
        if not path.exists():
            print(f"{name:<11}(no edition file)")
            continue
        for match in args.matches.split(","):
            label, seats, games_key = MATCHES[match]
            result = run_tournament(str(path), seats, getattr(args, games_key), args.seed, options, args.jobs)
            entry = result.entries[0]
            low, high = entry.interval
            print(
                f"{name:<11}{label:<24}{result.games:>6}{entry.rate:>16.1%} {low:>7.1%} – "
                f"{high:<7.1%}{result.games_per_second:>9.2f}",
                flush=True,
            )
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
