"""This server among the others sharing one PostgreSQL database: leases renewed, dead nodes' tables taken over,
a seat routed to the node owning its table, spectators fed from the log.

Each table is owned by one node (store_postgres.py). A client may reach any node (behind one load balancer,
one address for all): a `join`, `resume` or `watch` of a table another live node owns is carried on to that
node over a connection of its own (a proxy hop: this node relays the client's frames both ways, so a browser
page and `boom join` need nothing new), authenticated with the key the nodes share. When the owner's lease has
run out (a node that died), the node the client reached claims the table and replays its log; a node also
claims, every second, tables nobody's lease holds (bot tables, absent players). A spectator of a table owned
elsewhere is served here from the decision log: LISTEN/NOTIFY says (table, length of its log), this node reads
the new decisions and replays them, and a notice missed is made up at the next poll (a second later), so it
costs latency, never correctness. It never plays a game for a seat: the owner does. A followed table is the
only game this front touches, and never on its event loop: its edition is read, its log replayed and its frames
made in a thread, one table at a time (a host's own edition may make that slow); a table whose log no longer
replays here is stopped for its spectators here alone, and the others go on being followed.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time

import websockets
from websockets.asyncio.client import connect

from .protocol import PROTOCOL, ProtocolError, encode, error
from .spectators import NOBODY
from .storage import Store
from .table import Table

log = logging.getLogger("boom.net")
HOP_HEADER = "Boom-Hop"  # "ADDRESS|TIME|PROOF": the client this hop carries, proved with the nodes' shared key
HOP_AGE = 60.0  # seconds a hop's proof is good for
POLL = 1.0  # seconds between catching up on the log without a notice, and between looks for expired leases


def hop_proof(store: Store, address: str | None, now: float | None = None) -> str:
    stamp = f"{address or ''}|{int(now if now is not None else time.time())}"
    return f"{stamp}|{store.key.sign(stamp)}"


def hop_address(store: Store, value: str, now: float | None = None) -> str | None:
    """The client address a hop's header proves ('' when the client's is unknown), or None when the proof is
    wrong or too old (a hop is refused then)."""
    address, _, rest = value.partition("|")
    stamp, _, proof = rest.partition("|")
    if not stamp.isdigit() or abs((now if now is not None else time.time()) - int(stamp)) > HOP_AGE:
        return None
    if not hmac.compare_digest(store.key.sign(f"{address}|{stamp}"), proof):
        return None
    return address


class Cluster:
    """The front's part in a cluster: leases, takeovers, hops and followed tables."""

    def __init__(self, server, store: Store, url: str):
        self.server, self.store, self.url, self.lease = server, store, url, store.lease
        self.followed: dict[str, Table] = {}  # tables owned elsewhere with spectators here: replayed from the log
        self.notices: asyncio.Queue = asyncio.Queue()
        self._adopting: dict[str, asyncio.Lock] = {}  # tables being claimed and replayed, one at a time each
        self._following = asyncio.Lock()  # the followed tables' replays, in a thread: one at a time
        self._tasks: list[asyncio.Task] = []

    async def start(self) -> None:
        await asyncio.to_thread(self.store.serve_as, self.url)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._heartbeat()), loop.create_task(self._take_over())]
        self._tasks += [loop.create_task(self._listen()), loop.create_task(self._follow())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    # -- leases ---------------------------------------------------------------------------------
    async def _heartbeat(self) -> None:
        while True:
            try:
                await asyncio.to_thread(self.store.heartbeat)
            except Exception:  # noqa: BLE001 - the database away for a moment: try again; appends stay fenced
                log.exception("cannot renew this node's lease")
            await asyncio.sleep(self.lease / 3)

    async def _take_over(self) -> None:
        """Forever: claim the tables whose owner's lease ran out, and play them here."""
        while True:
            await asyncio.sleep(POLL)
            try:
                for code in await asyncio.to_thread(self.store.expired):
                    await self.adopt(code)
            except Exception:  # noqa: BLE001
                log.exception("taking tables over failed")

    async def adopt(self, code: str) -> bool:
        """Claim the table if nobody's lease holds it and play it here (its log replayed); True if it is ours. The
        seats of a dead node's table come back together: one of them claims and replays, the others wait for it."""
        lock = self._adopting.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                if self.server.side.holds(code):
                    return True
                if not await asyncio.to_thread(self.store.claim, code):
                    return False
                log.warning("table %s taken over by this node (its owner's lease ran out)", code)
                self.server._deliver(await self.server.side.adopt(code))
                return True
        finally:
            if not lock.locked():
                self._adopting.pop(code, None)

    # -- routing --------------------------------------------------------------------------------
    async def route(self, code: str) -> str | None:
        """Where a seat of this table is played: None for here (claimed if nobody's lease holds it), or the URL
        of the live node that owns it."""
        for _ in range(3):
            if self.server.side.holds(code):
                return None
            owner = await asyncio.to_thread(self.store.owner, code)
            if owner is not None and owner.alive:
                return owner.url
            if await self.adopt(code) or owner is None:  # ours now; or finished or unknown: the side answers
                return None
            # another node claimed it first: look again
        return None

    async def hop(self, link, code: str, message: dict) -> bool:
        """Carry this connection on to the node owning the table, if another one does; True once relayed."""
        for _ in range(4):
            url = await self.route(code)
            if url is None:
                return False
            headers = {HOP_HEADER: hop_proof(self.store, link.address)}
            try:
                socket = await connect(url, additional_headers=headers, max_size=None, open_timeout=5)
            except (OSError, TimeoutError, websockets.WebSocketException):
                # the owner does not answer: it may be dead, and its lease runs out soon (then we claim the table)
                owner = await asyncio.to_thread(self.store.owner, code)
                await asyncio.sleep(min(self.lease, owner.expires_in if owner else 0.0) + 0.05)
                continue
            link.hop = socket
            self.server._background(self._relay(link, socket))
            try:
                await socket.send(encode(message))
            except websockets.ConnectionClosed:
                pass  # the owner went as we came: the relay closes the client's connection, and it reconnects
            return True
        raise ProtocolError("retry", f"the server of table {code} does not answer; try again", message.get("ref"))

    async def _relay(self, link, socket) -> None:
        """Forever: the owner's frames to the client; when the owner goes, the client is told to reconnect."""
        try:
            async for text in socket:
                self.server._send_text(link, text)
        except websockets.ConnectionClosed:
            pass
        link.hop = None
        await link.socket.close(1012, "the table's server went away: reconnect")

    # -- spectators of tables owned elsewhere ----------------------------------------------------
    async def watch(self, link, code: str, ref) -> bool:
        """A spectator of a table another node plays (or no node: finished), followed here from the log; True
        if served so, False when the table is this node's (the side serves it)."""
        if self.server.side.holds(code):
            return False
        async with self._following:
            table = self.followed.get(code)
            if table is None:
                stored = await asyncio.to_thread(self.store.load, code)
                if stored is None or stored.spectators == "off" or not all(s[1] for s in stored.seats):
                    return False  # unknown, closed to spectators, or still in its lobby: the side says so
            try:
                if table is None:
                    table = await asyncio.to_thread(_restored, stored, self.store)
                    self.followed[code] = table
                snapshot = await asyncio.to_thread(table.gallery.snapshot, code, table.game, table.round_starts)
            except Exception as exc:  # noqa: BLE001 - a table that cannot be followed here, not the server
                self.followed.pop(code, None)
                raise ProtocolError("stopped", _unfollowed(code, exc), ref) from None
        watching = {"type": "watching", "protocol": PROTOCOL, "table": code, "delay": table.spectators}
        watching |= {"edition": table.edition_data()} | ({"ref": ref} if ref is not None else {})
        link.watching = code
        self.server.watchers.setdefault(code, set()).add(link)
        self.server._send(link, watching)
        self.server._send(link, snapshot)
        return True

    async def _listen(self) -> None:
        """Forever: the database's notices of appended decisions, for the tables followed here."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.store.url, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {self.store.channel}")
                    async for notice in connection.notifies():
                        code, _, number = notice.payload.partition(" ")
                        if code in self.followed:
                            self.notices.put_nowait((code, int(number)))
            except Exception:  # noqa: BLE001 - a lost notice costs latency only: the poll catches up
                log.warning("the database's notices were interrupted; listening again")
                await asyncio.sleep(POLL)

    async def _follow(self) -> None:
        """Forever: catch the followed tables up on a notice, or every POLL seconds without one."""
        while True:
            try:
                code, number = await asyncio.wait_for(self.notices.get(), POLL)
            except TimeoutError:
                codes = list(self.followed)
            else:
                table = self.followed.get(code)
                codes = [code] if table is not None and len(table.game.decisions) < number else []
            for code in codes:
                await self._catch_up(code)

    async def _catch_up(self, code: str) -> None:
        async with self._following:
            table = self.followed.get(code)
            if table is None:
                return
            if not self.server.watchers.get(code):
                del self.followed[code]  # nobody watches it here any more
                return
            try:
                decisions = await asyncio.to_thread(self.store.decisions_since, code, len(table.game.decisions))
                if not decisions:
                    return
                news = await asyncio.to_thread(_replayed, table, code, decisions)
            except Exception as exc:  # noqa: BLE001 - this table's spectators are told; the others are followed on
                del self.followed[code]
                told = encode(error("stopped", _unfollowed(code, exc)))
                self.server._deliver([(code, NOBODY, told, False)])
                return
            if news is not None:
                self.server._deliver([(code, NOBODY, encode(news), False)])
            if table.over:  # its last frame is sent: nothing more will come
                del self.followed[code]


def _restored(stored, store: Store) -> Table:
    """A followed table read from the store: its edition compiled and its log replayed (in a thread)."""
    from .editions import edition_from_data

    return Table.restore(stored, edition_from_data(stored.edition), store, 0.0)


def _replayed(table: Table, code: str, decisions) -> dict | None:
    """The decisions played on the followed table, and what its spectators have not been sent (in a thread)."""
    table.replay(decisions)
    return table.gallery.news(code, table.game, table.round_starts)


def _unfollowed(code: str, exc: Exception) -> str:
    log.warning("table %s cannot be followed on this server: %s", code, exc)
    return f"table {code} cannot be followed on this server (its log no longer replays here); watch it again later"
