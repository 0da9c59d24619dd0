"""The commands' own costs (#35): start-up, `boom simulate`'s figures against its games, --jobs 2 against 1.

Not a test: run by hand or by `make bench`. Every figure is measured in this run, beside the lean
hand-written game (bench/handwritten) of the same seeds, and the machine's load is printed.

- Start-up: the CPU time (user + system, the least of --repeats fresh processes, bytecode cached in a
  temporary folder as an installed package has it) of `python -c pass`, of `boom --help`, of a
  command's --help (click, the command's options: what every run of it pays first), of `boom validate`,
  and of a whole one-game run (which also loads the edition and writes its report). The first of the
  runs writes the bytecode and the checked edition (edition/cache.py, in the user's cache folder): the
  figures are those of every later run; BOOM_EDITION_CACHE=off measures a first one. With --against REV
  the same commands of that revision (a temporary git worktree) are measured in turn.
- The figures: run_simulation of random seats through the batch simulator and through the engine,
  against the batch alone and the engine's bare game loop, by CPU time, each as a ratio of the lean
  game's games per CPU-second.
- --jobs 2 against --jobs 1: by the wall clock, and by the CPU time the whole run costs (workers
  included), which says what two idle cores give when the machine is busy with other work.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from handwritten import australia as lean_australia  # noqa: E402
from handwritten.game import play as play_by_hand  # noqa: E402

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import RandomAgent, agent_seed  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402
from rulesengine.simulate import Settings, run_simulation  # noqa: E402
from rulesengine.simulate.runner import prepare  # noqa: E402

RUN = "import sys; sys.path.insert(0, sys.argv.pop(1)); from cli.main import main; main()"


def commands(root: Path) -> list[tuple[str, list[str]]]:
    australia = str(root / "editions" / "australia.yaml")
    return [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("boom --help", [sys.executable, "-c", RUN, str(root), "--help"]),
        ("boom simulate --help", [sys.executable, "-c", RUN, str(root), "simulate", "--help"]),
        ("boom tournament --help", [sys.executable, "-c", RUN, str(root), "tournament", "--help"]),
        ("boom run --help", [sys.executable, "-c", RUN, str(root), "run", "--help"]),
        ("boom score --help", [sys.executable, "-c", RUN, str(root), "score", "--help"]),
        ("boom replay --help", [sys.executable, "-c", RUN, str(root), "replay", "--help"]),
        ("boom validate", [sys.executable, "-c", RUN, str(root), "validate", australia]),
        ("boom simulate, 1 game", [sys.executable, "-c", RUN, str(root), "simulate", australia, "-p", "4", "-n", "1"]),
        ("boom tournament, 1 game", [sys.executable, "-c", RUN, str(root), "tournament", australia, "-n", "1",
                                     "--seats", "random,random,random,random"]),
    ]


def cpu_of(argv: list[str], env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def start_up(roots: dict, repeats: int) -> None:
    with tempfile.TemporaryDirectory(prefix="boom-bench-pycache-") as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        table = {name: {} for name in roots}
        for root in roots.values():
            for _, argv in commands(root):
                cpu_of(argv, env)                                  # writes the bytecode, as an install has it
        for _ in range(repeats):                                   # the checkouts in turn: a busy machine slows both
            for name, root in roots.items():
                for label, argv in commands(root):
                    cost = cpu_of(argv, env)
                    table[name][label] = min(table[name].get(label, cost), cost)
    names = list(roots)
    print(f"start-up, CPU seconds (least of {repeats} fresh processes); load {load()}")
    print(f"{'command':<26}" + "".join(f"{name:>12}" for name in names))
    for label, _ in commands(ROOT):
        print(f"{label:<26}" + "".join(f"{table[name][label]:>12.3f}" for name in names))


def lean_rate(games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        play_by_hand(lean_australia, 4, seed)
    return games / (time.process_time() - start)


def loop_rate(edition, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        play(Game(edition, ["Ana", "Ben", "Cy", "Dee"], seed, events=False),
             [RandomAgent(agent_seed(seed, s)) for s in range(4)])
    return games / (time.process_time() - start)


def simulate_rate(games: int, engine: bool, jobs: int = 1) -> tuple[float, object]:
    """Games per CPU-second of this process (the games, their figures and tallies: not the edition's
    one-off loading), and the simulation."""
    settings = Settings((str(ROOT / "editions" / "australia.yaml"),), ("random",) * 4, games, 1)
    start = time.process_time()
    prepare(settings)
    loading = time.process_time() - start
    start = time.process_time()
    simulation = run_simulation(settings, jobs=jobs, engine=engine)
    return games / (time.process_time() - start - loading), simulation


def batch_rate(edition, games: int) -> float:
    from rulesengine.fast import batch

    start = time.process_time()
    batch.play(edition, 4, list(range(games)))
    return games / (time.process_time() - start)


def figures(games: int, engine_games: int) -> None:
    edition = load_edition(ROOT / "editions" / "australia.yaml")
    simulate_rate(300, False)                                       # numpy and the plan made once, as a command does
    lean, loop, engine = lean_rate(engine_games), loop_rate(edition, engine_games), simulate_rate(engine_games, True)[0]
    batch, simulated = batch_rate(edition, games), simulate_rate(games, False)[0]
    print(f"\nAustralia, 4 random seats, games per CPU-second (lean game {lean:,.0f}/s); load {load()}")
    for label, rate in (("engine: the game loop", loop), ("engine: boom simulate", engine),
                        ("batch: alone", batch), ("batch: boom simulate", simulated)):
        print(f"  {label:<24}{rate:>10,.0f}/s {rate / lean:>7.2f}x lean")
    print(f"  boom simulate costs {loop / engine - 1:.0%} over the engine's loop, {batch / simulated - 1:.0%} over "
          "the batch (figures and tallies)")


def jobs_scaling(games: int) -> None:
    print(f"\n--jobs 2 against --jobs 1, Australia, 4 random seats; load {load()}")
    for engine, label in ((False, "batch"), (True, "engine")):
        count = games if not engine else max(200, games // 8)
        walls, cpus = {}, {}
        for jobs in (1, 2):
            before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            _, simulation = simulate_rate(count, engine, jobs)
            after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            walls[jobs] = simulation.seconds
            cpus[jobs] = sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before,
                                                                                             strict=True))
        print(f"  {label:<7}{count:>7} games: wall {walls[1]:.2f} s / {walls[2]:.2f} s = {walls[1] / walls[2]:.2f}x; "
              f"CPU of the run {cpus[1]:.2f} s / {cpus[2]:.2f} s: on 2 idle cores {2 * cpus[1] / cpus[2]:.2f}x")


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def worktree(revision: str, folder: str) -> Path:
    path = Path(folder) / "checkout"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), revision], check=True,
                   capture_output=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", metavar="REV", help="also measure start-up at this revision, in turn")
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes per command (the least counts)")
    parser.add_argument("--games", type=int, default=8000, help="games of the batch runs")
    parser.add_argument("--engine-games", type=int, default=1000, help="games of the engine's runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="boom-bench-") as folder:
        roots = {"this": ROOT}
        if args.against:
            roots[args.against] = worktree(args.against, folder)
        try:
            start_up(roots, args.repeats)
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(roots[args.against])],
                               check=False, capture_output=True)
    figures(args.games, args.engine_games)
    jobs_scaling(args.games)
    print(f"load {load()} at the end")


if __name__ == "__main__":
    main()
