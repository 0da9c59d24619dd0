"""Load on a boom server: many tables of bots at once; decisions a second, acknowledgement times, CPU, memory.

Not a test: run by hand (`python bench/net_load.py`; `--workers N` for the server's worker processes, `--nodes
K` for K servers sharing a throwaway PostgreSQL, `--think S` for the mean pause before each answer). A server
is started as its own process on a fresh database; one client process hosts the tables (each from its own
loopback address, as households would) and plays every seat over its own WebSocket (`--seats client`, the
default), or lets the server's own bots play them (`--seats server`). Each `decide` carries a `ref`; the time
from sending it to its `ack` is an acknowledgement time, reported as p50/p99. Server CPU is given for the
fronts and their workers apart (PostgreSQL's own not counted); peak memory is the sum of their high-water marks
of resident memory (VmHWM, Linux).

The defaults are the issue's load: 1,000 tables of 4 client seats, each answering after a pause of 5 s on
average (exponential), as people take (a live clock is typically 30 s). With no pause (`--think 0`) every
seat answers at once and the clients form a closed loop: the acknowledgement time is then the queue's length
(every seat has a `decide` waiting) divided by the rate (Little's law), so it measures the server's
throughput (decisions/s), not a delay a player would see.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from ports import free_port  # noqa: E402
from processes import family, memory_mib  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import InvalidMessage, InvalidStatus  # noqa: E402

from rulesengine.bots.registry import make_bot  # noqa: E402
from rulesengine.game.state import Decision  # noqa: E402
from rulesengine.net import host_table  # noqa: E402
from rulesengine.net.editions import edition_from_data  # noqa: E402


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of these processes so far (Linux)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def source(table: int) -> str:
    """The loopback address table number `table`'s clients connect from: one household each (127.0.0.0/8 all
    reaches this machine), so the server's per-address shares apply as they would to players at home."""
    return f"127.{1 + table // 62500}.{table // 250 % 250 + 1}.{table % 250 + 2}"


REFUSED: list[int] = []  # handshakes the server closed (past its 10 s open timeout when 4,000 seats join at once)


async def opened(url: str, where: str):
    """A connection, tried again (up to 5 times, a second apart) when the server closes it during the handshake:
    the seat's player would reload the page; each retry is counted and reported."""
    for attempt in range(5):
        try:
            return await connect(url, max_size=None, local_addr=(where, 0), open_timeout=60)
        except (InvalidMessage, InvalidStatus, OSError):
            if attempt == 4:
                raise
            REFUSED.append(1)
            await asyncio.sleep(1.0)


async def play(url: str, code: str, name: str, bot_kind: str, seed: int, think: float, acks: list, where: str):
    """One seat played to the end by a bot, timing each decide to its ack."""
    rng, sent, at = random.Random(seed), set(), {}
    async with await opened(url, where) as socket_:
        await socket_.send(json.dumps({"type": "join", "table": code, "name": name}))
        token, bot, ref = None, None, 0
        async for raw in socket_:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "joined":
                token = message["token"]
                bot = make_bot(bot_kind, edition_from_data(message["edition"]), seed)
            elif kind == "ack":
                acks.append(time.perf_counter() - at.pop(message["ref"]))
            elif kind == "game_over":
                return
            elif kind == "error" and message["code"] in ("too_fast", "retry"):
                sent.clear()
            elif kind == "state":
                view = message["view"]
                for pending in view["pending"]:
                    if pending["id"] in sent:
                        continue
                    sent.add(pending["id"])
                    decision = Decision(
                        pending["seat"],
                        pending["kind"],
                        pending["round"],
                        tuple(pending["options"]),
                        pending["category"],
                    )
                    answer = bot.decide(view, decision)
                    if think:
                        await asyncio.sleep(rng.expovariate(1 / think))
                    ref += 1
                    at[ref] = time.perf_counter()
                    await socket_.send(
                        json.dumps(
                            {
                                "type": "decide",
                                "table": code,
                                "token": token,
                                "round": pending["round"],
                                "kind": pending["kind"],
                                "category": pending["category"],
                                "id": pending["id"],
                                "answer": answer,
                                "ref": ref,
                            }
                        )
                    )


async def load(urls, tables, players, seats, bot_kind, edition, think, acks) -> None:
    bots = players if seats == "server" else 0
    codes = []
    for seed in range(tables):
        hosted = await host_table(urls[seed % len(urls)], edition, players, bots, bot_kind, seed, source=source(seed))
        codes.append(hosted["table"])
    if seats == "client":
        names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
        await asyncio.gather(
            *(
                play(urls[t % len(urls)], code, name, bot_kind, n * 10 + t, think, acks, source(t))
                for t, code in enumerate(codes)
                for n, name in enumerate(names)
            )
        )


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def counts(db: str) -> tuple[int, int, bool]:
    """(decisions, finished tables, every table finished) in the server's database: SQLite or PostgreSQL."""
    query = "SELECT (SELECT COUNT(*) FROM decisions), COUNT(*) FILTER (WHERE {done}), COUNT(*) FROM tables"
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as connection:
            decisions, done, total = connection.execute(query.format(done="finished")).fetchone()
    else:
        with sqlite3.connect(db) as connection:
            decisions, done, total = connection.execute(query.format(done="finished = 1")).fetchone()
    return decisions, done, done == total


def start_servers(folder: Path, args) -> tuple[str, list[subprocess.Popen], object]:
    """One server on an SQLite file, or --nodes servers on a throwaway PostgreSQL (the tests' way of starting
    the distribution's: tests/pg_support.py); (database, server processes, the PostgreSQL to stop or None)."""
    options = ["--max-tables", str(max(500, args.tables)), "--workers", str(args.workers)]
    options += ["--max-connections", str(max(2000, 5 * args.tables * args.players))]
    postgres = None
    if args.nodes == 1:
        db = str(folder / "load.sqlite")
    else:
        from pg_support import TempPostgres, server_programs

        programs = server_programs()
        if programs is None:
            sys.exit("--nodes needs PostgreSQL's server programs (initdb, pg_ctl): apt-get install postgresql")
        postgres = TempPostgres(programs)
        db = postgres.start()
        options += ["--key", str(folder / "cluster.key")]
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(free_port()), "--db", db, *options],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(args.nodes)
    ]
    return db, servers, postgres


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seats", choices=["client", "server"], default="client", help="who plays the seats")
    parser.add_argument("--bot-kind", default="random")
    parser.add_argument("--edition", default="australia")
    parser.add_argument("--workers", type=int, default=1, help="the server's worker processes (0: in its loop)")
    parser.add_argument("--nodes", type=int, default=1, help="servers on one PostgreSQL database (1: one on SQLite)")
    parser.add_argument("--think", type=float, default=5.0, help="mean seconds before each answer (exponential)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db, servers, postgres = start_servers(Path(folder), args)
        acks: list[float] = []
        try:
            urls = [server.stdout.readline().split()[3] for server in servers]  # "boom server on ws://..."
            pids = [pid for server in servers for pid in family(server.pid)]
            fronts = [server.pid for server in servers]
            front_before, cpu_before = cpu_seconds(fronts), cpu_seconds(pids)
            started, client_started = time.perf_counter(), time.process_time()
            asyncio.run(
                load(urls, args.tables, args.players, args.seats, args.bot_kind, args.edition, args.think, acks)
            )
            if args.seats == "server":  # the server's bots play on after `hosted`: wait for the last table
                while not counts(db)[2]:
                    time.sleep(0.05)
            wall = time.perf_counter() - started
            client_cpu = time.process_time() - client_started
            decisions, done, _ = counts(db)
            memory = memory_mib(pids, "VmHWM")
            cpu = cpu_seconds(pids) - cpu_before
            front = cpu_seconds(fronts) - front_before
        finally:
            for server in servers:
                server.terminate()
                server.wait()
            if postgres is not None:
                postgres.stop()
    where = "1 server (SQLite)" if args.nodes == 1 else f"{args.nodes} servers on one PostgreSQL"
    print(
        f"{args.tables} tables of {args.players} {args.bot_kind} bots ({args.seats} seats), {args.edition}, "
        f"{where}, {args.workers} workers each, think {args.think:g} s: {done}/{args.tables} finished, "
        f"{decisions} decisions in {wall:.2f} s wall, {decisions / wall:.0f} decisions/s, ack p50 "
        f"{percentile(acks, 0.5) * 1000:.0f} ms p99 {percentile(acks, 0.99) * 1000:.0f} ms ({len(acks)} acks), "
        f"server peak memory {memory:.1f} MiB, server CPU {cpu:.2f} s ({cpu / max(decisions, 1) * 1000:.2f} ms a "
        f"decision: front {front / max(decisions, 1) * 1000:.2f}, workers "
        f"{(cpu - front) / max(decisions, 1) * 1000:.2f}"
        f"{'' if postgres is None else '; PostgreSQL not counted'}); client process CPU {client_cpu:.2f} s "
        f"({client_cpu / max(decisions, 1) * 1000:.2f} ms a decision); {len(REFUSED)} handshakes closed by the "
        f"server and tried again; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
