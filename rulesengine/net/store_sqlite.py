"""The store of one machine: every table, seat and accepted decision in one SQLite file (WAL).

One server owns the file (a lock beside it), so it owns every table in it: no leases. Its worker processes
write through connections of their own, taking turns through a second lock. The file is private and checked
before use (dbfile.py); a running game's seed is sealed with a key beside it (dbfile.SeedKey). The interface
and what it promises are storage.py's.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path

from ..errors import BoomError, Diagnostic
from .dbfile import SeedKey, ServerLock, check_database, create_private
from .storage import Store, StoredTable, token_hash

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
# columns added since the first version: an older database gets them when a server opens it
COLUMNS = {
    "tables": {
        "sealed": "INTEGER NOT NULL DEFAULT 0",  # 1: `seed` holds the seed sealed with the database's key
        "host": "TEXT",  # the opening address, keyed (limits per address outlive a restart)
        "all_bots": "INTEGER NOT NULL DEFAULT 0",  # every seat a bot: pruned once finished (Limits.keep_bot_games)
        "spectators": "TEXT NOT NULL DEFAULT 'live'",  # live, round or off (net/spectators.py)
        "clock": "TEXT",  # the per-move clock, its deadlines and forfeits, as JSON (net/clocks.py); NULL: none
    }
}


class SQLiteStore(Store):
    """One SQLite database, owned by one server; every write is committed before the call returns.

    A commit reaches the operating system before the call returns, so a killed server loses nothing.
    fsync=True also waits for the disk at each commit (SQLite synchronous=FULL), so a power cut loses
    nothing either; it costs a few milliseconds a decision.
    """

    def __init__(self, path: str | Path, fsync: bool = False, *, owner: bool = True):
        """owner: this server runs on the database (it is created private, locked, checked and migrated);
        else it is only read (an export, a test looking on), and must exist."""
        path = Path(path)
        self.lock: ServerLock | None = None
        self.turns: int | None = None
        try:
            self.turns = os.open(path.with_name(f".{path.name}.writers"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError:
            self.turns = None  # a read-only place (an export): nothing is written there
        if owner:
            create_private(path)
            self.lock = ServerLock(path).acquire()
        try:
            if owner:
                check_database(path)
            self.key = SeedKey.beside(path, create=owner)
            self.db = sqlite3.connect(str(path), isolation_level=None, timeout=30)
            self.db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
            if owner:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.executescript(SCHEMA)
                self._migrate()
                verdict = self.db.execute("PRAGMA quick_check").fetchone()[0]
                if verdict != "ok":
                    raise BoomError(
                        Diagnostic(
                            None, f"the database {path} is damaged ({verdict}); the server will not run on it", "N205"
                        )
                    )
                self._seal_running()
        except sqlite3.Error as exc:
            self.close()
            raise BoomError(Diagnostic(None, f"cannot use the database {path}: {exc}", "N201")) from None
        except BoomError:
            self.close()
            raise

    def _migrate(self) -> None:
        for table, columns in COLUMNS.items():
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            for name, kind in columns.items():
                if name not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")

    def _seal_running(self) -> None:
        """Seal the seeds an older server kept in clear for games not finished."""
        rows = list(self.db.execute("SELECT code, seed, created FROM tables WHERE sealed = 0 AND finished = 0"))
        for code, seed, created in rows:
            self._write(
                "UPDATE tables SET seed = ?, sealed = 1 WHERE code = ?", self.key.seal(seed, code, created), code
            )

    def close(self) -> None:
        if getattr(self, "db", None) is not None:
            self.db.close()
            self.db = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None
        if self.turns is not None:
            os.close(self.turns)
            self.turns = None

    def _write(self, sql: str, *args) -> None:
        with self._turn(), self.db:  # one transaction, committed on leaving
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(sql, args)

    @contextmanager
    def _turn(self):
        """Wait for this process's turn to write. SQLite's own wait for its lock polls with sleeps of up to
        100 ms, so with several processes writing (--workers) a decision waited behind the others' sleeps;
        a lock on a file beside the database is handed over by the kernel as soon as it is released."""
        if self.turns is None:
            yield
            return
        fcntl.flock(self.turns, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self.turns, fcntl.LOCK_UN)

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
    ) -> None:
        self._write(
            "INSERT INTO tables (code, edition, players, bots, bot_kind, seed, created, deal, sealed, host, all_bots,"
            " spectators, clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)",
            code,
            edition_text,
            players,
            bots,
            bot_kind,
            self.key.seal(seed, code, created),
            created,
            deal,
            self.key.address(host),
            int(bots == players),
            spectators,
            clock,
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

    def save_clock(self, code: str, clock: str) -> None:
        self._write("UPDATE tables SET clock = ? WHERE code = ?", clock, code)

    def finish(self, code: str, seed: int) -> None:
        """The game is over: its seed is public now (the exported log shows it), kept in clear."""
        self._write("UPDATE tables SET finished = 1, seed = ?, sealed = 0 WHERE code = ?", seed, code)

    def keyed(self, host: str | None) -> str | None:
        """An address as this database keeps it."""
        return self.key.address(host)

    def opened_by(self, host: str | None) -> int:
        """How many tables this address opened that are neither finished nor closed (across restarts)."""
        keyed = self.key.address(host)
        if keyed is None:
            return 0
        query = "SELECT COUNT(*) FROM tables WHERE host = ? AND finished = 0 AND closed = 0"
        return self.db.execute(query, (keyed,)).fetchone()[0]

    def summary(self, code: str) -> tuple[bool, bool, tuple] | None:
        """(finished, closed, token hashes by seat) of a stored table, without its decisions; None if unknown."""
        row = self.db.execute("SELECT finished, closed FROM tables WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        query = "SELECT token_hash FROM seats WHERE code = ? ORDER BY seat"
        hashes = tuple(h for (h,) in self.db.execute(query, (code,)))
        return bool(row[0]), bool(row[1]), hashes

    def prune_bot_games(self, keep: int) -> int:
        """Delete the finished tables played by bots alone beyond the newest `keep`; return how many."""
        old = [
            code
            for (code,) in self.db.execute(
                "SELECT code FROM tables WHERE all_bots = 1 AND finished = 1"
                " ORDER BY created DESC, code LIMIT -1 OFFSET ?",
                (keep,),
            )
        ]
        for code in old:
            with self._turn(), self.db:
                self.db.execute("BEGIN IMMEDIATE")
                for table in ("decisions", "seats", "tables"):
                    self.db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
        return len(old)

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
            "SELECT code, edition, players, bots, bot_kind, seed, finished, deal, sealed, created, host, spectators,"
            " clock FROM tables WHERE code = ?",
            (code,),
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
        )
