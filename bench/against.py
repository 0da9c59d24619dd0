"""Four greedy (or random) seats at this checkout against another revision, measured in the same run.

Not a test: run by hand, e.g. `.venv/bin/python bench/against.py HEAD~5`. The greedy bot has no
hand-written baseline, so a change to it is measured against a commit before it; `--bots random
--games 500` does the same for the engine's own loop (games_per_second.py measures it against the
hand-written game). The revision is checked out into a temporary git worktree (removed at the end).
Both checkouts then play the same games: seeds 0 to n-1, four seats, CPU time. Each slice runs in a
fresh process that imports that checkout's rulesengine, the two in turn, so that a machine busy with
other work slows both alike. The script prints each edition's games per CPU-second for both and
their ratio. The child process is this script's, so a revision whose own bench scripts lack an
option can still be measured.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def child(root: str, edition_name: str, games: int, bots: str) -> None:
    """Play the games with the rulesengine of `root`; print the CPU seconds they took."""
    sys.path.insert(0, root)
    from rulesengine import Game, load_edition
    from rulesengine.bots.registry import agent_seed, make_bot
    from rulesengine.game.loop import play

    edition = load_edition(Path(root) / "editions" / f"{edition_name}.yaml")
    start = time.process_time()
    for seed in range(games):
        seats = [make_bot(bots, edition, agent_seed(seed, s)) for s in range(len(NAMES))]
        play(Game(edition, NAMES, seed, events=False), seats)
    print(time.process_time() - start)


def timed(root: Path, edition: str, games: int, bots: str) -> float:
    """CPU seconds of `games` games of four such bots with the rulesengine of this checkout root."""
    done = subprocess.run([sys.executable, __file__, "--child", str(root), edition, str(games), bots],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the games at {root} failed:\n{done.stderr}")
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", help="the commit to measure against (anything git rev-parse takes)")
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    parser.add_argument("--games", type=int, default=10, help="games per slice (default 10)")
    parser.add_argument("--slices", type=int, default=2, help="slices of each checkout, in turn (default 2)")
    parser.add_argument("--bots", choices=["greedy", "random"], default="greedy",
                        help="the four seats' bot (default greedy)")
    args = parser.parse_args()
    if args.games < 1 or args.slices < 1:
        parser.error("--games and --slices must be at least 1")
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.revision}^{{commit}}"], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    if found.returncode != 0:
        parser.error(f"'{args.revision}' is not a commit of {ROOT}")
    commit = found.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="boom-against-") as folder:
        other = Path(folder) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(other), commit], cwd=ROOT, check=True)
        try:
            print(f"four {args.bots} seats, CPU time, {args.slices} x {args.games} games a checkout, in turn")
            print(f"{'edition':<11}{commit[:10] + ' games/s':>20}{'this games/s':>14}{'ratio':>8}")
            for name in args.editions:
                spent = {"other": 0.0, "this": 0.0}
                for _ in range(args.slices):
                    spent["other"] += timed(other, name, args.games, args.bots)
                    spent["this"] += timed(ROOT, name, args.games, args.bots)
                games = args.slices * args.games
                rates = {side: games / max(seconds, 1e-9) for side, seconds in spent.items()}
                print(f"{name:<11}{rates['other']:>20.2f}{rates['this']:>14.2f}{rates['this'] / rates['other']:>7.2f}x",
                      flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False)


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        main()
