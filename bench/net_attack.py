"""How quickly a normal table is answered while the server is attacked: the acknowledgement p99 of a table of four
with 2,000 idle sockets, a flood of hostile host requests and 20 tables of search bots beside it, against the same
table on the same server without the attack, in the same run.

Not a test: run by hand (`python bench/net_attack.py`). It plays the attack test's scenario
(tests/attack_support.py, which tests/test_net_attack.py asserts on: the table plays to its end, memory bounded,
the attackers refused) and reports what the test does not assert, being a time on a shared machine. The issue's
figure is a p99 under 500 ms; measured 202-306 ms with this scenario alone on the shared 2-core machine (load
10-12), 538 and 581 ms inside whole-suite runs, 29-38 ms without the attack.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from attack_support import play_under_attack  # noqa: E402


def p99(players) -> float:
    acks = sorted(a for p in players for a in p.acks)
    return acks[min(len(acks) - 1, int(0.99 * len(acks)))] if acks else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="times to play the scenario (default 1)")
    args = parser.parse_args()
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory(prefix="boom-attack-") as folder:
            quiet, players, memory, seen = play_under_attack(Path(folder))
        attacked, alone = p99(players), p99(quiet)
        print(
            f"run {run}: ack p99 {attacked * 1000:.0f} ms under attack, {alone * 1000:.0f} ms without "
            f"({attacked / alone:.1f}x); {sum(len(p.acks) for p in players)} decisions; server memory peak "
            f"{max(memory, default=0):.0f} MiB; {len(seen.get('search', []))} search tables; "
            f"load {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
