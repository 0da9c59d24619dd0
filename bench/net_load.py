"""Load on one boom server: many tables of bots at once; wall time, decisions per second, peak memory.

Not a test: run by hand (`python bench/net_load.py`). A server is started as its own process on a
fresh database; one client process hosts the tables and plays every seat over its own WebSocket
connection (`--seats client`, the default), or lets the server's own bots play them (`--seats
server`). Peak memory is the server process's high-water mark of resident memory (VmHWM, Linux).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine.bots.registry import make_bot  # noqa: E402
from rulesengine.net import host_table, play_seat  # noqa: E402


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def source(table: int) -> str:
    """The loopback address table number `table`'s clients connect from: one household each (127.0.0.0/8 all
    reaches this machine), so the server's per-address shares apply as they would to players at home."""
    return f"127.{1 + table // 62500}.{table // 250 % 250 + 1}.{table % 250 + 2}"


async def load(url: str, tables: int, players: int, seats: str, bot_kind: str, edition: str) -> None:
    bots = players if seats == "server" else 0
    codes = [
        (await host_table(url, edition, players, bots, bot_kind, seed, source=source(seed)))["table"]
        for seed in range(tables)
    ]
    if seats == "client":
        names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
        await asyncio.gather(
            *(
                play_seat(
                    url, code, name, lambda e, s=n * 10 + t: make_bot(bot_kind, e, s), retries=3, source=source(t)
                )
                for t, code in enumerate(codes)
                for n, name in enumerate(names)
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seats", choices=["client", "server"], default="client", help="who plays the seats")
    parser.add_argument("--bot-kind", default="random")
    parser.add_argument("--edition", default="australia")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db, port = Path(folder) / "load.sqlite", free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--db", str(db)]
            + ["--max-tables", str(max(500, args.tables))],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            server.stdout.readline()
            cpu_before = cpu_seconds(server.pid)
            started, client_started = time.perf_counter(), time.process_time()
            asyncio.run(
                load(f"ws://127.0.0.1:{port}", args.tables, args.players, args.seats, args.bot_kind, args.edition)
            )
            if args.seats == "server":  # the server's bots play on after `hosted`: wait for the last table
                while True:
                    with sqlite3.connect(db) as connection:
                        if connection.execute("SELECT MIN(finished) FROM tables").fetchone()[0] == 1:
                            break
                    time.sleep(0.05)
            wall = time.perf_counter() - started
            client_cpu = time.process_time() - client_started
            with sqlite3.connect(db) as connection:
                decisions = connection.execute("SELECT COUNT(*) FROM decisions").fetchone()[0]
                done = connection.execute("SELECT COUNT(*) FROM tables WHERE finished = 1").fetchone()[0]
            memory = peak_memory_mib(server.pid)
            cpu = cpu_seconds(server.pid) - cpu_before
        finally:
            server.terminate()
            server.wait()
    print(
        f"{args.tables} tables of {args.players} {args.bot_kind} bots ({args.seats} seats), {args.edition}: "
        f"{done}/{args.tables} finished, {decisions} decisions in {wall:.2f} s wall, "
        f"{decisions / wall:.0f} decisions/s, server peak memory {memory:.1f} MiB, "
        f"server CPU {cpu:.2f} s ({cpu / max(decisions, 1) * 1000:.2f} ms a decision); "
        f"client process CPU {client_cpu:.2f} s; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
