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
import threading
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from ..errors import BoomError, Diagnostic
from ..game.save_fields import FORMATS, name_problem
from .dbfile import SeedKey, ServerLock, check_database, create_private
from .storage import Store, StoredTable, seat_options_read, token_hash

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
        "seat_options": "TEXT",  # the seat options the host set, as JSON (StoredTable.seat_options); NULL: none
    }
}


class SQLiteStore(Store):
    """One SQLite database, owned by one server; every write is committed before the call returns.

    A commit reaches the operating system before the call returns, so a killed server loses nothing.
    fsync=True also waits for the disk at each commit (SQLite synchronous=FULL), so a power cut loses
    nothing either; it costs a few milliseconds a decision.
    """

    def __init__(self, path: str | Path, fsync: bool = False, *, owner: bool = True, read_only: bool = False):
        """owner: this server runs on the database (it is created private, locked, checked and migrated);
        else it is only read (an export, a test looking on), and must exist. read_only: `boom export`'s
        file, which anyone may have crafted: opened read-only and bounded, nothing written beside it."""
        path = Path(path)
        self.path = str(path)
        self.lock: ServerLock | None = None
        self.turns: int | None = None
        self.writing = threading.Lock()  # this process's threads, one write at a time (the file lock is per process)
        try:
            if not read_only:
                self.turns = os.open(path.with_name(f".{path.name}.writers"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW,
                                     0o600)
        except OSError:
            self.turns = None  # a read-only place (an export): nothing is written there
        owner = owner and not read_only
        if owner:
            create_private(path)
            self.lock = ServerLock(path).acquire()
        try:
            if owner:
                check_database(path)
            self.key = SeedKey.beside(path, create=owner)
            if read_only:  # read as a file anyone may have crafted (boom export): never changed, bounded
                self.db = _read_only(path)
                return
            # a server with workers writes from a thread of its front too (a lobby closed off its event loop): one
            # connection, its writes one at a time (self.writing); SQLite's serialized mode guards the rest
            self.db = sqlite3.connect(str(path), isolation_level=None, timeout=30, check_same_thread=False)
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
        with self.writing:
            if self.turns is None:
                yield
                return
            fcntl.flock(self.turns, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self.turns, fcntl.LOCK_UN)

    def _insert_table(self, row: dict) -> None:
        row = {**row, "sealed": 1, "all_bots": int(row["all_bots"])}
        self._write(f"INSERT INTO tables ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", *row.values())

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
        try:
            return [str(row[0]) for row in self.db.execute(f"SELECT code FROM tables{where} ORDER BY created, code")]
        except sqlite3.Error as exc:
            message = f"cannot read the tables of the database {self.path}: {exc}"
            raise BoomError(Diagnostic(None, message, "N403")) from None

    def closed(self, code: str) -> bool:
        row = self.db.execute("SELECT closed FROM tables WHERE code = ?", (code,)).fetchone()
        return bool(row and row[0])

    def load(self, code: str) -> StoredTable | None:
        try:
            return self._load(code)
        except sqlite3.Error as exc:
            message = f"cannot read table {code} from the database {self.path}: {exc}"
            raise BoomError(Diagnostic(None, message, "N403")) from None

    def _load(self, code: str) -> StoredTable | None:
        row = self.db.execute(
            "SELECT code, edition, players, bots, bot_kind, seed, finished, deal, sealed, created, host, spectators,"
            " clock, seat_options FROM tables WHERE code = ?",
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
        where = f"the database {self.path}, table {code}"
        table = _checked(where, row, seats, decisions)
        if row[8]:  # sealed: a running game's seed
            return replace(table, seed=self.key.unseal(row[5], row[0], row[9]))
        return table


def _whole(value, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _checked(where: str, row, seats, decisions) -> StoredTable:
    """A table as read, every column checked: a database is a file anyone may have crafted (boom export
    reads one given on the command line), so what it holds is refused at its place, never a traceback."""
    try:
        edition = json.loads(row[1]) if isinstance(row[1], str) else None
    except (ValueError, RecursionError) as exc:  # RecursionError: an edition nested beyond Python's stack
        message = exc.msg if isinstance(exc, json.JSONDecodeError) else "it is nested too deeply"
        raise BoomError(Diagnostic(None, f"{where}: its edition is not valid JSON ({message})", "N403")) from None
    problems = []
    if not isinstance(edition, dict):
        problems.append("its edition is not a JSON object")
    if not _whole(row[5], -(2**63), 2**63 - 1) and not (row[8] and type(row[5]) is int):
        problems.append("its seed is not a 64-bit whole number")
    if row[7] not in FORMATS or type(row[7]) is not int:
        problems.append(f"its deal version is not one of {', '.join(map(str, FORMATS))}")
    if not isinstance(row[4], str):
        problems.append("its bot kind is not text")
    for number, (seat, name, kind, _) in enumerate(seats):
        if seat != number or name_problem(name) or kind not in ("player", "bot"):
            problems.append(f"its seat {number + 1} is not a seat number, a player name and 'player' or 'bot'")
    for number, (seat, answer, category) in enumerate(decisions):
        if not (_whole(seat, 0, 63) and isinstance(answer, str | None) and isinstance(category, str | None)):
            problems.append(f"its decision {number + 1} is not a seat, an answer and a category")
    seat_options = seat_options_read(row[13])
    if seat_options is None:
        problems.append("its seat options are not a JSON object of seat numbers to {option: whole number}")
    if problems:
        raise BoomError([Diagnostic(None, f"{where}: {problem}", "N403") for problem in problems[:10]])
    return StoredTable(
        row[0], edition, row[2], row[3], row[4], row[5], bool(row[6]), row[7], seats, decisions,
        row[10] if isinstance(row[10], str) else None, row[11] if row[11] in ("live", "round", "off") else "live",
        row[12] if isinstance(row[12], str) else None, seat_options,
    )


READ_STEPS = 50_000_000  # SQLite VM steps one export may take: far above any real table's few queries
READ_LENGTH = 16_000_000  # the longest text or blob read: an edition is at most 1 MB


def _read_only(path) -> sqlite3.Connection:
    """A connection that cannot change the file (no WAL conversion, no schema written) and cannot be made
    to run for ever: the three tables must be tables (not views), and every query stops after READ_STEPS."""
    uri = Path(path).absolute().as_uri() + "?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, READ_LENGTH)
    db.execute("PRAGMA trusted_schema=OFF")
    steps = [0]

    def stop_when_over() -> int:
        steps[0] += 1000
        return steps[0] > READ_STEPS

    db.set_progress_handler(stop_when_over, 1000)
    kinds = dict(db.execute("SELECT name, type FROM sqlite_master WHERE name IN ('tables', 'seats', 'decisions')"))
    wrong = [name for name in ("tables", "seats", "decisions") if kinds.get(name) != "table"]
    if wrong:
        db.close()
        raise sqlite3.DatabaseError(f"it is not a boom server's database ('{wrong[0]}' is not a table)")
    return db
