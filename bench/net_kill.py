"""A lost node, measured: K `boom serve` processes on one PostgreSQL, tables of bot clients, the first node SIGKILLed.

Not a test: run by hand (`python bench/net_kill.py --nodes 3 --tables 40`). It plays the kill test's scenario
(tests/cluster_support.py, which tests/test_net_cluster.py asserts on: nothing acknowledged is lost) and reports
what the test does not assert, being a time on a shared machine: how long each dropped seat took to sit down
again at a live node (from its connection dropping to `joined`; the issue asks 5 s), how long acknowledgements
took, and the decisions a second. It starts the distribution's PostgreSQL in a temporary folder as the tests
do (tests/pg_support.py), or uses --db postgresql://... (an empty database).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cluster_support import Node, kill_one  # noqa: E402
from pg_support import TempPostgres, server_programs  # noqa: E402

from rulesengine.net.stores import open_store  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1, help="each node's worker processes")
    parser.add_argument("--lease", type=float, default=2.0, help="the nodes' lease, seconds")
    parser.add_argument("--db", help="an empty PostgreSQL database (default: a throwaway server of the distribution's)")
    args = parser.parse_args()
    server = None
    if args.db is None:
        programs = server_programs()
        if programs is None:
            sys.exit("no PostgreSQL server programs (initdb, pg_ctl): apt-get install postgresql, or give --db")
        server = TempPostgres(programs)
        db = server.start()
    else:
        db = args.db
    cluster: list[Node] = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            key = Path(folder) / "cluster.key"
            for n in range(args.nodes):
                cluster.append(Node(db, key, Path(folder) / f"node-{n}.log", args.workers, args.lease))
            for node in cluster:
                node.ready()
            started = time.monotonic()
            codes, seats, killed_at, after_kill = asyncio.run(kill_one(cluster, args.tables))
            wall = time.monotonic() - started
            store = open_store(db, owner=False)
            try:
                decisions = sum(len(store.load(code).decisions) for code in codes)
                finished = sum(store.load(code).finished for code in codes)
            finally:
                store.close()
    finally:
        for node in cluster:
            node.stop()
        if server is not None:
            server.stop()
    back = [after for seat in seats for after in seat.back_after]
    acks = [t for seat in seats for t in seat.ack_times]
    print(
        f"{args.nodes} nodes ({args.workers} workers each, lease {args.lease:g} s), {args.tables} tables of 4 random "
        f"bot clients: {finished}/{args.tables} finished, {decisions} decisions in {wall:.1f} s "
        f"({decisions / wall:.0f} decisions/s); node 0 killed after {killed_at} acks, the last table ended "
        f"{after_kill:.1f} s later; {len(back)} seats dropped, back at a live node after p50 "
        f"{percentile(back, 0.5):.2f} s, p99 {percentile(back, 0.99):.2f} s, max {percentile(back, 1.0):.2f} s "
        f"({sum(b <= 5 for b in back)} within 5 s); ack p50 {percentile(acks, 0.5) * 1000:.0f} ms, p99 "
        f"{percentile(acks, 0.99) * 1000:.0f} ms; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
