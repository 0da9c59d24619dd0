"""Several `boom serve` processes on one PostgreSQL database, and the bot clients of the kill test (#38).

Shared by tests/test_net_cluster.py (which asserts what a lost node must not lose) and bench/net_kill.py (which
reports how long the seats took to come back, and the decisions a second): the same scenario, one place. Each
node is a real `boom serve --db postgresql://...` process; each client a WebSocket of this process, each table's
from its own loopback address (as households would), playing its seat with a random bot and remembering every
decision the server acknowledged.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from ports import free_port
from websockets.asyncio.client import connect

from rulesengine.bots.registry import make_bot
from rulesengine.game.state import Decision, Game
from rulesengine.net import host_table
from rulesengine.net.editions import edition_from_data

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ana", "Ben", "Cy", "Dee"]


class Node:
    """One `boom serve` process on the shared database; its log (stderr) in `log`."""

    def __init__(self, db: str, key: Path, log: Path, workers: int = 1, lease: float = 2.0):
        self.port = free_port()
        self.log = log
        self.url = f"ws://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "cli.main", "serve", "--port", str(self.port), "--db", db, "--key", str(key)]
        command += ["--workers", str(workers), "--lease", str(lease), "--max-connections", "4000"]
        command += ["--max-tables", "2000", "--max-tables-per-ip", "2000"]
        with open(self.log, "w") as written:  # a pipe nobody reads would stop the node once full
            self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=written, text=True)

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
                self.process.wait()


class ClusterSeat:
    """A bot client: it plays its seat to the end, going to the next node whenever its connection drops, and keeps
    every acknowledged decision, how long each acknowledgement took, and how long it took to get its seat back."""

    def __init__(self, urls: list[str], first: int, code: str, name: str, seed: int, source: str):
        self.urls, self.at, self.code, self.name, self.source = urls, first, code, name, source
        self.rng = random.Random(seed)
        self.seed = seed
        self.token: str | None = None
        self.seat: int | None = None
        self.final: dict | None = None
        self.acked: dict[int, tuple] = {}  # the game's decision number -> (seat, id, answer), from each ack
        self.sent: dict[int, tuple] = {}  # ref -> (seat, id, answer, when sent)
        self.ack_times: list[float] = []  # seconds from each decide to its ack
        self.dropped_at: float | None = None
        self.back_after: list[float] = []  # seconds from each drop to `joined` again
        self.nodes_used: set[str] = set()

    async def play(self) -> None:
        bot, ref, tries = None, 0, 0
        while self.final is None:
            url = self.urls[self.at % len(self.urls)]
            try:
                async with connect(url, local_addr=(self.source, 0), open_timeout=10, max_size=None) as link:
                    bot, ref = await self._seated(link, url, bot, ref)
                    tries = 0
            except AssertionError:
                raise
            except Exception:  # noqa: BLE001 - a drop (the node died, or closed the hop): on to the next node
                pass
            if self.final is None:
                if self.dropped_at is None:
                    self.dropped_at = time.monotonic()
                self.sent.clear()  # not acknowledged: written or not, the fresh state says
                tries += 1
                assert tries < 60, f"{self.name} at {self.code} never got back"
                self.at += 1
                await asyncio.sleep(0.2)

    async def _seated(self, link, url: str, bot, ref: int):
        hello = (
            {"type": "join", "table": self.code, "name": self.name}
            if self.token is None
            else {"type": "resume", "table": self.code, "token": self.token}
        )
        await link.send(json.dumps(hello))
        answered: set = set()
        seated_here = False
        async for raw in link:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "joined":
                seated_here = True
                self.seat, self.token = message["seat"], message.get("token", self.token)
                self.nodes_used.add(url)
                if self.dropped_at is not None:
                    self.back_after.append(time.monotonic() - self.dropped_at)
                    self.dropped_at = None
                bot = bot or make_bot("random", edition_from_data(message["edition"]), self.seed)
            elif kind == "ack":
                seat, decision_id, answer, when = self.sent.pop(message["ref"])
                self.acked[message["index"]] = (seat, decision_id, answer)
                self.ack_times.append(time.monotonic() - when)
            elif kind == "game_over":
                self.final = message
                return bot, ref
            elif kind == "error" and message["code"] in ("retry", "too_fast"):
                if not seated_here:  # the join or resume itself is to be sent again
                    await asyncio.sleep(0.2)
                    await link.send(json.dumps(hello))
                answered.clear()
            elif kind == "error" and message["code"] not in ("stale", "out_of_turn", "moved"):
                raise AssertionError(message)
            elif kind == "state":
                for pending in message["view"]["pending"]:
                    if pending["id"] in answered:
                        continue
                    answered.add(pending["id"])
                    asked = (pending["seat"], pending["kind"], pending["round"], tuple(pending["options"]))
                    decision = Decision(*asked, pending["category"])
                    answer = bot.decide(message["view"], decision)
                    await asyncio.sleep(self.rng.uniform(0.0, 0.08))  # a pick takes a moment
                    ref += 1
                    self.sent[ref] = (self.seat, pending["id"], answer, time.monotonic())
                    decide = {"type": "decide", "table": self.code, "token": self.token, "round": pending["round"]}
                    decide |= {"kind": pending["kind"], "category": pending["category"], "id": pending["id"]}
                    await link.send(json.dumps(decide | {"answer": answer, "ref": ref}))
        return bot, ref


async def kill_one(cluster: list[Node], tables: int, kill_after: float = 1 / 3):
    """Host `tables` tables of four bot clients, a table's on each node in turn and its seats spread over the nodes;
    SIGKILL the first node once `kill_after` of the game's decisions are acknowledged; play every table to its
    end. Returns the codes, the seats, the acks counted at the kill, and the seconds from the kill to the end."""
    urls = [node.url for node in cluster]
    codes = []
    for t in range(tables):  # each node owns its share of the tables: the node a table was opened on
        where = urls[t % len(urls)]
        hosted = await host_table(where, "australia", 4, 0, "random", seed=100 + t, source=f"127.0.9.{t + 1}")
        codes.append(hosted["table"])
    seats = [
        ClusterSeat(urls, (t + n) % len(urls), code, name, 1000 * t + n, f"127.0.{10 + t}.{n + 1}")
        for t, code in enumerate(codes)
        for n, name in enumerate(NAMES)
    ]
    game = asyncio.gather(*(seat.play() for seat in seats))
    expected = tables * len(NAMES) * 28  # 28 decisions a seat in a game of Australia for four
    while sum(len(seat.acked) for seat in seats) < expected * kill_after and not game.done():
        await asyncio.sleep(0.05)
    killed_at = sum(len(seat.acked) for seat in seats)
    cluster[0].kill()  # mid-pick: its tables' seats wait for acks and states
    killed = time.monotonic()
    await game
    return codes, seats, killed_at, time.monotonic() - killed


def ids_of(decisions) -> list[tuple[int, str]]:
    """(seat, id) of each stored decision, as the server names them (Table.decision_id)."""
    seen: Counter = Counter()
    out = []
    for seat, kind, round_, category in decisions:
        key = (seat, round_, kind, category)
        out.append((seat, f"{round_}.{kind}.{category or ''}.{seen[key]}"))
        seen[key] += 1
    return out


def replayed(stored) -> list[tuple]:
    """(seat, kind, round, category) of each stored decision, from the engine replaying the log to its end."""
    game = Game(edition_from_data(stored.edition), [s[1] for s in stored.seats], stored.seed, deal_version=stored.deal)
    out = []
    for seat, answer, category in stored.decisions:
        decision = next(d for d in game.pending() if d.seat == seat and d.category == category)
        out.append((seat, decision.kind, decision.round, category))
        game.apply(seat, answer, category)
    assert game.over
    return out
