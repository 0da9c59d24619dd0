"""The server's memory: every table, seat and accepted decision in one SQLite file (WAL).

A decision is committed here before the server acknowledges it, so a server killed at any moment
and restarted on the same file rebuilds every table by replaying its seed and decisions (the engine
and the bots are deterministic). Seat tokens are kept only as hashes. It never sends anything:
what a client may see is decided elsewhere.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..errors import BoomError, Diagnostic

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY, edition TEXT NOT NULL, players INTEGER NOT NULL, bots INTEGER NOT NULL,
    bot_kind TEXT NOT NULL, seed INTEGER NOT NULL, created REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
    closed INTEGER NOT NULL DEFAULT 0, deal INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, token_hash TEXT,
    PRIMARY KEY (code, seat));
CREATE TABLE IF NOT EXISTS decisions (
    code TEXT NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL, answer TEXT, category TEXT,
    PRIMARY KEY (code, number));
"""


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


class Store:
    """One SQLite database; every write is committed before the call returns.

    A commit reaches the operating system before the call returns, so a killed server loses nothing.
    fsync=True also waits for the disk at each commit (SQLite synchronous=FULL), so a power cut loses
    nothing either; it costs a few milliseconds a decision.
    """

    def __init__(self, path: str | Path, fsync: bool = False):
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise BoomError(Diagnostic(None, f"cannot use the database {path}: {exc}", "N201")) from None

    def close(self) -> None:
        self.db.close()

    def _write(self, sql: str, *args) -> None:
        with self.db:  # one transaction, committed on leaving
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(sql, args)

    def add_table(
        self, code: str, edition_text: str, players: int, bots: int, bot_kind: str, seed: int, created: float, deal: int
    ) -> None:
        self._write(
            "INSERT INTO tables (code, edition, players, bots, bot_kind, seed, created, deal)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            code,
            edition_text,
            players,
            bots,
            bot_kind,
            seed,
            created,
            deal,
        )

    def add_seat(self, code: str, seat: int, name: str, kind: str, token: str | None) -> None:
        self._write(
            "INSERT INTO seats (code, seat, name, kind, token_hash) VALUES (?, ?, ?, ?, ?)",
            code,
            seat,
            name,
            kind,
            token_hash(token) if token else None,
        )

    def add_decision(self, code: str, number: int, seat: int, answer, category) -> None:
        self._write(
            "INSERT INTO decisions (code, number, seat, answer, category) VALUES (?, ?, ?, ?, ?)",
            code,
            number,
            seat,
            answer,
            category,
        )

    def finish(self, code: str) -> None:
        self._write("UPDATE tables SET finished = 1 WHERE code = ?", code)

    def close_lobby(self, code: str) -> None:
        """A table whose seats were not all taken in time: kept, but never served again."""
        self._write("UPDATE tables SET closed = 1 WHERE code = ?", code)

    def codes(self, *, playing: bool = False) -> list[str]:
        """The tables in the order they were opened; only those waiting or playing when asked."""
        where = " WHERE closed = 0 AND finished = 0" if playing else ""
        return [row[0] for row in self.db.execute(f"SELECT code FROM tables{where} ORDER BY created, code")]

    def closed(self, code: str) -> bool:
        row = self.db.execute("SELECT closed FROM tables WHERE code = ?", (code,)).fetchone()
        return bool(row and row[0])

    def load(self, code: str) -> StoredTable | None:
        row = self.db.execute(
            "SELECT code, edition, players, bots, bot_kind, seed, finished, deal FROM tables WHERE code = ?", (code,)
        ).fetchone()
        if row is None:
            return None
        seats = tuple(
            self.db.execute("SELECT seat, name, kind, token_hash FROM seats WHERE code = ? ORDER BY seat", (code,))
        )
        decisions = tuple(
            [seat, answer, category]
            for seat, answer, category in self.db.execute(
                "SELECT seat, answer, category FROM decisions WHERE code = ? ORDER BY number", (code,)
            )
        )
        return StoredTable(
            row[0], json.loads(row[1]), row[2], row[3], row[4], row[5], bool(row[6]), row[7], seats, decisions
        )


def open_existing(path: str | Path) -> Store:
    """A database that must already exist (for `boom export`), never a new empty one."""
    if not Path(path).is_file():
        raise BoomError(Diagnostic(None, f"no database at {path}", "N202"))
    return Store(path)
