"""The first game of a process against a later one: what a command that plays one game pays once.

Not a test: run by hand (`make bench`). A process that plays one game (`boom play`, a table of the
server, a test) pays for more than the game: its imports, the edition loaded, and in its first game
what is made once per edition and kept with it (the scoring program generated and compiled, the
views' functions, the shuffler). games_per_second.py leaves all of that out; this script measures
it. Each figure is the median over --processes fresh processes, each of which times (CPU time) its
imports, load_edition, the first game (seed 0) and a second game (seed 1), four seats of --bots. The
second game is the baseline measured in the same process: first/later is how many games the first
one costs.

--against REV also runs a checkout of REV (a temporary git worktree, removed at the end), its
processes alternating with this checkout's so that a machine busy with other work slows both alike,
and prints REV's first game and the ratio of the two (above 1.00x: this checkout's first game is
cheaper).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def child(root: str, edition_name: str, bots: str) -> None:
    """In a fresh process: print the CPU seconds of the imports, the edition's load, the first and the second game."""
    start = time.process_time()
    sys.path.insert(0, root)
    from rulesengine import Game, load_edition
    from rulesengine.bots.registry import agent_seed, make_bot
    from rulesengine.game.loop import play

    imported = time.process_time()
    edition = load_edition(Path(root) / "editions" / f"{edition_name}.yaml")
    loaded = time.process_time()
    games = []
    for seed in (0, 1):
        began = time.process_time()
        seats = [make_bot(bots, edition, agent_seed(seed, s)) for s in range(len(NAMES))]
        play(Game(edition, NAMES, seed, events=False), seats)
        games.append(time.process_time() - began)
    print(imported - start, loaded - imported, *games)


def measured(root: Path, edition: str, bots: str) -> list[float]:
    """[imports, load, first game, second game] in CPU milliseconds, from one fresh process with that checkout."""
    done = subprocess.run([sys.executable, __file__, "--child", str(root), edition, bots], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the games at {root} failed:\n{done.stderr}")
    return [1000 * float(x) for x in done.stdout.split()]


@contextmanager
def checkout(revision: str):
    """A temporary git worktree of the revision, removed on leaving."""
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    if found.returncode != 0:
        sys.exit(f"'{revision}' is not a commit of {ROOT}")
    with tempfile.TemporaryDirectory(prefix="boom-first-game-") as folder:
        other = Path(folder) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(other), found.stdout.strip()], cwd=ROOT,
                       check=True)
        try:
            yield other
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False)


def report(args, other: Path | None) -> None:
    print(f"four {args.bots} seats, CPU ms, the median of {args.processes} fresh processes"
          + (f", alternating with {args.against}" if other else ""))
    print(f"{'edition':<11}{'imports':>9}{'load':>8}{'first':>8}{'later':>8}{'first/later':>13}"
          + (f"{args.against[:10] + ' first':>18}{'ratio':>8}" if other else ""))
    for name in args.editions:
        mine, theirs = [], []
        for index in range(args.processes):
            order = [(ROOT, mine), (other, theirs)] if other else [(ROOT, mine)]
            for root, into in order if index % 2 == 0 else reversed(order):
                into.append(measured(root, name, args.bots))
        imports, load, first, later = (statistics.median(column) for column in zip(*mine, strict=True))
        line = f"{name:<11}{imports:>9.1f}{load:>8.1f}{first:>8.2f}{later:>8.2f}{first / later:>12.1f}x"
        if other:
            their_first = statistics.median(row[2] for row in theirs)
            line += f"{their_first:>18.2f}{their_first / first:>7.2f}x"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    parser.add_argument("--processes", type=int, default=15, help="fresh processes per edition (default 15)")
    parser.add_argument("--bots", choices=["random", "greedy"], default="random",
                        help="the four seats (default random)")
    parser.add_argument("--against", metavar="REV", help="also measure a checkout of this revision, in turn")
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.against is None:
        report(args, None)
        return
    with checkout(args.against) as other:
        report(args, other)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        main()
