"""Every script of bench/ still runs (a benchmark that no longer imports measures nothing): each is run
once with tiny counts and must finish and print its figures. Nothing here reads a time: the timeout is
only a guard against a hang, wide enough for instructions.py under valgrind on a busy 2-core machine (262 s
of wall time at load 15)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pg_support import server_programs, unavailable

ROOT = Path(__file__).resolve().parent.parent

RUNS = {
    "against.py": (["HEAD", "--games", "3", "--slices", "1", "--editions", "australia", "--bots", "random"],
                   "four random seats"),
    "balance_speed.py": (["--bare", "2", "--paired", "4", "--no-tune"], "10,000 paired games"),
    "commands.py": (["--repeats", "1", "--games", "400", "--engine-games", "20"], "on 2 idle cores"),
    "compiled.py": (["--games", "40", "--batch", "20", "--engine-games", "4", "--players", "2",
                     "--editions", "australia"], "australia         2"),
    "bots.py": (["--editions", "australia", "--greedy-games", "1", "--search-games", "1", "--think", "5"],
                "  guided"),
    "expressions.py": (["--environments", "2", "--repeat", "1"], "per CPU second"),
    "generated.py": (["--games", "40", "--slice", "20", "--engine-games", "4", "--players", "2", "--editions",
                      "australia", "--greedy-games", "1"], "australia         2"),
    "guarantee.py": (["--repeat", "1"], "australia                    4"),
    "greedy_batch.py": (["--games", "20", "--batch", "10", "--engine-games", "2", "--players", "2",
                         "--editions", "australia"], "australia "),
    "first_game.py": (["--processes", "1", "--editions", "australia"], "australia "),
    "games_per_second.py": (["--games", "10", "--players", "2", "--editions", "australia"], "australia         2"),
    "instructions.py": (["--games", "2", "--warm", "1", "--players", "2"], "australia         2"),
    "memory.py": (["--games", "10", "--batches", "2"], "after     10 games:"),
    "net_load.py": (["--tables", "1", "--players", "2", "--think", "0"], "1/1 finished"),
    "net_attack.py": ([], "20 search tables"),
    "net_isolation.py": (["--tables", "1"], "1/1 live tables finished; the hostile table stopped"),
    "net_kill.py": (["--nodes", "2", "--tables", "2"], "2/2 finished"),
    "search_rollouts.py": (["--games", "1", "--editions", "australia"], "australia's lanes played by: lanes;"),
    "search_lanes.py": (["--games", "1"], "the same gains, every lane"),
    "screen.py": (["{tmp}/screen.jsonl", "--games", "0:2", "--kind", "guided:5", "--set", "plan=false"], "of 2 games"),
    "simulate_speed.py": (["--games", "20", "--repeats", "1", "--greedy-games", "12"], "greedy seats, 12 games"),
    "tournament.py": (["--games", "4", "--search-games", "2", "--search-rollouts", "8", "--ismcts-iterations", "8",
                       "--jobs", "1", "--editions", "australia"], "ismcts vs search (2p)"),
}


def test_every_bench_script_is_run_here():
    assert sorted(RUNS) == sorted(p.name for p in (ROOT / "bench").glob("*.py"))


@pytest.mark.parametrize("script", sorted(RUNS))
def test_a_bench_script_runs_and_prints_its_figures(script, tmp_path):
    arguments, expected = RUNS[script]
    arguments = [argument.replace("{tmp}", str(tmp_path)) for argument in arguments]   # a file of the test's own
    if script == "instructions.py" and shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed: instructions.py counts with its callgrind")
    if script == "net_kill.py" and server_programs() is None:
        unavailable("bench/net_kill.py starts one")  # a skip, or a failure under CI=true
    if script == "against.py" and not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: against.py checks a revision out with git worktree")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *arguments], cwd=ROOT,
                          capture_output=True, text=True, timeout=1200)  # a hang guard only
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout


def test_against_counts_the_same_instructions_for_the_same_code():
    """bench/against.py --instructions: HEAD against this checkout (the same code in CI) counts the same
    instructions a game within 1% (PYTHONHASHSEED fixed, only the games collected; what the garbage
    collector finds still depends a little on what ran before: 0.1% seen)."""
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed: --instructions counts with its callgrind")
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: against.py checks a revision out with git worktree")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "against.py"), "HEAD", "--instructions", "--games",
                           "2", "--editions", "australia", "--bots", "random"], cwd=ROOT, capture_output=True,
                          text=True, timeout=1200)  # a hang guard only
    assert done.returncode == 0, done.stderr
    edition, this_revision, this_checkout, ratio = done.stdout.splitlines()[-1].split()
    assert edition == "australia" and 4 < float(this_checkout) < 6 and 0.99 <= float(ratio[:-1]) <= 1.01


def test_screen_compares_two_screens_game_by_game(tmp_path):
    """bench/screen.py --compare on two hand-written screens of four games: shares 1, 0, 1, 0.5 against 1, 1, 0, 0.5,
    differences 0, 1, -1, 0: mean 0, standard deviation sqrt(2 / 3) = 0.8165, so 1.96 x 0.8165 / sqrt(4) = 0.800:
    +0.0 +- 80.0 points; a game only one of them played is left out. The base: 2.5 wins of 4, Wilson (0.625 +
    1.96^2 / 8 -+ 1.96 sqrt(0.625 x 0.375 / 4 + 1.96^2 / 64)) / (1 + 1.96^2 / 4) = 21.9-90.8%; (10 + 20 + 30 + 40) ms
    over 8 picks, 12.5 ms a pick."""
    base, candidate = tmp_path / "base.jsonl", tmp_path / "candidate.jsonl"
    for path, shares in ((base, [1, 0, 1, 0.5, 1]), (candidate, [1, 1, 0, 0.5])):
        path.write_text("".join(json.dumps({"game": g, "share": share, "ms": 10.0 * (g + 1), "picks": 2}) + "\n"
                                for g, share in enumerate(shares)))
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "screen.py"), "--compare", str(base), str(candidate)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)  # a hang guard only
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{base}: 62.5% (21.9-90.8%) of 4 games, 12.5 ms of CPU a pick"
    assert lines[2] == f"{candidate} minus {base}: +0.0 +- 80.0 points (paired, 4 games)"
