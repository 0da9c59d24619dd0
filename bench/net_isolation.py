"""Isolation on the server (#32), measured: the page's answer times and the event loop's lag while a hostile table
is stopped beside live ones, against the same live tables alone, in the same run.

Not a test: run by hand (`python bench/net_isolation.py`; `--tables N` live tables, `--runs R` each scenario R
times). A server (one worker process for every table, each call limited to 0.05 s of the server's CPU, as in
tests/test_net_isolation.py) runs in a thread of this process; N live tables of two client seats and a random bot
play to their end, first alone (the baseline), then beside a hostile table (seven search bots and one player at the
two-deck house rule, stopped at its first call over the limit). Meanwhile a client asks for the page (GET /) every
0.1 s. Reported for each scenario: the page's answer times (p50, p99, max), how late the server's loop woke from
its 0.1 s sleeps (p99, max), the live tables finished; the hostile run's p99s as a ratio of the baseline's; the
load average. The test asserts the structure (the hostile table stopped alone, the live ones finished, the page
answered every time); the times are here, where a busy machine makes them slower, not wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from net_support import ServerThread, play_beside_hostile  # noqa: E402

from rulesengine.net.protocol import Limits  # noqa: E402

LIMIT = 0.05  # seconds of the server's CPU a table's call may take


def percentile(values: list, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def scenario(tables: int, hostile: bool) -> dict:
    """One run: the page's answer times, the loop's lags, the live tables finished, the hostile table stopped."""
    with tempfile.TemporaryDirectory() as folder:
        server = ServerThread(Path(folder) / "boom.sqlite", Limits(table_cpu=LIMIT), workers=1)
        page: list = []

        try:
            victim, players = asyncio.run(play_beside_hostile(server, tables, hostile, page))
            lag = list(server.server.lag)
        finally:
            server.stop()
    times = [t for _, t in page]
    return {
        "page": times, "answered": sum(status == "200" for status, _ in page), "lag": lag,
        "finished": sum(p.final is not None for p in players) // 2,
        "stopped": victim is not None and any(e["code"] == "stopped" for e in victim.errors),
    }


def line(name: str, found: dict, tables: int) -> str:
    page, lag = found["page"], found["lag"]
    return (f"{name:9} page {found['answered']}/{len(page)} answered: p50 {percentile(page, 0.5) * 1000:6.1f} ms, "
            f"p99 {percentile(page, 0.99) * 1000:6.1f} ms, max {max(page, default=0) * 1000:6.1f} ms; loop lag p99 "
            f"{percentile(lag, 0.99) * 1000:6.1f} ms, max {max(lag, default=0) * 1000:6.1f} ms; "
            f"{found['finished']}/{tables} live tables finished" + ("; the hostile table stopped"
                                                                     if found["stopped"] else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10, help="live tables (two client seats and a random bot)")
    parser.add_argument("--runs", type=int, default=1, help="each scenario this many times, alternated")
    args = parser.parse_args()
    merged = {"alone": {"page": [], "lag": [], "answered": 0, "finished": 0, "stopped": False},
              "hostile": {"page": [], "lag": [], "answered": 0, "finished": 0, "stopped": True}}
    for _ in range(args.runs):
        for name, hostile in (("alone", False), ("hostile", True)):
            found = scenario(args.tables, hostile)
            into = merged[name]
            into["page"] += found["page"]
            into["lag"] += found["lag"]
            into["answered"] += found["answered"]
            into["finished"] += found["finished"]
            into["stopped"] = into["stopped"] and found["stopped"] if hostile else False
    for name in ("alone", "hostile"):
        print(line(name, merged[name], args.tables * args.runs))
    alone, hostile = merged["alone"], merged["hostile"]
    page_ratio = percentile(hostile["page"], 0.99) / max(percentile(alone["page"], 0.99), 1e-9)
    lag_ratio = percentile(hostile["lag"], 0.99) / max(percentile(alone["lag"], 0.99), 1e-9)
    print(f"hostile / alone: page p99 x{page_ratio:.2f}, loop lag p99 x{lag_ratio:.2f}; load average "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
