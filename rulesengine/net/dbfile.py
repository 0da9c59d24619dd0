"""The server's SQLite file itself: created private, owned by one server, checked before use, and the key of its seeds.

A database holds every running game's seed (sealed with a key kept beside it) and every decision, so it is
created readable by its owner only. One server at a time owns it (a lock file), since two servers replaying
and appending the same tables would each acknowledge decisions the other overwrites. Before SQLite reads it,
its write-ahead log is walked frame by frame: SQLite stops at the first frame whose checksum fails and
silently drops every transaction after it, which here means acknowledged decisions, so a log with valid
frames beyond a broken one is refused with a clear message instead. Never reads a table: storage.py does.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import os
import secrets
import struct
import tempfile
from pathlib import Path

from ..errors import BoomError, Diagnostic

SEED_MASK = (1 << 63) - 1  # seeds and sealed seeds stay within SQLite's signed 64-bit integers


def refuse(message: str, code: str = "N205") -> BoomError:
    return BoomError(Diagnostic(None, message, code))


def create_private(path: Path) -> None:
    """Create the file readable by its owner only (before SQLite creates it with the umask's mode); an
    existing database is narrowed to its owner too, with its WAL and shared-memory files."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        os.close(fd)
    except FileExistsError:
        pass
    except OSError as exc:
        raise refuse(f"cannot create the database {path}: {exc.strerror}", "N201") from None
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            if os.stat(name, follow_symlinks=False).st_mode & 0o077:
                os.chmod(name, 0o600, follow_symlinks=False)
        except (FileNotFoundError, NotImplementedError):
            pass
        except OSError as exc:
            raise refuse(f"cannot make {name} private: {exc.strerror}", "N201") from None


class ServerLock:
    """One server per database: an exclusive lock on `.NAME.lock` beside it, held while the server runs
    (released by the system if the server dies, so a killed server's successor starts at once)."""

    def __init__(self, path: Path):
        self.path = path.with_name(f".{path.name}.lock")
        self.database = path
        self.fd: int | None = None

    def acquire(self) -> ServerLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            raise refuse(f"cannot lock the database {self.database}: {exc.strerror}", "N201") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise refuse(
                f"the database {self.database} is in use by another boom serve (process {holder}); "
                "stop it first, or give this server another --db",
                "N206",
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(path: Path) -> str | None:
    """What is wrong with the database's write-ahead log, or None: a frame that breaks the chain of
    checksums with frames of the same log after it (SQLite would drop them and every commit they hold)."""
    wal = Path(f"{path}-wal")
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return None
    if len(data) < 32:
        return None
    magic, _, page_size, _, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:32])
    if magic not in (0x377F0682, 0x377F0683) or page_size < 512 or page_size & (page_size - 1):
        return f"{wal.name} is not a write-ahead log SQLite wrote (its header is damaged)"
    big = magic == 0x377F0683
    if _checksum(data[:24], 0, 0, big) != (c1, c2):
        return f"the header of {wal.name} is damaged"
    s0, s1 = c1, c2
    size = 24 + page_size
    frames = (len(data) - 32) // size
    for index in range(frames):
        at = 32 + index * size
        header = data[at : at + 24]
        _, _, f_salt1, f_salt2, f_c1, f_c2 = struct.unpack(">6I", header)
        if (f_salt1, f_salt2) == (salt1, salt2):
            s0, s1 = _checksum(header[:8], s0, s1, big)
            s0, s1 = _checksum(data[at + 24 : at + size], s0, s1, big)
            if (s0, s1) == (f_c1, f_c2):
                continue
        later = [
            n
            for n in range(index + 1, frames)
            if struct.unpack(">2I", data[32 + n * size + 8 : 32 + n * size + 16]) == (salt1, salt2)
        ]
        commits = sum(1 for n in later if struct.unpack(">I", data[32 + n * size + 4 : 32 + n * size + 8])[0])
        if later:
            return (
                f"{wal.name} breaks at frame {index + 1} of {frames}: {len(later)} frames after it, "
                f"{commits} of them commits, would be silently dropped"
            )
        return None
    return None


def check_database(path: Path) -> None:
    """Refuse, with what to do, a database whose write-ahead log is damaged (see wal_damage)."""
    problem = wal_damage(path)
    if problem is not None:
        raise refuse(
            f"the database {path} is damaged: {problem} (acknowledged decisions among them). The server will not "
            f"run on it. Keep a copy of {path.name} and {path.name}-wal; `sqlite3 {path.name} .recover` saves what "
            "is intact into a new database"
        )


class SeedKey:
    """The key that seals running games' seeds in the database: 32 random bytes in `NAME.key` beside it,
    created readable by its owner only. A copy of the database alone (a backup, a bug report) shows no
    running game's deals; a finished game's seed is stored in clear, as the exported log shows it."""

    def __init__(self, path: Path, create: bool):
        """path: the key file itself (for an SQLite database, `NAME.key` beside it: SeedKey.beside)."""
        self.path = Path(path)
        self.key = self._read(create)

    @classmethod
    def beside(cls, database: Path, create: bool) -> SeedKey:
        return cls(database.with_name(database.name + ".key"), create)

    def _read(self, create: bool) -> bytes | None:
        try:
            with open(self.path, "rb", opener=lambda name, flags: os.open(name, flags | os.O_NOFOLLOW)) as handle:
                key = handle.read(64)
        except FileNotFoundError:
            if not create:
                return None
            return self._create()
        except OSError as exc:
            raise refuse(f"cannot read the key {self.path}: {exc.strerror}", "N201") from None
        if len(key) != 32:
            raise refuse(f"{self.path} is not a key this server wrote (32 bytes)", "N205")
        return key

    def _create(self) -> bytes:
        """A new key, whole or not at all: written to a file of our own, then linked to its name. Nodes of a
        cluster start together on one key file; one links first and the others read its key (an empty file
        being written was read as "not a key" by a node starting beside it)."""
        key = secrets.token_bytes(32)
        try:
            fd, own = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)  # O_EXCL, mode 0o600
        except OSError as exc:
            raise refuse(f"cannot create the key {self.path}: {exc.strerror}", "N201") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(key)
            try:
                os.link(own, self.path)   # never follows or replaces what is there
            except FileExistsError:
                return self._read(create=False)
            except OSError as exc:
                raise refuse(f"cannot create the key {self.path}: {exc.strerror}", "N201") from None
        finally:
            os.unlink(own)
        return key

    def _pad(self, code: str, created: float) -> int:
        if self.key is None:
            raise refuse(f"the seeds of running games are sealed with {self.path}, which is missing", "N205")
        digest = hmac.new(self.key, f"seed:{code}:{created!r}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") & SEED_MASK

    def seal(self, seed: int, code: str, created: float) -> int:
        return (seed & SEED_MASK) ^ self._pad(code, created)

    unseal = seal  # a one-time pad: the same operation both ways

    def address(self, address: str | None) -> str | None:
        """An address as the database keeps it (for limits that outlive a restart): keyed, not in clear."""
        if address is None or self.key is None:
            return None
        return hmac.new(self.key, f"address:{address}".encode(), hashlib.sha256).hexdigest()[:32]

    def sign(self, text: str) -> str:
        """A proof that a node holding this key wrote `text` (the nodes of a cluster share the key: cluster.py)."""
        if self.key is None:
            raise refuse(f"the nodes of a cluster prove themselves with {self.path}, which is missing", "N205")
        return hmac.new(self.key, f"hop:{text}".encode(), hashlib.sha256).hexdigest()
