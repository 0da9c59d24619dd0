"""Four greedy (or random) seats at this checkout against another revision, measured in the same run.

Not a test: run by hand, e.g. `.venv/bin/python bench/against.py HEAD~5`. The greedy bot has no
hand-written baseline, so a change to it is measured against a commit before it; `--bots random
--games 500` does the same for the engine's own loop (games_per_second.py measures it against the
hand-written game). The revision is checked out into a temporary git worktree (removed at the end).
Both checkouts then play the same games: seeds 0 to n-1, four seats, CPU time. Each slice runs in a
fresh process that imports that checkout's rulesengine, the two in turn (each first in every other
slice), so that a machine busy with other work, or the order itself, slows both alike. The script
prints each edition's games per CPU-second for both and their ratio. The child process is this script's,
so a revision whose own bench scripts lack an option can still be measured.

--instructions counts machine instructions instead (valgrind's callgrind, PYTHONHASHSEED=0): WARM games
are played first (imports, the edition's program compiled, the awards of its races the sheet keeps),
then only the counted games, seeds 0 to n-1, are collected (callgrind toggled on while itertools.starmap
hands them out), what was alive before frozen out of the garbage collector's walks: the same figure on
an idle or a busy machine (within 0.2% between two checkouts of the same code), so a 1% change shows
where games per second move by 5-10%.

--rung KIND times a searching bot instead, in the ladder's games against three greedy bots
(simulate/ladder.py's play_one: game g of --seed with KIND in seat g mod 4, games 0 to slices x games - 1, each
slice of --games games played by both checkouts in turn): the CPU ms of KIND's picks as `boom ladder` times them
(mean), the ratio, the load, and whether both checkouts played every game to the same result (a change meant to
keep the picks must keep every result).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import starmap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ana", "Ben", "Cy", "Dee"]
WARM = 10   # --instructions: games played before the count (seeds n to n+9), so it counts games as a long run plays


def child(root: str, edition_name: str, games: int, bots: str, counted: bool = False) -> None:
    """Play the games with the rulesengine of `root`; print the CPU seconds they took (counted: under
    callgrind, which collects only what itertools.starmap runs: the games after a first one)."""
    sys.path.insert(0, root)
    from rulesengine import Game, load_edition
    from rulesengine.bots.registry import agent_seed, make_bot
    from rulesengine.game.loop import play

    edition = load_edition(Path(root) / "editions" / f"{edition_name}.yaml")

    def game(seed: int) -> None:
        seats = [make_bot(bots, edition, agent_seed(seed, s)) for s in range(len(NAMES))]
        play(Game(edition, NAMES, seed, events=False), seats)

    if counted:
        for seed in range(games, games + WARM):   # (not counted seeds) what an edition keeps, made before the count
            game(seed)
        gc.collect()
        gc.freeze()   # what is alive now (modules, the edition) is not walked again by the collections counted
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], capture_output=True, check=False)
        for _ in starmap(game, [(seed,) for seed in range(games)]):
            pass
        return
    start = time.process_time()
    for seed in range(games):
        game(seed)
    print(time.process_time() - start)


def rung_child(root: str, edition_name: str, rung: str, seed: int, first: int, games: int) -> None:
    """Play the ladder's games first to first + games - 1 of `rung` against three greedy bots with the rulesengine
    of `root`; print each game's share of the win and the CPU ms of the rung's picks (JSON)."""
    sys.path.insert(0, root)
    from rulesengine.simulate import ladder
    from rulesengine.simulate.runner import prepare
    from rulesengine.simulate.settings import Settings

    sources, _, _ = prepare(Settings((edition_name,), ("greedy",) * 4, 1, seed))
    edition, shares, picks = ladder.compiled(sources[0]), [], []
    for number in range(first, first + games):
        at = number % 4
        kinds = tuple(rung if seat == at else "greedy" for seat in range(4))
        won, times = ladder.play_one(edition, kinds, ladder.game_seed(seed, number), None, at)
        shares.append(won[at])
        picks += times
    print(json.dumps({"shares": shares, "picks": picks}))


def rung_timed(root: Path, edition: str, rung: str, seed: int, first: int, games: int) -> dict:
    """rung_child's figures for this checkout root, from a fresh process."""
    done = subprocess.run([sys.executable, __file__, "--rung-child", str(root), edition, rung, str(seed), str(first),
                           str(games)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the games at {root} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def compare_rung(other: Path, commit: str, args) -> None:
    """--rung: both checkouts' CPU ms a pick of the rung on the same ladder games, slice by slice in turn."""
    last = args.slices * args.games - 1
    print(f"{args.rung} against three greedy bots (the ladder's games of seed {args.seed}, 0-{last}), CPU ms a pick "
          f"(mean), {args.slices} slices of {args.games} games a checkout, in turn; load {_load()}")
    print(f"{'edition':<11}{commit[:10] + ' ms':>16}{'this ms':>10}{'faster':>8}{'picks':>8}  results")
    for name in args.editions:
        found = {"other": {"shares": [], "picks": []}, "this": {"shares": [], "picks": []}}
        sides = [("other", other), ("this", ROOT)]
        for index in range(args.slices):   # each side first in every other slice
            for side, root in sides:
                figures = rung_timed(root, name, args.rung, args.seed, index * args.games, args.games)
                for key in ("shares", "picks"):
                    found[side][key] += figures[key]
            sides.reverse()
        ms = {side: statistics.fmean(figures["picks"]) for side, figures in found.items()}
        alike = "the same" if found["other"]["shares"] == found["this"]["shares"] else "DIFFERENT"
        print(f"{name:<11}{ms['other']:>16.2f}{ms['this']:>10.2f}{ms['other'] / ms['this']:>7.2f}x"
              f"{len(found['this']['picks']):>8}  {alike} ({sum(found['this']['shares']):g} wins of "
              f"{len(found['this']['shares'])}); load {_load()}", flush=True)


def _load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def timed(root: Path, edition: str, games: int, bots: str) -> float:
    """CPU seconds of `games` games of four such bots with the rulesengine of this checkout root."""
    done = subprocess.run([sys.executable, __file__, "--child", str(root), edition, str(games), bots],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the games at {root} failed:\n{done.stderr}")
    return float(done.stdout.split()[-1])


def instructions(root: Path, edition: str, games: int, bots: str) -> int:
    """Instructions callgrind counts for `games` games of four such bots with the rulesengine of this checkout
    root (only the games: see the module docstring)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--instr-atstart=no",
               "--collect-atstart=no", "--toggle-collect=starmap_next", sys.executable, __file__, "--counted-child",
               str(root), edition, str(games), bots]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"callgrind failed at {root}:\n{done.stderr[-2000:]}")
    return int(found[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", help="the commit to measure against (anything git rev-parse takes)")
    parser.add_argument("--editions", nargs="+", default=["australia", "europe", "usa"])
    parser.add_argument("--games", type=int, default=10, help="games per slice (default 10)")
    parser.add_argument("--slices", type=int, default=2, help="slices of each checkout, in turn (default 2)")
    parser.add_argument("--bots", choices=["greedy", "random", "search", "ismcts", "blend"], default="greedy",
                        help="the four seats' bot (default greedy; the searching bots at their default budgets)")
    parser.add_argument("--rung", help="time this searching bot (e.g. guided) in the ladder's games against three "
                        "greedy bots instead: CPU ms a pick (see above)")
    parser.add_argument("--seed", type=int, default=14, help="--rung: the ladder's seed (default 14)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions a game (callgrind) instead of timing: --games games once a checkout")
    args = parser.parse_args()
    if args.games < 1 or args.slices < 1:
        parser.error("--games and --slices must be at least 1")
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.revision}^{{commit}}"], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    if found.returncode != 0:
        parser.error(f"'{args.revision}' is not a commit of {ROOT}")
    commit = found.stdout.strip()
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="boom-against-") as folder:
        other = Path(folder) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(other), commit], cwd=ROOT, check=True)
        try:
            if args.rung:
                compare_rung(other, commit, args)
                return
            if args.instructions:
                print(f"four {args.bots} seats, millions of instructions a game (callgrind), {args.games} games")
                print(f"{'edition':<11}{commit[:10]:>20}{'this':>14}{'ratio':>8}")
                for name in args.editions:
                    counts = [instructions(root, name, args.games, args.bots) / args.games for root in (other, ROOT)]
                    print(f"{name:<11}{counts[0] / 1e6:>20.3f}{counts[1] / 1e6:>14.3f}{counts[1] / counts[0]:>7.3f}x",
                          flush=True)
                return
            print(f"four {args.bots} seats, CPU time, {args.slices} x {args.games} games a checkout, in turn")
            print(f"{'edition':<11}{commit[:10] + ' games/s':>20}{'this games/s':>14}{'ratio':>8}")
            for name in args.editions:
                spent = {"other": 0.0, "this": 0.0}
                sides = [("other", other), ("this", ROOT)]
                for _ in range(args.slices):   # each side first in every other slice: an order effect lands on both
                    for side, root in sides:
                        spent[side] += timed(root, name, args.games, args.bots)
                    sides.reverse()
                games = args.slices * args.games
                rates = {side: games / max(seconds, 1e-9) for side, seconds in spent.items()}
                print(f"{name:<11}{rates['other']:>20.2f}{rates['this']:>14.2f}{rates['this'] / rates['other']:>7.2f}x",
                      flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False)


if __name__ == "__main__":
    if len(sys.argv) == 8 and sys.argv[1] == "--rung-child":
        rung_child(sys.argv[2], sys.argv[3], sys.argv[4], *map(int, sys.argv[5:]))
    elif len(sys.argv) == 6 and sys.argv[1] in ("--child", "--counted-child"):
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], counted=sys.argv[1] == "--counted-child")
    else:
        main()
