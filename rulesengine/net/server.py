"""The authoritative server's front: every connection, its budget, and which seat it holds.

Clients only ask; the front checks every frame (size, rate, JSON, schema) and the address's share of the
server (guard.py), then hands the request to the game side, which checks it against the table (token, turn,
legality) and says what to send to whom. A refused message is answered with an `error` to its sender alone,
so one bad client never disturbs a table. A connection hears about a table only after it proved a seat.
The games are played elsewhere (tables.py, in this process or in worker processes: workers.py), so the
front never waits on a game, and it never sends what rulesengine.net.secrecy does not allow.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque

import websockets
from websockets.asyncio.server import ServerConnection

from .guard import Guard, address_key
from .links import Link
from .protocol import DEFAULT_LIMITS, Limits, ProtocolError, encode, error, parse_client_message
from .side import InProcess
from .spectators import NOBODY
from .storage import Store
from .tables import CLOSE

log = logging.getLogger("boom.net")


class BoomServer:
    def __init__(self, store: Store, limits: Limits = DEFAULT_LIMITS, clock=time.monotonic, side=None):
        self.store = store
        self.limits = limits
        self.clock = clock
        self.guard = Guard(limits)
        self.links: dict[tuple[str, int], Link] = {}
        self.watchers: dict[str, set[Link]] = {}  # a table's spectators
        self._tasks: set[asyncio.Task] = set()
        self.lag: deque[float] = deque(maxlen=10_000)  # how late the loop woke from 0.1 s sleeps (seconds)
        self.side = side if side is not None else InProcess(store, limits, clock)
        self.side.deliver = self._deliver
        self.side.held = lambda code: [seat for (table, seat) in list(self.links) if table == code]
        self.cluster = None  # this node among others sharing the store (cluster.py), when the store is PostgreSQL

    @property
    def tables(self) -> dict:
        """The tables in memory, when they are played in this process (`--workers 0`: the tests look at them)."""
        return self.side.core.tables

    # -- connections -----------------------------------------------------------------------------
    async def handle(self, socket: ServerConnection) -> None:
        address = getattr(socket, "address", None)
        link = Link(socket, float(self.limits.burst), self.clock(), address=address)
        writer = asyncio.get_running_loop().create_task(link.write())
        try:
            while True:
                # a seat, a spectator, or a hop to the node playing its table (which keeps its own time) waits on
                wait = None if link.table is not None or link.watching or link.hop else self.limits.idle_timeout
                try:
                    raw = await asyncio.wait_for(socket.recv(), wait)
                except TimeoutError:
                    await socket.close(1008, "idle: join or host a table, or come back later")
                    break
                await self.receive(link, raw)
        except websockets.ConnectionClosed:
            pass
        finally:
            writer.cancel()
            await self._dropped(link)

    async def receive(self, link: Link, raw) -> None:
        now = self.clock()
        if link.hop is not None and link.within_rate(self.limits, now) and self.guard.spend(link.address, now):
            await link.hop.send(raw)  # relayed to the node playing the table: it checks the message
            return
        if not (link.within_rate(self.limits, now) and self.guard.spend(link.address, now)):
            await self._refused(link)
            if now - link.told_too_fast >= 1.0:  # one warning a second, not one per message
                link.told_too_fast = now
                limits = self.limits
                self._send(
                    link,
                    error("too_fast", f"at most {limits.rate:g} messages a second (bursts of {limits.burst})"),
                )
            return
        message: dict = {}
        try:
            message = parse_client_message(raw, self.limits)
            await getattr(self, f"on_{message['type']}")(link, message)
        except ProtocolError as exc:
            if exc.code == "unknown_table" and not self.guard.look_up(link.address, now):
                exc = ProtocolError("too_many_lookups", "too many look-ups of tables that do not exist; wait a while")
            self._send(link, error(exc.code, exc.message, exc.ref if exc.ref is not None else message.get("ref")))
            await self._refused(link)
        except Exception:  # noqa: BLE001 - a bug must not take the other tables down
            log.exception("internal error on a %s message", type(raw).__name__)
            self._send(
                link, error("internal", "the server failed on this message (a bug, logged); try again or report it")
            )

    async def _refused(self, link: Link) -> None:
        """Count a refusal against the address; past its share, this connection is closed."""
        if self.guard.refuse(link.address, self.clock()):
            self._background(link.socket.close(1008, "too many refused messages"))

    async def _dropped(self, link: Link) -> None:
        if link.hop is not None:
            self._background(link.hop.close())
        if link.watching:
            self.watchers.get(link.watching, set()).discard(link)
            if not self.watchers.get(link.watching):
                self.watchers.pop(link.watching, None)
        key = (link.table, link.seat)
        if link.table is None or self.links.get(key) is not link:
            return
        del self.links[key]
        self._deliver(await self.side.left(link.table, link.seat))

    # -- messages --------------------------------------------------------------------------------
    async def on_host(self, link: Link, message: dict) -> None:
        if not self.guard.may_host(link.address, self.clock()):
            raise ProtocolError("too_many_hosts", "too many tables asked for from your address; wait a while")
        self._send_text(link, await self.side.open(message, link.address))

    async def _hopped(self, link: Link, message: dict) -> bool:
        """In a cluster, a seat or a spectator of a table another node plays is carried on to it (cluster.py)."""
        if self.cluster is None:
            return False
        if message["type"] == "watch" and await self.cluster.watch(link, message["table"], message.get("ref")):
            return True
        return message["type"] != "watch" and await self.cluster.hop(link, message["table"], message)

    async def on_join(self, link: Link, message: dict) -> None:
        self._one_seat(link, message)
        if await self._hopped(link, message):
            return
        advice = message.get("advice", False)
        seat, mine, frames = await self.side.join(message["table"], message["name"], message.get("ref"), advice)
        self._attach(link, message["table"], seat)
        for text in mine:
            self._send_text(link, text)
        self._deliver(frames)

    async def on_resume(self, link: Link, message: dict) -> None:
        code = message["table"]
        if link.table is None and await self._hopped(link, message):
            return
        advice = message.get("advice", False)
        seat, mine, frames = await self.side.resume(code, message["token"], message.get("ref"), advice)
        if link.table is not None and (link.table, link.seat) != (code, seat):
            raise ProtocolError(
                "seat_taken",
                f"this connection already holds seat {link.seat} at table {link.table}",
                message.get("ref"),
            )
        old = self.links.get((code, seat))
        if old is not None and old is not link:  # the token proves the seat: the newer connection wins
            old.table = None
            self._background(old.socket.close(4001, "this seat was resumed from another connection"))
        self._attach(link, code, seat)
        for text in mine:
            self._send_text(link, text)
        self._deliver(frames)

    async def on_watch(self, link: Link, message: dict) -> None:
        code, ref = message["table"], message.get("ref")
        if link.table is not None or link.watching:
            raise ProtocolError("seat_taken", "this connection already holds a seat or watches a table", ref)
        if len(self.watchers.get(code, ())) >= self.limits.max_spectators:
            raise ProtocolError("table_full", f"table {code} has {self.limits.max_spectators} spectators already", ref)
        if await self._hopped(link, message):
            return
        mine, frames = await self.side.watch(code, ref)
        link.watching = code
        self.watchers.setdefault(code, set()).add(link)
        for text in mine:
            self._send_text(link, text)
        self._deliver(frames)

    async def on_decide(self, link: Link, message: dict) -> None:
        if link.table != message["table"]:
            raise ProtocolError(
                "not_seated", "join or resume this seat on this connection before deciding", message.get("ref")
            )
        ack, frames = await self.side.decide(link.table, link.seat, message)
        self._send_text(link, ack)
        self._deliver(frames)

    # -- helpers ---------------------------------------------------------------------------------
    def _one_seat(self, link: Link, message: dict) -> None:
        if link.table is not None:
            raise ProtocolError(
                "seat_taken",
                f"this connection already holds seat {link.seat} at table {link.table}",
                message.get("ref"),
            )

    def _attach(self, link: Link, code: str, seat: int) -> None:
        link.table, link.seat = code, seat
        self.links[(code, seat)] = link

    def _send(self, link: Link, message: dict) -> None:
        self._send_text(link, encode(message))

    def _send_text(self, link: Link, text: str) -> None:
        try:
            link.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self._background(link.socket.close(1008, "too slow: messages piled up unread"))

    def _deliver(self, frames) -> None:
        """Send the game side's frames to the connections holding their seats (a seat nobody holds misses
        nothing: a connection coming back gets a fresh state)."""
        for code, seat, text, detach in frames:
            if seat == NOBODY:  # the table's spectators
                for watcher in list(self.watchers.get(code, ())):
                    self._send_text(watcher, text)
                continue
            link = self.links.get((code, seat))
            if link is None:
                continue
            self._send_text(link, text)
            if detach:
                del self.links[(code, seat)]
                link.table = None
            if detach == CLOSE:  # its client reconnects, and is carried to the node playing the table now
                self._background(self._close_after(link, 1012, "the table moved to another server: reconnect"))

    async def _close_after(self, link: Link, code: int, reason: str) -> None:
        """Close once what is queued for it is sent (the error saying why goes first)."""
        while not link.outbox.empty():
            await asyncio.sleep(0.01)
        await link.socket.close(code, reason)

    def _background(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def sample_lag(self, every: float = 0.1) -> None:
        """Forever: how late the event loop wakes up (a game on the loop, or too much work, makes it late)."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(every)
            self.lag.append(time.perf_counter() - asked - every)

    async def watch(self) -> None:
        """Forever: time passes for the tables (absent players, lobbies), and idle budgets are forgotten."""
        every = min(1.0, self.limits.away_timeout / 3, self.limits.lobby_timeout / 3)
        while True:
            await asyncio.sleep(every)
            self._deliver(await self.side.tick())
            self.guard.sweep(self.clock())

    async def start(self, share: str | None = None) -> None:
        """The game side starts playing (its bots go on with every unfinished table); `share` is the page's
        address for friends, under which each table's link is given."""
        await self.side.start(share)
        if self.cluster is not None:
            await self.cluster.start()

    async def close(self) -> None:
        if self.cluster is not None:
            await self.cluster.close()
        await self.side.close()


def connection_class(server: BoomServer) -> type[ServerConnection]:
    """websockets' connection, counted against its address as soon as it is accepted: one past the caps is
    dropped before a byte of it is read (an idle socket costs nothing but its file descriptor, briefly)."""

    class Guarded(ServerConnection):
        address: str | None = None
        admitted = False

        def connection_made(self, transport) -> None:
            self.address = address_key(transport.get_extra_info("peername"))
            self.admitted = server.guard.admit(self.address, server.clock()) is None
            if not self.admitted:  # no handshake, no task: the cheapest refusal there is after accept()
                self.transport = transport
                transport.abort()
                return
            super().connection_made(transport)

        def connection_lost(self, exc) -> None:
            if not self.admitted:
                return
            self.admitted = False
            server.guard.release(self.address, server.clock())
            super().connection_lost(exc)

        def data_received(self, data) -> None:
            if self.admitted:
                super().data_received(data)

        def eof_received(self):
            return super().eof_received() if self.admitted else None

    return Guarded
