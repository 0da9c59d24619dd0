"""`boom simulate` against the games it plays: games/s, the --jobs speed-up, and peak memory in G.

Not a test: run by hand (`.venv/bin/python bench/simulate_speed.py`). It times the plain game loop
of bench/games_per_second.py (random bots, records kept) and run_simulation on the same number of
games (both without the one-off loading of the edition), alternating them to even out a busy
machine, then --jobs 2 against --jobs 1, then the peak memory of `boom simulate` in a fresh process
for a small and a ten times larger G.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from games_per_second import play_games  # noqa: E402

from rulesengine import load_edition  # noqa: E402
from rulesengine.simulate import Settings, run_simulation  # noqa: E402


def simulate_rate(edition_path: Path, players: int, games: int, jobs: int) -> float:
    """Games per second of the games, their figures and tallies (not the one-off edition load)."""
    settings = Settings((str(edition_path),), ("random",) * players, games, 1)
    return run_simulation(settings, jobs=jobs).games_per_second


def peak_memory_mib(edition_path: Path, players: int, games: int) -> float:
    code = (
        "import resource, sys; from cli.main import main\n"
        "sys.argv = ['boom', 'simulate', sys.argv[1], '-p', sys.argv[2], '-n', sys.argv[3], "
        "'-j', '1', '--format', 'json']\ntry: main()\nexcept SystemExit: pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(edition_path), str(players), str(games)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="australia")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    path = ROOT / "editions" / f"{args.edition}.yaml"
    edition = load_edition(path)
    loop, simulated = [], []
    for _ in range(args.repeats):
        elapsed, _records = play_games(edition, args.players, args.games)
        loop.append(args.games / elapsed)
        simulated.append(simulate_rate(path, args.players, args.games, 1))
    best_loop, best_sim = max(loop), max(simulated)
    print(f"{args.edition}, {args.players} random bots, {args.games} games, best of {args.repeats}")
    print(f"bench game loop      {best_loop:8.1f} games/s")
    print(f"simulate --jobs 1    {best_sim:8.1f} games/s  ({best_sim / best_loop:.1%} of the loop)")
    two = max(simulate_rate(path, args.players, args.games, 2) for _ in range(args.repeats))
    print(f"simulate --jobs 2    {two:8.1f} games/s  ({two / best_sim:.2f}x --jobs 1)")
    small, large = (
        peak_memory_mib(path, args.players, args.games // 10),
        peak_memory_mib(path, args.players, args.games),
    )
    print(f"peak memory          {small:8.1f} MiB for {args.games // 10} games, {large:.1f} MiB for {args.games} games")


if __name__ == "__main__":
    main()
