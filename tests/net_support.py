"""Loopback helpers for the network tests: a server in a thread, scripted raw clients, ground truth.

A raw client keeps every frame exactly as received (text), so the tests check what went over the
wire, not what a client library made of it.
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from rulesengine.game.state import Game
from rulesengine.net import BoomServer, Limits, open_store
from rulesengine.net.client import decision_key
from rulesengine.net.editions import edition_from_data
from rulesengine.net.listening import listen
from rulesengine.net.protocol import check_server_message

ROOT = Path(__file__).resolve().parent.parent
TEST_SECONDS = 120


@pytest.fixture(autouse=True)
def bounded():
    """No network test may hang: past TEST_SECONDS it fails (a loopback game takes about a second)."""

    def too_long(signum, frame):
        raise TimeoutError(f"a network test ran past {TEST_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(TEST_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


class ServerThread:
    """A boom server on 127.0.0.1 (a free port) in its own thread and event loop."""

    def __init__(
        self, db: Path, limits: Limits | None = None, port: int = 0, workers: int = 0, wall=None, **listening
    ):
        """workers: the tables in this many worker processes (0: on the server's loop, where tests can look at
        them); wall: the wall clock the tables' move deadlines are read on (with workers=0; a test moves it on);
        listening: listen()'s options (tls, public_url, allowed)."""
        self.db, self.limits, self.port, self.listening = db, limits or Limits(), port, listening
        self.workers, self.wall = workers, wall
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        # a hang guard, not a time asserted: worker processes took 7.5 s to start at load 17
        assert self._ready.wait(TEST_SECONDS), "the server did not start"

    def _run(self):
        self.loop = asyncio.new_event_loop()
        store = open_store(self.db)

        def ready(port):
            self.port = port
            self._ready.set()

        side = None
        if self.workers:
            from rulesengine.net.workers import WorkerPool

            side = WorkerPool(store, self.db, False, self.limits, self.workers)
        elif self.wall is not None:
            from rulesengine.net.side import InProcess

            side = InProcess(store, self.limits, time.monotonic, self.wall)
        self.server = BoomServer(store, self.limits, side=side)
        self.task = self.loop.create_task(listen(self.server, "127.0.0.1", self.port, ready=ready, **self.listening))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        finally:
            store.close()
            self.loop.close()

    @property
    def url(self) -> str:
        return f"{'wss' if self.listening.get('tls') else 'ws'}://127.0.0.1:{self.port}"

    def stop(self):
        self.loop.call_soon_threadsafe(self.task.cancel)
        self._thread.join(10)


def first_option(view, pending):
    return pending["options"][0]


class RawPlayer:
    """A scripted player speaking the protocol by hand; `frames` holds every frame received, as text."""

    def __init__(self, url: str, table: str, name: str, choose=first_option, source: str | None = None):
        """source: the loopback address to connect from (another household, as the server counts them)."""
        self.url, self.table, self.name, self.choose, self.source = url, table, name, choose, source
        self.frames: list[str] = []
        self.token = None
        self.seat = None
        self.final = None
        self.errors: list[dict] = []
        self.decisions = 0
        self.acks: list[float] = []  # seconds from each decide sent to its ack
        self._sent_at: dict[int, float] = {}

    def messages(self, kind=None):
        out = [json.loads(f) for f in self.frames]
        return [m for m in out if kind is None or m["type"] == kind]

    async def play(self, *, stop_after: int | None = None, pause: float = 0.0, misbehave=None):
        """Join (or resume), answer every pending decision; return early after stop_after decisions."""
        where = {"local_addr": (self.source, 0)} if self.source else {}
        async with connect(self.url, max_size=None, **where) as socket:
            if self.token is None:
                hello = {"type": "join", "table": self.table, "name": self.name}
            else:
                hello = {"type": "resume", "table": self.table, "token": self.token}
            await socket.send(json.dumps(hello))
            sent, view = set(), None
            async for raw in socket:
                self.frames.append(raw)
                message = json.loads(raw)
                assert check_server_message(message) == [], (message["type"], check_server_message(message))
                kind = message["type"]
                if kind == "joined":
                    self.seat, self.token = message["seat"], message.get("token", self.token)
                elif kind == "ack" and message.get("ref") in self._sent_at:
                    self.acks.append(time.perf_counter() - self._sent_at.pop(message["ref"]))
                elif kind == "error":
                    self.errors.append(message)
                    if message["code"] == "stopped":  # the table is stopped for good
                        return self
                    if message["code"] == "retry" and self.seat is None:  # its process restarted: ask again
                        await socket.send(json.dumps(hello))
                    elif message["code"] == "retry":  # answer what is pending again
                        sent.clear()
                        await self._answer(socket, view, sent, pause, misbehave)
                elif kind == "game_over":
                    self.final = message
                    return self
                elif kind == "state":
                    view = message["view"]
                    if await self._answer(socket, view, sent, pause, misbehave, stop_after):
                        return self
        return self

    async def _answer(self, socket, view, sent, pause, misbehave, stop_after=None) -> bool:
        """Answer each pending decision not answered yet; True once stop_after decisions were sent."""
        for pending in view["pending"] if view else []:
            key = decision_key(view, pending)
            if key in sent:
                continue
            sent.add(key)
            if misbehave is not None:
                await misbehave(self, socket, view, pending)
            if pause:
                await asyncio.sleep(pause)
            self._sent_at[self.decisions + 1] = time.perf_counter()
            await socket.send(
                json.dumps(
                    {
                        "type": "decide",
                        "table": self.table,
                        "token": self.token,
                        "round": pending["round"],
                        "kind": pending["kind"],
                        "category": pending["category"],
                        "id": pending["id"],
                        "answer": self.choose(view, pending),
                        "ref": self.decisions + 1,
                    }
                )
            )
            self.decisions += 1
            if stop_after is not None and self.decisions >= stop_after:
                return True
        return False


def stored_game(db: Path, code: str) -> Game:
    """The table's game replayed from the database (the ground truth of the tests)."""
    store = open_store(db, owner=False)
    try:
        stored = store.load(code)
    finally:
        store.close()
    game = Game(edition_from_data(stored.edition), [s[1] for s in stored.seats], stored.seed, deal_version=stored.deal)
    for seat, answer, category in stored.decisions:
        game.apply(seat, answer, category)
    return game


def knowledge(game_edition, players, seed, decisions) -> dict:
    """What each seat may know of each round's cards, by (seat, round, phase, hand size): the cards it
    held, its own drafts and Throw, the others' face-up drafts; after the reveal, every drafted card."""
    game = Game(game_edition, players, seed)
    held = [set() for _ in players]
    out = {}
    current = [0]

    def snap():
        if game.round != current[0]:
            current[0] = game.round
            for cards in held:
                cards.clear()
        for seat in range(len(players)):
            held[seat].update(c.letter for c in game.places.hands[seat])
            known = set(held[seat]) | {c.letter for c in game.places.drafts[seat]}
            for other in range(len(players)):
                drafts = game.places.drafts[other] if game.phase == "choice" else game.places.drafts[other][1:]
                known.update(c.letter for c in drafts)
            out[(seat, game.round + 1, game.phase, len(game.places.hands[seat]))] = known

    snap()
    for seat, answer, category in decisions:
        game.apply(seat, answer, category)
        if not game.over:
            snap()
    return out


async def host(url: str, source: str, **fields) -> str:
    message = {"type": "host", "edition": "australia", "players": 3, "bots": 1, "bot_kind": "random"} | fields
    async with connect(url, local_addr=(source, 0)) as socket:
        await socket.send(json.dumps(message))
        answer = json.loads(await socket.recv())
    assert answer["type"] == "hosted", answer
    return answer["table"]


async def probe_page(port: int, stop: asyncio.Event, times: list) -> None:
    """GET / again and again while the tables play: each answer's time (the page must keep answering)."""
    while not stop.is_set():
        started = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        status = (await asyncio.wait_for(reader.readline(), 30)).decode()
        await reader.read()
        writer.close()
        times.append((status.split()[1], time.perf_counter() - started))
        await asyncio.sleep(0.1)


async def play_beside_hostile(server, tables: int, hostile: bool, page: list) -> tuple:
    """`tables` live tables (two client seats and a random bot each) played to their end, beside a hostile table
    (seven search bots and one player at the two-deck house rule, stopped at its first call over the server's
    limit) when `hostile`, while a client asks for the page (its answers added to page): (the hostile table's
    player or None, the live tables' players). Shared by test_net_isolation and bench/net_isolation.py."""
    victim = None
    if hostile:
        code = await host(server.url, "127.0.0.9", edition="australia-two-decks", players=8, bots=7, bot_kind="search")
        victim = RawPlayer(server.url, code, "Mallory", source="127.0.0.9")
    codes = [await host(server.url, f"127.0.1.{n + 1}") for n in range(tables)]
    players = [RawPlayer(server.url, code, name, source=f"127.0.1.{n + 1}")
               for n, code in enumerate(codes) for name in ("Ana", "Ben")]
    stop = asyncio.Event()
    prober = asyncio.create_task(probe_page(server.port, stop, page))
    await asyncio.gather(*([victim.play()] if victim else []), *(p.play() for p in players))
    stop.set()
    await prober
    return victim, players
