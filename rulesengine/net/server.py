"""The authoritative server: many tables at once over WebSockets, one SQLite file as its memory.

Clients only ask; the server checks every message (size, rate, JSON, schema, token, turn, legality)
and answers a refused one with an `error` to its sender alone, so one bad client never disturbs a
table. A connection hears about a table only after it proved a seat (join or resume with the token).
It never blocks on a client, and never sends what rulesengine.net.secrecy does not allow.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

import websockets
from websockets.asyncio.server import ServerConnection, serve

from ..errors import BoomError
from .editions import data_for_name, edition_from_data, edition_text
from .links import Link
from .protocol import DEFAULT_LIMITS, PROTOCOL, Limits, ProtocolError, encode, error, parse_client_message
from .storage import Store
from .table import Table, new_code
from .web import process_request

log = logging.getLogger("boom.net")
# A seed the server draws: wide enough that no one can find it by trying every seed against the hand
# they were dealt (2**31 seeds would take a few core-hours); it still fits SQLite's 64-bit integers.
SEED_BITS = 62


class BoomServer:
    def __init__(self, store: Store, limits: Limits = DEFAULT_LIMITS, clock=time.monotonic):
        self.store = store
        self.limits = limits
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.links: dict[tuple[str, int], Link] = {}
        self._driving: set[str] = set()
        self._open = 0  # connections now
        self._tasks: set[asyncio.Task] = set()
        for code in store.codes(playing=True):  # finished tables are read again only when asked for
            self._restore(code)

    def _restore(self, code: str) -> Table | None:
        stored = self.store.load(code)
        if stored is None or self.store.closed(code):
            return None
        try:
            table = Table.restore(stored, edition_from_data(stored.edition), self.store, self.clock())
        except BoomError as exc:  # e.g. the engine changed under an old table: keep serving the others
            log.warning("table %s cannot be resumed: %s", code, exc)
            return None
        table.opened = self.clock()  # a lobby gets its whole timeout again after a restart
        self.tables[code] = table
        return table

    # -- connections -----------------------------------------------------------------------
    async def handle(self, socket: ServerConnection) -> None:
        if self._open >= self.limits.max_connections:
            await socket.close(1013, "the server has too many connections; try again later")
            return
        self._open += 1
        link = Link(socket, float(self.limits.burst), self.clock())
        writer = asyncio.get_running_loop().create_task(link.write())
        try:
            async for raw in socket:
                await self.receive(link, raw)
        except websockets.ConnectionClosed:
            pass
        finally:
            self._open -= 1
            writer.cancel()
            await self._dropped(link)

    async def receive(self, link: Link, raw) -> None:
        if not link.within_rate(self.limits, self.clock()):
            link.refused += 1
            if link.refused > self.limits.max_refused:
                await link.socket.close(1008, "too many refused messages")
            elif self.clock() - link.told_too_fast >= 1.0:  # one warning a second, not one per message
                link.told_too_fast = self.clock()
                await self._send(
                    link,
                    error(
                        "too_fast", f"at most {self.limits.rate:g} messages a second (bursts of {self.limits.burst})"
                    ),
                )
            return
        message: dict = {}
        try:
            message = parse_client_message(raw, self.limits)
            await getattr(self, f"on_{message['type']}")(link, message)
            link.refused = 0
        except ProtocolError as exc:
            link.refused += 1 if exc.code == "too_large" else 0
            await self._send(link, error(exc.code, exc.message, exc.ref if exc.ref is not None else message.get("ref")))
        except Exception:  # noqa: BLE001 - a bug must not take the other tables down
            log.exception("internal error on a %s message", type(raw).__name__)
            await self._send(
                link, error("internal", "the server failed on this message (a bug, logged); try again or report it")
            )

    async def _dropped(self, link: Link) -> None:
        key = (link.table, link.seat)
        if link.table is None or self.links.get(key) is not link:
            return
        del self.links[key]
        table = self.tables[link.table]
        seat = table.seats[link.seat]
        seat.connected, seat.gone_since = False, self.clock()
        if not table.over:
            await self._tell_others(table, link.seat, table.seat_status(link.seat))

    # -- messages ------------------------------------------------------------------------------
    async def on_host(self, link: Link, message: dict) -> None:
        ref = message.get("ref")
        if sum(1 for t in self.tables.values() if not t.over) >= self.limits.max_tables:
            raise ProtocolError(
                "server_full", f"this server runs {self.limits.max_tables} tables already; try later", ref
            )
        address = _address_of(link)
        opened = sum(1 for t in self.tables.values() if not t.over and address and t.host_address == address)
        if opened >= self.limits.max_tables_per_ip:
            raise ProtocolError(
                "too_many_tables",
                f"{opened} tables opened from your address are not finished; finish one or try later",
                ref,
            )
        players, bots = message["players"], message.get("bots", 0)
        try:  # reading an edition takes a while the first time: in a thread, so the tables in play go on
            data = await asyncio.to_thread(_edition_data_of, message["edition"])
            edition = await asyncio.to_thread(edition_from_data, data)
        except BoomError as exc:
            raise ProtocolError("bad_edition", "; ".join(d.message for d in exc.diagnostics[:3]), ref) from None
        if not edition.players_min <= players <= min(edition.players_max, self.limits.max_seats) or bots > players:
            high = min(edition.players_max, self.limits.max_seats)
            raise ProtocolError(
                "bad_players",
                f"{edition.name} is for {edition.players_min} to {high} players, with at most that many bots",
                ref,
            )
        code = new_code()
        while code in self.tables:
            code = new_code()
        seed = message.get("seed")
        table = Table(
            code,
            edition,
            edition_text(data),
            players,
            bots,
            message.get("bot_kind", "greedy"),
            secrets.randbits(SEED_BITS) if seed is None else seed,
            self.store,
        )
        table.save_new(time.time())
        table.opened, table.host_address = self.clock(), address
        self.tables[code] = table
        if bots == players:
            table.start()
            self._drive(table)
        await self._send(
            link,
            {
                "type": "hosted",
                "protocol": PROTOCOL,
                "table": code,
                "players": players,
                "bots": bots,
                **({"ref": ref} if ref is not None else {}),
            },
        )

    async def on_join(self, link: Link, message: dict) -> None:
        table = self._table(message)
        if link.table is not None:
            raise ProtocolError(
                "seat_taken",
                f"this connection already holds seat {link.seat} at table {link.table}",
                message.get("ref"),
            )
        seat, token = table.join(message["name"])
        await self._attach(link, table, seat, token, message.get("ref"))
        await self._tell_all(table, table.lobby())
        if table.game is not None:
            for number, other in enumerate(table.seats):
                if other.kind == "player" and other.connected:
                    await self._send_to(table, number, table.state(number, fresh=True))
            self._drive(table)

    async def on_resume(self, link: Link, message: dict) -> None:
        table = self._table(message)
        seat = table.seat_of(message["token"])
        if link.table is not None and (link.table, link.seat) != (table.code, seat):
            raise ProtocolError(
                "seat_taken",
                f"this connection already holds seat {link.seat} at table {link.table}",
                message.get("ref"),
            )
        old = self.links.get((table.code, seat))
        if old is not None and old is not link:  # the token proves the seat: the newer connection wins
            old.table = None
            self._background(old.socket.close(4001, "this seat was resumed from another connection"))
        await self._attach(link, table, seat, None, message.get("ref"))
        if table.game is None:
            await self._tell_all(table, table.lobby())
            return
        await self._send(link, table.state(seat, fresh=True))
        if table.over:
            await self._send(link, table.final())
        else:
            await self._tell_others(table, seat, table.seat_status(seat))

    async def on_decide(self, link: Link, message: dict) -> None:
        ref = message.get("ref")
        table = self._table(message)
        seat = table.seat_of(message["token"])
        if (link.table, link.seat) != (table.code, seat):
            raise ProtocolError("not_seated", "join or resume this seat on this connection before deciding", ref)
        decision = table.check(seat, message)
        number = table.apply(decision, message["answer"])
        await self._send(
            link, {"type": "ack", "table": table.code, "index": number, **({"ref": ref} if ref is not None else {})}
        )
        await self._deliver(table, table.updates(seat))
        self._drive(table)

    # -- helpers ---------------------------------------------------------------------------------
    def _table(self, message: dict) -> Table:
        table = self.tables.get(message["table"]) or self._restore(message["table"])
        if table is None:
            raise ProtocolError(
                "unknown_table", f"there is no table {message['table']} on this server", message.get("ref")
            )
        return table

    async def _attach(self, link: Link, table: Table, seat: int, token: str | None, ref) -> None:
        link.table, link.seat = table.code, seat
        self.links[(table.code, seat)] = link
        state = table.seats[seat]
        state.connected, state.gone_since, state.stand_in = True, None, False
        joined = {
            "type": "joined",
            "protocol": PROTOCOL,
            "table": table.code,
            "seat": seat,
            "name": state.name,
            "token": token,
            "edition": table.edition_data(),
        }
        if token is None:
            joined.pop("token")
        if ref is not None:
            joined["ref"] = ref
        await self._send(link, joined)

    async def _send(self, link: Link, message: dict) -> None:
        try:
            link.outbox.put_nowait(encode(message))
        except asyncio.QueueFull:
            self._background(link.socket.close(1008, "too slow: messages piled up unread"))

    async def _send_to(self, table: Table, seat: int, message: dict) -> None:
        link = self.links.get((table.code, seat))
        if link is not None:
            await self._send(link, message)

    async def _deliver(self, table: Table, pairs) -> None:
        for seat, message in pairs:
            await self._send_to(table, seat, message)

    async def _tell_all(self, table: Table, message: dict) -> None:
        for seat in range(len(table.seats)):
            await self._send_to(table, seat, message)

    async def _tell_others(self, table: Table, seat: int, message: dict) -> None:
        for other in range(len(table.seats)):
            if other != seat:
                await self._send_to(table, other, message)

    # -- bots and absent players -------------------------------------------------------------
    def _drive(self, table: Table) -> None:
        """Let the bots of this table answer what they are asked, in the background, one task per table."""
        if table.code in self._driving or not table.bot_decisions():
            return
        self._driving.add(table.code)
        self._background(self._run_bots(table))

    def _background(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_bots(self, table: Table) -> None:
        try:
            while decisions := table.bot_decisions():
                decision = decisions[0]
                bot, view = table.bot_for(decision.seat), table.game.view(decision.seat)
                if table.bot_kind == "random":
                    answer = bot.decide(view, decision)
                else:  # a bot that thinks does so in a thread, so the other tables are not kept waiting
                    answer = await asyncio.to_thread(bot.decide, view, decision)
                    if decision not in table.bot_decisions():  # its player came back and answered meanwhile
                        continue
                number = table.apply(decision, answer)
                log.debug("table %s: bot decision %d", table.code, number)
                await self._deliver(table, table.updates(None))
                await asyncio.sleep(0)  # the other tables and connections go on
        except Exception:  # noqa: BLE001 - a failing bot stops its table, not the server
            log.exception("table %s: the bots stopped", table.code)
        finally:
            self._driving.discard(table.code)

    async def watch_absent(self) -> None:
        """Forever: a player gone longer than the timeout is played by a bot, and the others are told."""
        every = min(1.0, self.limits.away_timeout / 3, self.limits.lobby_timeout / 3)
        while True:
            await asyncio.sleep(every)
            for table, seat in self.stand_in_for_absent():
                await self._tell_others(table, seat, table.seat_status(seat))
                self._drive(table)
            await self.close_stale_lobbies()
            self.forget_finished()

    def forget_finished(self) -> None:
        """Drop finished tables nobody is connected to from memory (the database keeps them)."""
        for table in [t for t in self.tables.values() if t.over and not any(s.connected for s in t.seats)]:
            del self.tables[table.code]

    async def close_stale_lobbies(self) -> None:
        """Close the tables still waiting for players after the lobby timeout, so they stop counting."""
        now = self.clock()
        for table in [
            t for t in self.tables.values() if t.game is None and now - t.opened >= self.limits.lobby_timeout
        ]:
            self.store.close_lobby(table.code)
            del self.tables[table.code]
            minutes = self.limits.lobby_timeout / 60
            closed = error(
                "unknown_table", f"table {table.code} is closed: its seats were not all taken in {minutes:g} minutes"
            )
            for seat in range(len(table.seats)):
                link = self.links.pop((table.code, seat), None)
                if link is not None:
                    link.table = None
                    await self._send(link, closed)

    def stand_in_for_absent(self) -> list[tuple[Table, int]]:
        """Hand the seats of players gone longer than the timeout to bots; return those seats."""
        now, changed = self.clock(), []
        for table in self.tables.values():
            if table.game is None or table.over:
                continue
            for number, seat in enumerate(table.seats):
                if (
                    seat.kind == "player"
                    and not seat.connected
                    and not seat.stand_in
                    and seat.gone_since is not None
                    and now - seat.gone_since >= self.limits.away_timeout
                ):
                    seat.stand_in = True
                    changed.append((table, number))
        return changed

    def resume_all(self) -> None:
        """After a restart: the bots go on with every unfinished table."""
        for table in self.tables.values():
            self._drive(table)


def _address_of(link: Link) -> str | None:
    """The client's IP address (None when the socket does not say: such hosts are not counted)."""
    remote = getattr(link.socket, "remote_address", None)
    return str(remote[0]) if remote else None


def _edition_data_of(edition) -> dict:
    """A host's edition: a name the server knows, or the data the host sent."""
    return data_for_name(edition) if isinstance(edition, str) else edition


async def serve_forever(store: Store, host: str, port: int, limits: Limits = DEFAULT_LIMITS, ready=None) -> None:
    """Run a server until cancelled; `ready(port)` is called once it listens."""
    await listen(BoomServer(store, limits), host, port, ready)


async def listen(server: BoomServer, host: str, port: int, ready=None) -> None:
    """Serve this server's tables on host:port until cancelled; `ready(port)` once it listens."""
    limits = server.limits
    async with serve(
        server.handle, host, port, max_size=limits.hard_frame, max_queue=64, process_request=process_request
    ) as listener:
        server.resume_all()
        watcher = asyncio.get_running_loop().create_task(server.watch_absent())
        if ready is not None:
            ready(listener.sockets[0].getsockname()[1])
        try:
            await asyncio.Future()
        finally:
            watcher.cancel()
