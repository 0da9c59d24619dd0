"""A disk cache of checked editions, so that a command loading an edition checked before starts quickly.

A hit reads the Edition back from a pickle: no YAML reader, no JSON Schema, no parser of the scoring language
and no check runs (they were about two thirds of a one-game `boom simulate`, #35), and the expressions are
compiled again from their checked trees (model.Expression.__reduce__). What it must never do:
- load a pickle someone else could have written (a pickle can run code): an entry is read only from the user's
  own cache folder (dsl/grammar_cache.user_cache_folder: owned by this user, writable by no one else), and only
  if it is a regular file, not a link, owned by this user and writable by no one else, as pip's and Python's
  own caches are kept;
- give an edition other than the one a fresh check builds: an entry holds the sha256 of every file the check
  read (the edition and each file its `extends:` and `borrow:` name, in turn), the files it looked for and did
  not find (a name that fell back to a shipped edition), and the digest of the code that builds editions
  (CODE: this package, the scoring language, the schema); any of them changed and the edition is checked
  afresh and the entry written again;
- crash, or say anything: a corrupt, truncated or stale entry is a miss, a folder it cannot write is no cache.

Only an edition that checks without errors is kept, with its diagnostics (warnings, notes), which a hit gives
back exactly as the check gave them (`boom validate` says them again). BOOM_EDITION_CACHE=off turns it off.
"""

from __future__ import annotations

import os
import stat
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

FORMAT = 1                       # of an entry: bump it when its layout changes
OFF = ("0", "off", "no", "false")
CODE = ("edition", "dsl", "errors.py", "escaping.py")   # under rulesengine/: what an Edition is built by

KEPT = 200                       # entries at most: past it the least recently used go
CODE_STAMP = "edition-code.json"  # the code's digest for its files' sizes and times (code_digest)
_reading: ContextVar = ContextVar("edition reads", default=None)
_passed_by: ContextVar = ContextVar("edition cache passed by", default=False)
_code: list = []                 # the code's digest, worked out once a process


def enabled() -> bool:
    return os.environ.get("BOOM_EDITION_CACHE", "").strip().lower() not in OFF and not _passed_by.get()


@contextmanager
def passed_by():
    """Editions loaded inside are neither read from the cache nor kept: a temporary file's (an edition sent to a
    server, a worker's copy of a simulated edition), which no later command names again."""
    token = _passed_by.set(True)
    try:
        yield
    finally:
        _passed_by.reset(token)


def noted(path, data: bytes) -> None:
    """A file an edition's check read (source._read): its sha256 goes into the entry."""
    reads = _reading.get()
    if reads is not None:
        import hashlib

        reads[0][os.path.abspath(path)] = hashlib.sha256(data).hexdigest()


def looked_for(path) -> None:
    """A file an edition's check looked for and did not find (extends.parent_file, before a shipped name)."""
    reads = _reading.get()
    if reads is not None:
        reads[1].add(os.path.abspath(path))


def checked(path, quote: bool, runner: str, check):
    """check() -> (edition, diagnostics, data), or what it gave last time for the same files and code."""
    from .shipped import resolve_edition

    if not enabled():
        return check()
    resolved = resolve_edition(path)
    try:
        if not os.path.isfile(resolved):
            return check()
        name = _entry_name(path, resolved, quote, runner)
    except (OSError, ValueError):                      # a NUL in the name, a name too long...
        return check()
    folder = _folder()
    if folder is None:
        return check()
    found = _read_entry(folder / name)
    if found is not None:
        with _quietly():
            os.utime(folder / name)   # recently used: the last to go (_write_entry)
        return found
    token = _reading.set(({}, set()))
    try:
        found = check()
        files, absent = _reading.get()
    finally:
        _reading.reset(token)
    if found[0] is not None and files:
        _write_entry(folder, name, files, absent, found)
    return found


def _folder() -> Path | None:
    from ..dsl.grammar_cache import user_cache_folder

    return user_cache_folder()


def _entry_name(path, resolved, quote: bool, runner: str) -> str:
    """One entry for each way of naming a file (the edition's `file` and its diagnostics say the name as given)."""
    import hashlib

    key = "\0".join((str(FORMAT), str(path), os.path.abspath(resolved), str(bool(quote)), runner,
                     sys.version, sys.implementation.cache_tag or ""))
    return f"edition-{hashlib.sha256(key.encode('utf-8', 'surrogateescape')).hexdigest()[:40]}.pickle"


def code_digest(folder: Path | None = None) -> str:
    """The sha256 of the code that builds an Edition and of the schema it is checked against. Worked out once
    for the files' sizes and times (CODE_STAMP in the cache folder), as Python's own bytecode cache trusts a
    source's size and time: ~5 ms of a 0.2 s start-up, against ~0.3 ms to read the files' times."""
    if not _code:
        import hashlib
        import json

        from .shipped import schema_file

        files = [*_code_files(Path(__file__).resolve().parents[1]), schema_file()]
        stamp = hashlib.sha256()
        for file in files:
            info = file.stat()
            stamp.update(f"{file}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
        stamp = stamp.hexdigest()
        memo = folder / CODE_STAMP if folder is not None else None
        try:
            known = json.loads(memo.read_text(encoding="utf-8")) if memo is not None else {}
        except (OSError, ValueError):   # none yet, or not one we wrote whole: worked out again
            known = {}
        if isinstance(known, dict) and known.get("stamp") == stamp and isinstance(known.get("code"), str):
            _code.append(known["code"])
            return _code[0]
        digest = hashlib.sha256()
        for file in files:
            digest.update(f"{file.name}\0{len(data := file.read_bytes())}\0".encode())
            digest.update(data)
        _code.append(digest.hexdigest())
        if memo is not None:
            _write_whole(folder, memo.name, json.dumps({"stamp": stamp, "code": _code[0]}).encode())
    return _code[0]


def _code_files(root: Path) -> list[Path]:
    files = []
    for part in CODE:
        top = root / part
        if not top.is_dir():
            files.append(top)
            continue
        for folder, subfolders, names in os.walk(top):
            subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
            files += [Path(folder) / name for name in sorted(names) if name.endswith((".py", ".lark"))]
    return files


def _read_entry(file: Path):
    """(edition, diagnostics, data) from an entry that is ours and up to date, else None."""
    import io
    import pickle

    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with open(fd, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return None
            if hasattr(os, "getuid") and info.st_uid != os.getuid():
                return None
            data = io.BytesIO(stream.read())
        header = pickle.load(data)
        if not (isinstance(header, dict) and header.get("format") == FORMAT
                and header.get("code") == code_digest(file.parent) and _unchanged(header["files"], header["absent"])):
            return None
        edition, diagnostics, merged = pickle.load(data)
    except Exception:  # noqa: BLE001 - a corrupt or stale entry of any kind is a miss, never a crash
        return None
    from .model import Edition

    return (edition, list(diagnostics), merged) if isinstance(edition, Edition) else None


def _unchanged(files: dict, absent) -> bool:
    import hashlib

    for path, sha in files.items():
        try:
            with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as stream:   # a FIFO now: never blocks
                if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                    return False
                if hashlib.sha256(stream.read()).hexdigest() != sha:
                    return False
        except OSError:
            return False
    return not any(os.path.isfile(path) for path in absent)


def _write_entry(folder: Path, name: str, files: dict, absent: set, found: tuple) -> None:
    """The entry written whole or not at all (a temporary file of mode 0600 renamed over it)."""
    import pickle

    try:
        header = {"format": FORMAT, "code": code_digest(folder), "files": files, "absent": sorted(absent)}
        data = pickle.dumps(header, pickle.HIGHEST_PROTOCOL) + pickle.dumps(found, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - an edition that does not pickle is simply not kept
        return
    if not _write_whole(folder, name, data):
        return
    entries = list(folder.glob("edition-*.pickle"))
    if len(entries) > KEPT:
        with _quietly():
            entries.sort(key=lambda entry: entry.stat().st_mtime_ns)
            for entry in entries[: len(entries) - KEPT]:
                entry.unlink()


def _write_whole(folder: Path, name: str, data: bytes) -> bool:
    """A file of the cache written whole or not at all: a temporary file of mode 0600 renamed over it."""
    import tempfile

    try:
        fd, temporary = tempfile.mkstemp(prefix=".edition-", dir=folder)
        try:
            with open(fd, "wb") as stream:
                stream.write(data)
            os.replace(temporary, folder / name)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return False
    return True


@contextmanager
def _quietly():
    """What the cache does to its own files may fail (another process removed one): never an error."""
    try:
        yield
    except OSError:
        pass
