"""Servers sharing one PostgreSQL database (#38): a seat routed to the node owning its table, spectators fed from
the log on another node, and hops proved with the nodes' shared key.

Each node is a real `boom serve --db postgresql://...` process (with a worker process of its own) on the run's
PostgreSQL (tests/pg_support.py); the clients are this process, each table's from its own loopback address.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time

import pytest
from net_support import ROOT, RawPlayer
from test_net_restart import free_port
from websockets.asyncio.client import connect

from rulesengine.net import host_table
from rulesengine.net.storage import open_store

pytestmark = pytest.mark.postgres


@pytest.fixture(autouse=True)
def bounded():
    """The hang guard of these tests (net_support's, longer): several servers and their clients on two cores."""

    def too_long(signum, frame):
        raise TimeoutError("a cluster test ran past 600 s")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(600)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


LEASE = 2.0  # the nodes' lease in these tests: a dead node's tables are taken over this long after it died


class Node:
    """One `boom serve` process on the shared database."""

    def __init__(self, db: str, key, workers: int = 1):
        self.port = free_port()
        self.log = key.with_name(f"node-{self.port}.log")
        self.url = f"ws://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "cli.main", "serve", "--port", str(self.port), "--db", db, "--key", str(key)]
        command += ["--workers", str(workers), "--lease", str(LEASE), "--max-connections", "4000"]
        with open(self.log, "w") as log:  # a pipe nobody reads would stop the node once full
            self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True)

    def ready(self) -> None:
        line = self.process.stdout.readline()
        assert line.startswith("boom server on"), (line, self.log.read_text())

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture
def nodes(postgres_url, tmp_path):
    started: list[Node] = []

    def start(count: int, workers: int = 1) -> list[Node]:
        fresh = [Node(postgres_url, tmp_path / "cluster.key", workers) for _ in range(count)]
        started.extend(fresh)
        for node in fresh:
            node.ready()
        return fresh

    yield start
    for node in started:
        node.stop()


def test_a_seat_reaching_another_node_is_carried_to_the_owner_and_spectators_follow_the_log(nodes, postgres_url):
    first, second = nodes(2, workers=0)

    async def scenario():
        code = (await host_table(first.url, "australia", 3, bots=1, bot_kind="random", seed=11))["table"]
        ana, ben = RawPlayer(second.url, code, "Ana"), RawPlayer(first.url, code, "Ben")
        watcher_here, watcher_there = [], []

        async def watch(url, frames):
            async with connect(url) as socket:
                await socket.send(json.dumps({"type": "watch", "table": code}))
                async for raw in socket:
                    frames.append(json.loads(raw))
                    view = frames[-1].get("view", {})
                    if view.get("sheet", {}).get("winners"):
                        return

        game = asyncio.gather(ana.play(), ben.play())
        await asyncio.sleep(0.5)
        await asyncio.gather(game, watch(first.url, watcher_here), watch(second.url, watcher_there))
        return code, ana, ben, watcher_here, watcher_there

    code, ana, ben, here, there = asyncio.run(scenario())
    assert ana.final is not None and ana.final == ben.final  # Ana played through the other node, to the end
    assert {ana.seat, ben.seat} == {0, 1} and not ana.errors and not ben.errors
    store = open_store(postgres_url, owner=False)
    try:
        stored = store.load(code)
    finally:
        store.close()
    assert stored.finished and stored.decisions  # written by the owner, the node Ben reached
    # the spectator on the other node was fed from the log (LISTEN/NOTIFY, or the poll): the same last view
    assert there[0]["type"] == here[0]["type"] == "watching"
    assert there[-1]["view"] == here[-1]["view"]
    assert there[-1]["view"]["sheet"]["winners"]


def test_the_nodes_know_each_other_only_with_the_shared_key(nodes, postgres_url, tmp_path):
    """A hop proves itself with the key the nodes share: without it, a header claiming one is refused."""
    (node,) = nodes(1, workers=0)

    async def attempt():
        from websockets.exceptions import InvalidStatus

        try:
            async with connect(node.url, additional_headers={"Boom-Hop": f"10.0.0.1|{int(time.time())}|00"}):
                return "open"
        except InvalidStatus as refused:
            return refused.response.status_code

    assert asyncio.run(attempt()) == 403
