"""The game side of a server: its tables, what each request does to them, and what each seat is told.

It owns every Table of one process and the store they are written to, and answers requests (open a table,
join, resume, decide, a seat left, time passing, one bot decision) with the frames to send, already encoded:
(table, seat, text). It has no socket and no event loop, so the same code runs in the server's own process
(`--workers 0`) or in worker processes that keep the games off the event loop (workers.py). Every request is
checked here against the table (token, turn, legality) before anything is written.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterable

from ..edition.seat_options import problems
from ..errors import BoomError
from ..game.blocks import round_words
from .clocks import Clock
from .editions import data_for_name, edition_from_data, edition_text
from .protocol import PROTOCOL, Limits, ProtocolError, encode, error
from .seats import new_code
from .storage import Store, TableMoved, token_hash
from .table import Table

log = logging.getLogger("boom.net")
# A seed the server draws: wide enough that no one can find it by trying every seed against the hand
# they were dealt (2**31 seeds would take a few core-hours); it still fits SQLite's 64-bit integers.
SEED_BITS = 62

# (table code, seat, text, detach): detach tells the front the seat's link leaves the table (CLOSE: and is closed,
# so that its client reconnects, to the node that plays the table now)
Frame = tuple
CLOSE = "close"


def _frames(code: str, pairs: Iterable[tuple[int, dict]]) -> list[Frame]:
    return [(code, seat, encode(message), False) for seat, message in pairs]


class Tables:
    """Every table this process serves, kept in memory while not finished (the store keeps them all)."""

    def __init__(self, store: Store, limits: Limits, clock=time.monotonic, wall=time.time):
        """clock: for timeouts within this process's life; wall: for the tables' per-move deadlines, which outlive
        it (both injectable: the tests move time on)."""
        self.store, self.limits, self.clock, self.wall = store, limits, clock, wall
        self.tables: dict[str, Table] = {}
        self.connected: set[tuple[str, int]] = set()  # (table, seat) held by a connection now
        self.share: str | None = None  # the page's address friends use (listening.share_urls); links are under it
        self._turn = 0  # where the bots' round-robin over tables stands
        # tables changed since the bots last looked (looking at every table for every request cost 1 ms at 200
        # tables), and those with a bot decision to make
        self.stirred: set[str] = set()
        self.bot_ready: set[str] = set()
        self.later: list[Frame] = []  # frames a request could not return (a table lost on a join): the next tick

    # -- restoring -------------------------------------------------------------------------------
    def restore_all(self) -> None:
        for code in self.store.codes(playing=True):  # finished tables are read again only when asked for
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
        table.restarted(self.wall)
        self.tables[code] = table
        self.stirred.add(code)
        return table

    def adopt(self, code: str) -> list[Frame]:
        """A table this node took over (its owner's lease ran out): replayed from the log, its seats away."""
        if code not in self.tables:
            self._restore(code)
        return []

    def lost(self, code: str) -> list[Frame]:
        """Another node took this table over while this one was away: forget it, and send its seats there."""
        table = self.tables.pop(code, None)
        self.bot_ready.discard(code)
        if table is None:
            return []
        log.warning("table %s is served by another node now", code)
        moved = encode(error("moved", f"table {code} is served by another server now; reconnecting takes you there"))
        return [(code, n, moved, CLOSE) for n in self._present(table)]

    def _moved(self, code: str, ref) -> ProtocolError:
        """A seat's write refused because another node took the table over (TableMoved): the table is forgotten,
        its seats here are sent there at the next tick, and the asker is told where its table went."""
        self.later += self.lost(code)
        return ProtocolError("moved", f"table {code} is served by another server now; ask there again", ref)

    def _table(self, code: str, ref, *, token: str | None = None) -> Table:
        """The table of this code. One not in memory is read back from the store only for a token that opens
        one of its seats (a finished table's replay is work: a code alone never causes it)."""
        table = self.tables.get(code)
        if table is not None:
            return table
        summary = self.store.summary(code)
        if summary is None or summary[1]:
            raise ProtocolError("unknown_table", f"there is no table {code} on this server", ref)
        if token is None or token_hash(token) not in summary[2]:
            if summary[0]:
                raise ProtocolError("game_over", f"the game at table {code} is over", ref)
            raise ProtocolError("bad_token", f"this token opens no seat at table {code}", ref)
        table = self._restore(code)
        if table is None:
            raise ProtocolError("unknown_table", f"table {code} cannot be served (see the server's log)", ref)
        return table

    # -- requests --------------------------------------------------------------------------------
    def open(self, message: dict, address: str | None) -> dict:
        """Open a table; the `hosted` answer. Every limit is checked before an edition is read."""
        ref = message.get("ref")
        if sum(1 for t in self.tables.values() if not t.over) >= self.limits.max_tables:
            raise ProtocolError(
                "server_full", f"this server runs {self.limits.max_tables} tables already; try later", ref
            )
        opened = self.store.opened_by(address)
        if opened >= self.limits.max_tables_per_ip:
            raise ProtocolError(
                "too_many_tables",
                f"{opened} tables opened from your address are not finished; finish one or try later",
                ref,
            )
        players, bots = message["players"], message.get("bots", 0)
        if bots > players:
            raise ProtocolError("bad_players", f"{bots} bots for {players} seats", ref)
        try:
            sent = message["edition"]
            data = data_for_name(sent) if isinstance(sent, str) else sent
            edition = edition_from_data(data)
        except BoomError as exc:
            raise ProtocolError("bad_edition", "; ".join(d.message for d in exc.diagnostics[:3]), ref) from None
        high = min(edition.players_max, self.limits.max_seats)
        if not edition.players_min <= players <= high:
            raise ProtocolError(
                "bad_players",
                f"{edition.name} is for {edition.players_min} to {high} players, with at most that many bots",
                ref,
            )
        seat_options = message.get("seat_options") or {}
        refused = problems(edition, [str(seat) for seat in range(1, players + 1)], seat_options)
        if refused:
            raise ProtocolError("bad_seat_options", "; ".join(refused[:3]), ref)
        code = new_code()
        while code in self.tables or self.store.summary(code) is not None:
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
            spectators=message.get("spectators", "live"),
            clock=Clock(message["clock"], message.get("on_time", "bot")) if message.get("clock") else None,
            seat_options=seat_options,
        )
        table.wall = self.wall
        table.save_new(time.time(), address)
        table.opened, table.host = self.clock(), self.store.keyed(address)
        self.tables[code] = table
        self.stirred.add(code)
        if bots == players:
            table.start()
        hosted = {"type": "hosted", "protocol": PROTOCOL, "table": code, "players": players, "bots": bots}
        if table.clock is not None:
            hosted["clock"] = table.clock.settings()
        return hosted | self._link(code) | ({"ref": ref} if ref is not None else {})

    def _link(self, code: str) -> dict:
        return {"link": f"{self.share}/t/{code}"} if self.share else {}

    def join(self, code: str, name: str, ref, advice: bool = False) -> tuple[int, list[str], list[Frame]]:
        """Seat a new player: its seat, the frames for it (`joined` with the token) and for the table."""
        table = self._table(code, ref)
        try:
            seat, token = table.join(name, advice)
        except TableMoved:
            raise self._moved(code, ref) from None
        self.connected.add((code, seat))
        self.stirred.add(code)
        out = _frames(code, [(n, table.lobby()) for n in self._present(table)])
        if table.game is not None:
            out += _frames(code, [(n, table.state(n, fresh=True)) for n in self._present(table)])
        return seat, [encode(self._joined(table, seat, token, ref))], out

    def resume(self, code: str, token: str, ref, advice: bool = False) -> tuple[int, list[str], list[Frame]]:
        """A player back at its seat with its token: the frames for it, and the others' news."""
        table = self._table(code, ref, token=token)
        seat = table.seat_of(token)
        self.connected.add((code, seat))
        self.stirred.add(code)
        state = table.seats[seat]
        state.connected, state.gone_since, state.stand_in, state.advice = True, None, False, advice
        try:
            table.wind()  # a seat a bot stood in for has its clock again
        except TableMoved:
            raise self._moved(code, ref) from None
        mine = [encode(self._joined(table, seat, None, ref))]
        if table.game is None:
            return seat, mine, _frames(code, [(n, table.lobby()) for n in self._present(table)])
        mine.append(encode(table.state(seat, fresh=True)))
        if table.over:
            return seat, mine + [encode(table.final())], []
        return seat, mine, _frames(code, [(n, table.seat_status(seat)) for n in self._present(table) if n != seat])

    def decide(self, code: str, seat: int, message: dict) -> tuple[str, list[Frame]]:
        """Check, write, then play one answer of a seat this connection holds; the `ack` and the news."""
        ref = message.get("ref")
        table = self._table(code, ref)
        if table.seat_of(message["token"]) != seat:
            raise ProtocolError("not_seated", "join or resume this seat on this connection before deciding", ref)
        decision = table.check(seat, message)
        try:
            number = table.apply(decision, message["answer"])
        except TableMoved:
            moved = error("moved", f"table {code} is served by another server now; answer again there", ref)
            return encode(moved), self.lost(code)
        self.stirred.add(code)
        ack = {"type": "ack", "table": code, "index": number} | ({"ref": ref} if ref is not None else {})
        return encode(ack), _frames(code, table.updates(seat))

    def watch(self, code: str, ref) -> tuple[list[str], list[Frame]]:
        """A spectator of this table: `watching` (the edition, the delay) and the table as it may see it."""
        table = self._table(code, ref)
        if table.spectators == "off":
            raise ProtocolError("no_spectators", f"the host of table {code} allows no spectators", ref)
        watching = {"type": "watching", "protocol": PROTOCOL, "table": code, "delay": table.spectators}
        watching |= {"edition": table.edition_data()} | self._link(code) | ({"ref": ref} if ref is not None else {})
        mine = [encode(watching)]
        if table.gallery is not None:
            mine.append(encode(table.gallery.snapshot(code, table.game, table.round_starts)))
        return mine, []

    def left(self, code: str, seat: int) -> list[Frame]:
        """The connection holding this seat is gone: the others are told (unless the game is over)."""
        self.connected.discard((code, seat))
        table = self.tables.get(code)
        if table is None:
            return []
        state = table.seats[seat]
        state.connected, state.gone_since = False, self.clock()
        if table.over:
            return []
        return _frames(code, [(n, table.seat_status(seat)) for n in self._present(table) if n != seat])

    def attach(self, code: str, seat: int) -> list[Frame]:
        """A seat still held by a connection after this process was restarted: connected again, and told
        where its game stands."""
        table = self.tables.get(code)
        if table is None:
            return []
        self.connected.add((code, seat))
        self.stirred.add(code)
        state = table.seats[seat]
        state.connected, state.gone_since, state.stand_in = True, None, False
        try:
            table.wind()
        except TableMoved:
            return self.lost(code)
        state.cursor = len(table.game.events) if table.game is not None else 0  # it has them already
        return _frames(code, [(seat, table.state(seat) if table.game is not None else table.lobby())])

    def _present(self, table: Table) -> list[int]:
        return [n for n, s in enumerate(table.seats) if s.kind == "player" and s.connected]

    def _joined(self, table: Table, seat: int, token: str | None, ref) -> dict:
        joined = {
            "type": "joined",
            "protocol": PROTOCOL,
            "table": table.code,
            "seat": seat,
            "name": table.seats[seat].name,
            "edition": table.edition_data(),
            "round": round_words(table.edition),  # its blocks and the words of their decisions: what the page draws
        } | self._link(table.code)
        if token is not None:
            joined["token"] = token
        if ref is not None:
            joined["ref"] = ref
        return joined

    # -- time passing ---------------------------------------------------------------------------
    def tick(self) -> list[Frame]:
        """Seats gone past the away timeout go to bots (at a table without a clock; with one, seats whose time
        ran out do); lobbies past theirs close; finished tables leave memory."""
        now, wall, out = self.clock(), self.wall(), self.later
        self.later = []
        for table in list(self.tables.values()):
            try:
                out += self._tick_table(table, now, wall)
            except TableMoved:  # another node took it over: its clock and its lobby are that node's now
                out += self.lost(table.code)
        for table in [t for t in self.tables.values() if t.over and not any(s.connected for s in t.seats)]:
            del self.tables[table.code]
        if self.limits.keep_bot_games:
            self.store.prune_bot_games(self.limits.keep_bot_games)
        return out

    def _tick_table(self, table: Table, now: float, wall: float) -> list[Frame]:
        out = []
        waits = self.limits.lobby_timeout if table.clock is None else max(self.limits.lobby_timeout, table.clock.move)
        if table.game is None and now - table.opened >= waits:
            out += self._close_lobby(table)
        elif table.clock is not None and not table.over:
            for number in table.clock.late(wall):
                table.ran_out(number)
                self.stirred.add(table.code)
                out += _frames(table.code, [(n, table.seat_status(number)) for n in self._present(table)])
        elif table.game is not None and not table.over:
            for number, seat in enumerate(table.seats):
                gone = seat.gone_since is not None and now - seat.gone_since >= self.limits.away_timeout
                if seat.kind == "player" and not seat.connected and not seat.stand_in and gone:
                    seat.stand_in = True
                    self.stirred.add(table.code)
                    out += _frames(table.code, [(n, table.seat_status(number)) for n in self._present(table)])
        return out

    def _close_lobby(self, table: Table) -> list[Frame]:
        self.store.close_lobby(table.code)
        del self.tables[table.code]
        minutes = self.limits.lobby_timeout / 60
        closed = error(
            "unknown_table", f"table {table.code} is closed: its seats were not all taken in {minutes:g} minutes"
        )
        return [(table.code, n, encode(closed), True) for n in self._present(table)]

    def stop(self, code: str, reason: str) -> list[Frame]:
        """Stop one table for good (it went over a limit, or its bots failed): its seats are told, and the
        store never serves it again; every other table goes on."""
        if code not in self.tables:
            return []
        try:
            self.store.close_lobby(code)
        except TableMoved:  # another node plays it now: its limits are that node's to judge
            return self.lost(code)
        table = self.tables.pop(code)
        self.bot_ready.discard(code)
        told = error("stopped", f"table {code} is stopped: {reason}. The other tables go on.")
        return [(code, n, encode(told), True) for n in self._present(table)]

    # -- bots ------------------------------------------------------------------------------------
    def bot_question(self, eligible=lambda code: True):
        """The next bot decision to make, taking the tables in turn (among those `eligible` says may think
        now): (table, decision, bot, view), or None."""
        for code in self.stirred:
            table = self.tables.get(code)
            if table is not None and table.bot_decisions():
                self.bot_ready.add(code)
            else:
                self.bot_ready.discard(code)
        self.stirred.clear()
        codes = sorted(c for c in self.bot_ready if c in self.tables and eligible(c))
        if not codes:
            return None
        self._turn = (self._turn + 1) % len(codes)
        table = self.tables[codes[self._turn]]
        decision = table.bot_decisions()[0]
        return table.code, decision, table.bot_for(decision.seat), table.game.view(decision.seat)

    def bot_answer(self, code: str, decision, answer) -> list[Frame]:
        """Play a bot's answer, unless its player came back and answered meanwhile; the news."""
        table = self.tables.get(code)
        if table is None or decision not in table.bot_decisions():
            return []
        try:
            table.apply(decision, answer)
        except TableMoved:
            return self.lost(code)
        self.stirred.add(code)
        return _frames(code, table.updates(None))
