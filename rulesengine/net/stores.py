"""Which store a server opens: a PostgreSQL URL or an SQLite file (storage.py says what a store does; each of
store_postgres.py and store_sqlite.py is one; psycopg is imported only for a PostgreSQL URL, an optional extra)."""

from __future__ import annotations

from pathlib import Path

from ..errors import BoomError, Diagnostic
from .storage import POSTGRES, Store
from .store_sqlite import SQLiteStore


def open_store(
    where: str | Path,
    fsync: bool = False,
    *,
    owner: bool = True,
    node: str | None = None,
    key: str | Path | None = None,
    lease: float | None = None,
) -> Store:
    """The store at `where`: a PostgreSQL URL (postgresql://...) or an SQLite file. owner: this process runs the
    server on it (it is created, locked or registered as a node, checked); else it only reads and writes for one
    (a worker process, an export). In a cluster: node, the name of the node a worker writes for; key, the file
    of the key the nodes share (an SQLite file keeps its own beside it); lease, seconds a node's lease lasts."""
    if str(where).startswith(POSTGRES):
        try:
            from .store_postgres import PostgresStore  # the [postgres] extra: psycopg
        except ImportError:
            raise BoomError(
                Diagnostic(None, "a PostgreSQL database needs psycopg: pip install 'boomerang-rules[postgres]'", "N208")
            ) from None
        return PostgresStore(str(where), owner=owner, node=node, key=key, lease=lease)
    return SQLiteStore(where, fsync, owner=owner)


def open_existing(where: str | Path) -> Store:
    """A store that must already exist (for `boom export`), never a new empty one; an SQLite file opened
    read-only and checked as it is read (anyone may have crafted it: store_sqlite.py)."""
    if str(where).startswith(POSTGRES):
        return open_store(where, owner=False)
    if not Path(where).is_file():
        raise BoomError(Diagnostic(None, f"no database at {where}", "N202"))
    return SQLiteStore(where, owner=False, read_only=True)
