"""The server's memory, as one interface: every table, seat and accepted decision, in SQLite or PostgreSQL.

A decision is committed to the store before the server acknowledges it, so a server killed at any moment,
and started again on the same store (or another node of the same PostgreSQL database), rebuilds every
table by replaying its seed and decisions (the engine and the bots are deterministic): the decision log is
the source of truth. Two stores stand behind this interface: one SQLite file for one machine
(store_sqlite.py), a PostgreSQL database shared by several servers (store_postgres.py), where each table
is owned by one node under a lease (a node that finds an expired lease takes the table over). Seat tokens
are kept only as hashes, a running game's seed only sealed, the address that opened a table only keyed.
It never sends anything: what a client may see is decided elsewhere.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass

from ..errors import BoomError

POSTGRES = ("postgresql://", "postgres://")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StoredTable:
    """One table as written: enough to rebuild it exactly."""

    code: str
    edition: dict
    players: int
    bots: int
    bot_kind: str
    seed: int
    finished: bool
    deal: int  # the engine's deal version the game was started with
    seats: tuple  # (seat, name, kind, token_hash) in seat order
    decisions: tuple  # [seat, answer, category] in the order accepted
    host: str | None = None  # the address that opened it, keyed (dbfile.SeedKey.address)
    spectators: str = "live"  # what spectators are shown: live, round (a round behind) or off
    clock: str | None = None  # the per-move clock with its deadlines, as clocks.Clock.to_text wrote it
    seat_options: dict | None = None  # the seat options the host set: seat number (text, from 1) -> option -> number


def seat_options_read(text) -> dict | None:
    """A table's seat options as stored (JSON, or NULL for none): seat number -> option -> number, or None when the
    column holds anything else (the edition checks the rest when the game is made)."""
    if text is None:
        return {}
    try:
        found = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return None
    def numbers(values) -> bool:
        return isinstance(values, dict) and all(isinstance(key, str) and type(value) is int and -1000 <= value <= 1000
                                                for key, value in values.items())

    if isinstance(found, dict) and all(isinstance(seat, str) and seat.isdigit() and len(seat) <= 2 and numbers(values)
                                       for seat, values in found.items()):
        return found
    return None


@dataclass(frozen=True)
class Owner:
    """The node that owns a table now, as another node sees it: where to reach it, and whether its lease holds."""

    node: str
    url: str
    alive: bool
    expires_in: float  # seconds until its lease runs out (0 when it has)


class TableMoved(BoomError):
    """This node no longer owns the table (another node took it over): nothing was written."""


class Store(ABC):
    """Where tables are kept; every write is committed before the call returns.

    One node alone (SQLite) owns every table it opens; in a cluster (PostgreSQL) a table belongs to the node
    named in its row while that node's lease holds, and every write to a table (a decision, a seat, the clock, its
    end, its closing) refuses (TableMoved) once another node has claimed it."""

    node: str | None = None  # this server's name in a cluster; None for a store one server owns alone

    def add_table(
        self,
        code: str,
        edition_text: str,
        players: int,
        bots: int,
        bot_kind: str,
        seed: int,
        created: float,
        deal: int,
        host: str | None = None,
        spectators: str = "live",
        clock: str | None = None,
        seat_options: str | None = None,
    ) -> None:
        """A new table, owned by this node (seat_options: StoredTable's, as JSON). The row is made here, the seed
        sealed and the host keyed, so that the two stores differ only in how they write it."""
        self._insert_table({
            "code": code, "edition": edition_text, "players": players, "bots": bots, "bot_kind": bot_kind,
            "seed": self.key.seal(seed, code, created), "created": created, "deal": deal,
            "host": self.key.address(host), "all_bots": bots == players, "spectators": spectators, "clock": clock,
            "seat_options": seat_options,
        })

    @abstractmethod
    def _insert_table(self, row: dict) -> None:
        """Write a new table's row (its columns by name; the seed already sealed) as a sealed table of this node."""

    @abstractmethod
    def add_seat(self, code: str, seat: int, name: str, kind: str, token: str | None) -> None: ...

    @abstractmethod
    def add_decision(self, code: str, number: int, seat: int, answer, category) -> None:
        """Append decision `number` of the table's log (TableMoved when this node lost the table)."""

    @abstractmethod
    def save_clock(self, code: str, clock: str) -> None:
        """The table's clock as it stands (its deadlines moved, a seat forfeited)."""

    @abstractmethod
    def finish(self, code: str, seed: int) -> None:
        """The game is over: its seed is public now (the exported log shows it), kept in clear."""

    @abstractmethod
    def keyed(self, host: str | None) -> str | None:
        """An address as this store keeps it."""

    @abstractmethod
    def opened_by(self, host: str | None) -> int:
        """How many tables this address opened that are neither finished nor closed (across restarts)."""

    @abstractmethod
    def summary(self, code: str) -> tuple[bool, bool, tuple] | None:
        """(finished, closed, token hashes by seat) of a stored table, without its decisions; None if unknown."""

    @abstractmethod
    def prune_bot_games(self, keep: int) -> int:
        """Delete the finished tables played by bots alone beyond the newest `keep`; return how many."""

    @abstractmethod
    def close_lobby(self, code: str) -> None:
        """A table whose seats were not all taken in time (or that was stopped): kept, but never served again."""

    @abstractmethod
    def codes(self, *, playing: bool = False) -> list[str]:
        """The tables in the order they were opened; only those waiting or playing when asked (and, in a
        cluster, owned by this node)."""

    @abstractmethod
    def closed(self, code: str) -> bool: ...

    @abstractmethod
    def load(self, code: str) -> StoredTable | None: ...

    def decisions_since(self, code: str, number: int) -> list:
        """The table's decisions from `number` on, [seat, answer, category] each (a follower catching up)."""
        stored = self.load(code)
        return list(stored.decisions[number:]) if stored is not None else []

    @abstractmethod
    def close(self) -> None: ...

    # -- a cluster's leases: a store one server owns alone owns every table --------------------------
    def owner(self, code: str) -> Owner | None:
        """The node owning this table, when it is another node; None when it is this one, or nobody's."""
        return None

    def claim(self, code: str) -> bool:
        """Take the table over if nobody's lease holds it; True when this node owns it now."""
        return True

    def expired(self) -> list[str]:
        """Tables waiting or playing whose owner's lease ran out (a node that died): to take over."""
        return []

    def serve_as(self, url: str) -> None:
        """This node serves at `url` (where the other nodes reach it): registered, its lease begun."""
        return None

    def heartbeat(self) -> None:
        """Renew this node's lease on its tables (a store one server owns alone has none)."""
        return None


def safe_url(url: str) -> str:
    """A database URL without its password (it is printed and logged)."""
    head, at, tail = str(url).rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return str(url)
    scheme, _, credentials = head.partition("//")
    return f"{scheme}//{credentials.split(':', 1)[0]}:***@{tail}"
