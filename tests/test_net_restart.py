"""A server killed mid-round (SIGKILL) and restarted on its database resumes every table; the clients
reconnect by themselves and every game ends as an uninterrupted one with the same seed and decisions."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time

from net_support import (
    ROOT,
    bounded,  # noqa: F401 - the autouse fixture that fails a hung test
)
from ports import free_port
from test_net_play import FirstOption, offline_sheet

from rulesengine.net import host_table, play_seat


def start_server(port: int, db) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--db", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    assert line.startswith("boom server on ws://127.0.0.1:"), line + process.stderr.read()
    return process


class SlowFirst(FirstOption):
    """First options, a little slowly (in a thread, like a human at a terminal), so the kill lands mid-game."""

    kind = "human"

    def decide(self, view, decision):
        time.sleep(0.01)
        return super().decide(view, decision)


def decisions(db, code: str) -> int:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT COUNT(*) FROM decisions WHERE code = ?", (code,)).fetchone()[0]


def finished(db) -> list[int]:
    with sqlite3.connect(db) as connection:
        return [row[0] for row in connection.execute("SELECT finished FROM tables ORDER BY created")]


def test_a_killed_server_restarted_on_its_database_resumes_every_table(tmp_path, australia):
    db, port = tmp_path / "boom.sqlite", free_port()
    url = f"ws://127.0.0.1:{port}"
    server = start_server(port, db)
    try:

        async def scenario():
            first = (await host_table(url, "australia", 3, 1, "greedy", 31))["table"]
            second = (await host_table(url, "australia", 2, 0, "greedy", 32))["table"]
            seats = [(first, "Ana"), (first, "Ben"), (second, "Cy"), (second, "Dee")]
            # up to ~50 s of reconnecting: a restart on a machine at load 15 took longer than 20 tries (~9 s)
            games = [
                asyncio.create_task(
                    play_seat(
                        url, code, name, lambda edition: SlowFirst(), retries=100, first_pause=0.05, max_pause=0.5
                    )
                )
                for code, name in seats
            ]
            while decisions(db, first) < 30 or decisions(db, second) < 30:
                await asyncio.sleep(0.02)
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            before = finished(db)
            restarted.append(await asyncio.to_thread(start_server, port, db))
            return first, second, before, await asyncio.gather(*games)

        restarted = []
        first, second, before, seats = asyncio.run(scenario())
    finally:
        server.kill()
        for process in restarted:
            process.kill()
    assert before == [0, 0]  # both games were cut mid-way
    assert seats[0].final["sheet"] == offline_sheet(
        australia, ["Ana", "Ben", "Bot 1"], 31, ["first", "first", "greedy"]
    )
    assert seats[2].final["sheet"] == offline_sheet(australia, ["Cy", "Dee"], 32, ["first", "first"])
    assert [s.final for s in seats[:2]] == [seats[0].final] * 2 and seats[3].final == seats[2].final
