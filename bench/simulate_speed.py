"""`boom simulate` against the games it plays: games/s, the --jobs speed-up, and peak memory in G.

Not a test: run by hand (`.venv/bin/python bench/simulate_speed.py`). It times the plain game loop
of bench/games_per_second.py (random bots, records kept) and run_simulation on the same number of
games (both without the one-off loading of the edition), alternating them to even out a busy
machine, then --jobs 2 against --jobs 1 (by the wall clock, and by the CPU time the whole run
costs, which says what two idle cores would give when the machine is busy), then the peak memory
of `boom simulate` in a fresh process for a small and a ten times larger G. `--seats greedy` times the
--jobs speed-up of greedy seats too (the batch's greedy seats: a longer run, where the workers' start
counts less).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from games_per_second import engine_games  # noqa: E402

from rulesengine import load_edition  # noqa: E402
from rulesengine.simulate import Settings, run_simulation  # noqa: E402
from rulesengine.simulate.runner import prepare  # noqa: E402


def simulate_rate(edition_path: Path, players: int, games: int, jobs: int,
                  seats: str = "random") -> tuple[float, float]:
    """Games per second of the games, their figures and tallies (not the one-off edition load):
    by the wall clock, and by this process's CPU time (meaningful for --jobs 1 only)."""
    settings = Settings((str(edition_path),), (seats,) * players, games, 1)
    start = time.process_time()
    prepare(settings)
    loading = time.process_time() - start
    start = time.process_time()
    simulation = run_simulation(settings, jobs=jobs)
    return simulation.games_per_second, games / (time.process_time() - start - loading)


def parallel_cpu(edition_path: Path, players: int, games: int, jobs: int, seats: str = "random") -> float:
    """CPU seconds of a run over `jobs` worker processes: this process and its workers together."""
    settings = Settings((str(edition_path),), (seats,) * players, games, 1)
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    run_simulation(settings, jobs=jobs)
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before, strict=True))


def loop_rate(edition, players: int, games: int) -> tuple[float, float]:
    """The bench's game loop, by the wall clock and by CPU time."""
    start = time.perf_counter()
    cpu = engine_games(edition, players, range(games), [])
    return games / (time.perf_counter() - start), games / cpu


def peak_memory_mib(edition_path: Path, players: int, games: int) -> float:
    """The peak resident memory of `boom simulate` in a fresh process. Linux's VmHWM, not ru_maxrss: ru_maxrss
    survives exec, so a process started by this (large) benchmark reported the benchmark's own size (698 MiB for
    a 10,000- and a 100,000-game run alike, where /usr/bin/time measures ~60 MiB)."""
    code = (
        "import resource, sys; from cli.main import main\n"
        "sys.argv = ['boom', 'simulate', sys.argv[1], '-p', sys.argv[2], '-n', sys.argv[3], "
        "'-j', '1', '--format', 'json']\ntry: main()\nexcept SystemExit: pass\n"
        "try: kib = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
        "except (OSError, IndexError): kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(kib, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(edition_path), str(players), str(games)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def greedy_jobs(path: Path, players: int, games: int) -> None:
    """--jobs 2 against --jobs 1 with greedy seats (the batch's): by the wall clock, and by the CPU time."""
    load = os.getloadavg()[0]
    one = simulate_rate(path, players, games, 1, "greedy")[0]
    two = simulate_rate(path, players, games, 2, "greedy")[0]
    one_cpu = parallel_cpu(path, players, games, 1, "greedy")
    two_cpu = parallel_cpu(path, players, games, 2, "greedy")
    print(f"greedy seats, {games} games (load {load:.1f} to {os.getloadavg()[0]:.1f}): --jobs 1 {one:.1f} games/s, "
          f"--jobs 2 {two:.1f} games/s by the wall clock ({two / one:.2f}x); CPU of a whole run --jobs 1 "
          f"{one_cpu:.1f} s, --jobs 2 {two_cpu:.1f} s: on 2 idle cores --jobs 2 can reach {2 * one_cpu / two_cpu:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="australia")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--greedy-games", type=int, default=2000, help="greedy games of the --jobs run (0: none)")
    args = parser.parse_args()
    path = ROOT / "editions" / f"{args.edition}.yaml"
    edition = load_edition(path)
    loop, simulated = [], []
    for _ in range(args.repeats):
        loop.append(loop_rate(edition, args.players, args.games))
        simulated.append(simulate_rate(path, args.players, args.games, 1))
    (loop_wall, loop_cpu), (sim_wall, sim_cpu) = (
        tuple(map(max, zip(*rates, strict=True))) for rates in (loop, simulated)
    )
    print(f"{args.edition}, {args.players} random bots, {args.games} games, best of {args.repeats}")
    print(f"{'':20}{'wall games/s':>14}{'CPU games/s':>14}")
    print(f"{'bench game loop':20}{loop_wall:14.1f}{loop_cpu:14.1f}")
    print(
        f"{'simulate --jobs 1':20}{sim_wall:14.1f}{sim_cpu:14.1f}   "
        f"{sim_wall / loop_wall:.1%} / {sim_cpu / loop_cpu:.1%} of the loop"
    )
    two = max(simulate_rate(path, args.players, args.games, 2)[0] for _ in range(args.repeats))
    one_cpu = min(parallel_cpu(path, args.players, args.games, 1) for _ in range(args.repeats))
    two_cpu = min(parallel_cpu(path, args.players, args.games, 2) for _ in range(args.repeats))
    print(f"{'simulate --jobs 2':20}{two:14.1f}{'':14}   {two / sim_wall:.2f}x --jobs 1 (wall)")
    print(
        f"CPU of a whole run: --jobs 1 {one_cpu:.2f} s, --jobs 2 {two_cpu:.2f} s (workers included): "
        f"on 2 idle cores --jobs 2 can reach {2 * one_cpu / two_cpu:.2f}x"
    )
    if args.greedy_games:
        greedy_jobs(path, args.players, args.greedy_games)
    small, large = (
        peak_memory_mib(path, args.players, args.games // 10),
        peak_memory_mib(path, args.players, args.games),
    )
    print(f"peak memory          {small:8.1f} MiB for {args.games // 10} games, {large:.1f} MiB for {args.games} games")


if __name__ == "__main__":
    main()
