"""The store of several servers: one PostgreSQL database they share, each table owned by one node under a lease.

Every node registers itself (`nodes`: its name, the address other nodes reach it at, and when its lease runs
out) and renews its lease by heartbeat; a table's row names the node owning it. A decision is appended only
by the table's owner, in one statement that locks the table's row and checks the owner (so a node that lost
the table while it was away writes nothing: TableMoved); a seat, the clock, the end of the game and the closing
of a lobby are written under the same check. The append announces itself with NOTIFY
carrying only (table, number): a node that misses the notice reads the log later, so a missed notice costs
latency, never correctness. A node that finds a table whose owner's lease ran out takes it over (`claim`, one
UPDATE that races safely) and replays its log. Times are the database's (now()), so the nodes' clocks need not
agree. psycopg 3 rather than SQLAlchemy Core: the statements are few and PostgreSQL's own (LISTEN/NOTIFY,
row locks, ON CONFLICT), which SQLAlchemy would pass through as text anyway. It never sends anything to a client.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
from pathlib import Path

import psycopg

from ..errors import BoomError, Diagnostic
from .dbfile import SeedKey
from .storage import Owner, Store, StoredTable, TableMoved, safe_url, seat_options_read, token_hash

CHANNEL = "boom_tables"  # NOTIFY's channel: payload "CODE NUMBER", the table and the length of its log
LEASE = 3.0  # seconds a node's lease lasts; renewed every LEASE / 3
SCHEMA_LOCK = 0x626F6F6D  # an advisory lock: nodes starting at once create the schema one after the other

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY, edition TEXT NOT NULL, players INTEGER NOT NULL, bots INTEGER NOT NULL,
    bot_kind TEXT NOT NULL, seed BIGINT NOT NULL, sealed BOOLEAN NOT NULL, created DOUBLE PRECISION NOT NULL,
    finished BOOLEAN NOT NULL DEFAULT false, closed BOOLEAN NOT NULL DEFAULT false, deal INTEGER NOT NULL,
    host TEXT, all_bots BOOLEAN NOT NULL, spectators TEXT NOT NULL, owner TEXT, clock TEXT, seat_options TEXT);
ALTER TABLE tables ADD COLUMN IF NOT EXISTS seat_options TEXT;
CREATE INDEX IF NOT EXISTS tables_playing ON tables (owner) WHERE NOT finished AND NOT closed;
CREATE INDEX IF NOT EXISTS tables_host ON tables (host) WHERE NOT finished AND NOT closed;
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, token_hash TEXT,
    PRIMARY KEY (code, seat));
CREATE TABLE IF NOT EXISTS decisions (
    code TEXT NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL, answer TEXT, category TEXT,
    PRIMARY KEY (code, number));
CREATE TABLE IF NOT EXISTS nodes (name TEXT PRIMARY KEY, url TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL);
"""

# the owner's row locked (a takeover waits for it, or it for the takeover), the decision appended, the news sent
APPEND = """
WITH mine AS (SELECT code FROM tables WHERE code = %(code)s AND owner = %(node)s FOR UPDATE),
added AS (
    INSERT INTO decisions (code, number, seat, answer, category)
    SELECT code, %(number)s, %(seat)s, %(answer)s, %(category)s FROM mine RETURNING number)
SELECT pg_notify(%(channel)s, %(code)s || ' ' || (number + 1)) FROM added
"""
# a seat added to a table this node owns: the row locked as for a decision (a seat is never added to a table taken over)
ADD_SEAT = """
WITH mine AS (SELECT code FROM tables WHERE code = %(code)s AND owner = %(node)s FOR UPDATE)
INSERT INTO seats (code, seat, name, kind, token_hash)
SELECT code, %(seat)s, %(name)s, %(kind)s, %(hash)s FROM mine RETURNING seat
"""
# the table's own row changed by its owner only (an UPDATE waits for a takeover's lock, then checks the owner again)
OWNED = "code = %(code)s AND owner = %(node)s RETURNING code"
ALIVE = "EXISTS (SELECT 1 FROM nodes n WHERE n.name = tables.owner AND n.expires > now())"


def moved(code: str) -> TableMoved:
    return TableMoved(Diagnostic(None, f"table {code} is now served by another node", "N209"))


def refused(url: str, exc: Exception) -> BoomError:
    return BoomError(Diagnostic(None, f"cannot use the database {safe_url(url)}: {exc}".strip(), "N201"))


class PostgresStore(Store):
    """One connection to the shared database (a node's front, or one of its workers, each has its own)."""

    def __init__(
        self,
        url: str,
        *,
        owner: bool = True,
        node: str | None = None,
        key: str | Path | None = None,
        lease: float | None = None,
    ):
        """owner: this process is a node's front (it creates the schema and registers the node); else a worker of
        node `node`, or a reader (an export). key: the file of the key the nodes share (seeds, hops)."""
        self.url = url
        try:
            self.db = psycopg.connect(url, autocommit=True, connect_timeout=10)
        except psycopg.Error as exc:
            raise refused(url, exc) from None
        self.key = SeedKey(Path(key or "boom.key"), create=owner)
        self.node = node
        self.lease = lease or LEASE
        self.node_url: str | None = None  # where the other nodes reach this one, once it serves (serve_as)
        try:
            if owner:
                with self.db.transaction():
                    self.db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                    self.db.execute(SCHEMA)
                self.node = node or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        except psycopg.Error as exc:
            self.close()
            raise refused(url, exc) from None

    def close(self) -> None:
        if getattr(self, "db", None) is None:
            return
        try:
            if self.node_url is not None and not self.db.closed:  # leaving: the others may take its tables at once
                self.db.execute("DELETE FROM nodes WHERE name = %s", (self.node,))
        except psycopg.Error:
            pass
        self.db.close()
        self.db = None

    def _one(self, sql: str, args=()):
        return self.db.execute(sql, args).fetchone()

    # -- leases ---------------------------------------------------------------------------------
    channel = CHANNEL

    def serve_as(self, url: str) -> None:
        self.node_url = url
        self.heartbeat()

    def heartbeat(self) -> None:
        if self.node_url is None:
            return
        self.db.execute(
            "INSERT INTO nodes (name, url, expires) VALUES (%s, %s, now() + make_interval(secs => %s))"
            " ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, expires = EXCLUDED.expires",
            (self.node, self.node_url, self.lease),
        )

    def owner(self, code: str) -> Owner | None:
        row = self._one(
            "SELECT t.owner, n.url, COALESCE(n.expires > now(), false),"
            " GREATEST(0, EXTRACT(EPOCH FROM n.expires - now()))::float"
            " FROM tables t LEFT JOIN nodes n ON n.name = t.owner"
            " WHERE t.code = %s AND NOT t.finished AND NOT t.closed",
            (code,),
        )
        if row is None or row[0] is None or row[0] == self.node:
            return None
        return Owner(row[0], row[1] or "", bool(row[2]), float(row[3] or 0.0))

    def claim(self, code: str) -> bool:
        row = self._one(
            f"UPDATE tables SET owner = %(node)s WHERE code = %(code)s AND NOT finished AND NOT closed"
            f" AND (owner IS NULL OR owner = %(node)s OR NOT {ALIVE}) RETURNING code",
            {"node": self.node, "code": code},
        )
        return row is not None

    def expired(self) -> list[str]:
        rows = self.db.execute(
            f"SELECT code FROM tables WHERE NOT finished AND NOT closed AND owner IS DISTINCT FROM %s AND NOT {ALIVE}"
            " ORDER BY created, code LIMIT 200",
            (self.node,),
        )
        return [code for (code,) in rows]

    # -- writing --------------------------------------------------------------------------------
    def _insert_table(self, row: dict) -> None:
        row = {**row, "sealed": True, "owner": self.node}
        self.db.execute(
            f"INSERT INTO tables ({', '.join(row)}) VALUES ({', '.join(['%s'] * len(row))})", tuple(row.values())
        )

    def add_seat(self, code, seat, name, kind, token) -> None:
        args = {"code": code, "node": self.node, "seat": seat, "name": name, "kind": kind,
                "hash": token_hash(token) if token else None}
        self._owned(ADD_SEAT, args)

    def add_decision(self, code, number, seat, answer, category) -> None:
        args = {
            "code": code,
            "node": self.node,
            "number": number,
            "seat": seat,
            "answer": answer,
            "category": category,
            "channel": CHANNEL,
        }
        try:
            written = self._one(APPEND, args)
        except psycopg.errors.UniqueViolation:  # the number is taken: another node appended it
            written = None
        if written is None:
            raise moved(code)

    def _owned(self, sql: str, args: dict) -> None:
        """One write that names the table's code and this node: TableMoved when it changed nothing, the table
        being another node's now (the lease ran out and the table was claimed)."""
        if self._one(sql, args) is None:
            raise moved(args["code"])

    def save_clock(self, code: str, clock: str) -> None:
        self._owned(f"UPDATE tables SET clock = %(clock)s WHERE {OWNED}",
                    {"code": code, "node": self.node, "clock": clock})

    def finish(self, code: str, seed: int) -> None:
        self._owned(f"UPDATE tables SET finished = true, seed = %(seed)s, sealed = false WHERE {OWNED}",
                    {"code": code, "node": self.node, "seed": seed})

    def close_lobby(self, code: str) -> None:
        self._owned(f"UPDATE tables SET closed = true WHERE {OWNED}", {"code": code, "node": self.node})

    def prune_bot_games(self, keep: int) -> int:
        with self.db.transaction():
            old = [
                code
                for (code,) in self.db.execute(
                    "SELECT code FROM tables WHERE all_bots AND finished ORDER BY created DESC, code OFFSET %s",
                    (keep,),
                )
            ]
            for table in ("decisions", "seats", "tables"):
                self.db.execute(f"DELETE FROM {table} WHERE code = ANY(%s)", (old,))
        return len(old)

    # -- reading --------------------------------------------------------------------------------
    def keyed(self, host: str | None) -> str | None:
        return self.key.address(host)

    def opened_by(self, host: str | None) -> int:
        keyed = self.key.address(host)
        if keyed is None:
            return 0
        return self._one("SELECT COUNT(*) FROM tables WHERE host = %s AND NOT finished AND NOT closed", (keyed,))[0]

    def summary(self, code: str):
        row = self._one("SELECT finished, closed FROM tables WHERE code = %s", (code,))
        if row is None:
            return None
        query = "SELECT token_hash FROM seats WHERE code = %s ORDER BY seat"
        hashes = tuple(h for (h,) in self.db.execute(query, (code,)))
        return bool(row[0]), bool(row[1]), hashes

    def codes(self, *, playing: bool = False) -> list[str]:
        if playing:
            rows = self.db.execute(
                "SELECT code FROM tables WHERE NOT closed AND NOT finished AND owner = %s ORDER BY created, code",
                (self.node,),
            )
        else:
            rows = self.db.execute("SELECT code FROM tables ORDER BY created, code")
        return [code for (code,) in rows]

    def closed(self, code: str) -> bool:
        row = self._one("SELECT closed FROM tables WHERE code = %s", (code,))
        return bool(row and row[0])

    def decisions_since(self, code: str, number: int) -> list:
        rows = self.db.execute(
            "SELECT seat, answer, category FROM decisions WHERE code = %s AND number >= %s ORDER BY number",
            (code, number),
        )
        return [list(row) for row in rows]

    def load(self, code: str) -> StoredTable | None:
        row = self._one(
            "SELECT code, edition, players, bots, bot_kind, seed, finished, deal, sealed, created, host, spectators,"
            " clock, seat_options FROM tables WHERE code = %s",
            (code,),
        )
        if row is None:
            return None
        seats = tuple(
            self.db.execute("SELECT seat, name, kind, token_hash FROM seats WHERE code = %s ORDER BY seat", (code,))
        )
        decisions = tuple(self.decisions_since(code, 0))
        seed = self.key.unseal(row[5], row[0], row[9]) if row[8] else row[5]
        return StoredTable(
            row[0],
            json.loads(row[1]),
            row[2],
            row[3],
            row[4],
            seed,
            bool(row[6]),
            row[7],
            seats,
            decisions,
            row[10],
            row[11],
            row[12],
            seat_options_read(row[13]) or {},
        )
