"""Memory after more and more games in one process: it must stay flat (nothing kept per game).

Not a test: run by hand. Plays games of one edition with one bot kind in batches and prints the
memory Python still holds after each batch (tracemalloc, after a collection) and the peak RSS.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import agent_seed, make_bot  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edition", default="australia")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--batches", type=int, default=4)
    args = parser.parse_args()
    edition = load_edition(ROOT / "editions" / f"{args.edition}.yaml")
    tracemalloc.start()
    size = max(1, args.games // args.batches)
    print(f"{args.edition}, 4 {args.bot} bots, events kept in every other game")
    for seed in range(args.games):
        game = Game(edition, ["Ana", "Ben", "Cy", "Dee"], seed, events=seed % 2 == 0)
        play(game, [make_bot(args.bot, edition, agent_seed(seed, s)) for s in range(4)])
        if (seed + 1) % size == 0:
            del game
            gc.collect()
            held = tracemalloc.get_traced_memory()[0]
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            print(f"after {seed + 1:>6} games: {held / 1024:>8.0f} KiB held, peak RSS {rss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
