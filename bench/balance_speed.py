"""The balance report and `boom tune` with greedy seats: games/s against the bare game loop, and the time
of the two runs issue #34 names (10,000 paired games of the Direction variant against Australia; tune on
"Animals x3" with the animal values free).

Not a test: run by hand (`.venv/bin/python bench/balance_speed.py`). It times, in the same run:
1. the bare loop: four greedy seats of Australia played with game.loop.play (the baseline);
2. `run_simulation` of the Direction variant against Australia (paired: two games a deal) on --jobs 1,
   by CPU time: played by the batch's greedy seats (rulesengine/fast/greedy.py) where it plays the
   editions, so the ratio to the baseline is the batch's gain less the cost of the figures;
3. that simulation at --jobs 2 for --paired games, by the wall clock and by the CPU time of this process
   and its workers (CPU / 2 is what two idle cores would take), extrapolated to 10,000 paired games;
4. `boom tune` on Animals x3 (--tune-games, --candidates) at --jobs 2, by the wall clock and CPU time.
The load average is printed beside the figures: on a busy machine the wall clock says little.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.registry import agent_seed, make_bot  # noqa: E402
from rulesengine.edition.extends import load_with_extends  # noqa: E402
from rulesengine.game.loop import play  # noqa: E402
from rulesengine.simulate import Settings, run_simulation  # noqa: E402
from rulesengine.simulate.knobs import read_knobs  # noqa: E402
from rulesengine.simulate.shards import game_seed  # noqa: E402
from rulesengine.simulate.tune import Search, Targets, tune_rule  # noqa: E402

AUSTRALIA = ROOT / "editions" / "australia.yaml"
DIRECTION = ROOT / "editions" / "variants" / "australia-direction.yaml"
GREEDY = ("greedy",) * 4


def cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bare_loop(games: int) -> float:
    """Greedy games per CPU second of the plain game loop (no figures, no tallies)."""
    edition = load_edition(AUSTRALIA)
    start = time.process_time()
    for number in range(games):
        seed = game_seed(0, number)
        agents = [make_bot("greedy", edition, agent_seed(seed, seat)) for seat in range(4)]
        play(Game(edition, ["P1", "P2", "P3", "P4"], seed, events=False), agents)
    return games / (time.process_time() - start)


def paired(games: int, jobs: int) -> tuple[float, float]:
    """Games (two a deal) per wall second and per CPU second of the Direction report."""
    settings = Settings((str(AUSTRALIA), str(DIRECTION)), GREEDY, games, 0)
    run_simulation(Settings(settings.editions, GREEDY, 1, 0))  # the editions loaded and compiled once
    start, before = time.perf_counter(), cpu()
    run_simulation(settings, jobs=jobs)
    return 2 * games / (time.perf_counter() - start), 2 * games / (cpu() - before)


def animals_x3(folder: Path) -> str:
    path = folder / "big-animals.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\nid: australia-big-animals\nname: 'Boomerang: Australia (Animals x3)'\n"
        "categories:\n  - key: animals\n"
        "    score: 3 * sum([value(kind) * (count(kind, cards) // 2) for kind in kinds(animal)])\n"
    )
    return str(path)


def tune_run(games: int, candidates: int, shrink: int, jobs: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        rule = animals_x3(Path(folder))
        data = load_with_extends(rule)[0]
        search = Search(
            data,
            read_knobs(["families.animal.icons.*=0..9"], data),
            GREEDY,
            Targets(),
            0,
            games,
            candidates,
            shrink,
            jobs,
        )
        start, before = time.perf_counter(), cpu()
        tuned = tune_rule(str(AUSTRALIA), rule, str(Path(folder) / "tuned.yaml"), search)
        return {"wall": time.perf_counter() - start, "cpu": cpu() - before, "tuned": tuned}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bare", type=int, default=60, help="greedy games of the bare loop")
    parser.add_argument("--paired", type=int, default=200, help="paired deals of the Direction report")
    parser.add_argument("--tune-games", type=int, default=1600)
    parser.add_argument("--candidates", type=int, default=32)
    parser.add_argument("--shrink", type=int, default=3)
    parser.add_argument("--no-tune", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    base = bare_loop(args.bare)
    print(f"bare loop, four greedy seats: {base:.1f} games per CPU second")
    _, one = paired(max(1, args.paired // 4), 1)
    print(f"simulate Direction vs Australia -j1: {one:.1f} games per CPU second ({one / base:.2f}x the bare loop)")
    wall, per_cpu = paired(args.paired, 2)
    needed = 20000 / per_cpu
    print(
        f"simulate --jobs 2: {wall:.1f} games/s by the wall clock, {per_cpu:.1f} per CPU second; 10,000 paired "
        f"games = 20,000 games = {needed:.0f} CPU s, {needed / 2:.0f} s on two idle cores"
    )
    if not args.no_tune:
        found = tune_run(args.tune_games, args.candidates, args.shrink, 2)
        tuned = found["tuned"]
        played = tuned.search.played + 2 * tuned.simulation.settings.games
        changes = ", ".join(f"{name.split('.')[-1]} {old}->{new}" for name, old, new in tuned.changes())
        print(
            f"tune Animals x3 (greedy, {args.tune_games} games, {args.candidates} candidates): {played:,} games in "
            f"{found['wall']:.0f} s by the wall clock, {found['cpu']:.0f} CPU s ({found['cpu'] / 2:.0f} s on two "
            f"idle cores); targets met: {tuned.met}; {changes}"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
