"""Where a game writes: output paths checked before the game starts, atomic writes, one game per file.

An output is a regular file or a new path in a writable folder; a device, a FIFO, a symbolic link
or a folder is refused before the game starts (exit 2), so nothing is ever replaced by a regular
file. While a game runs it holds an exclusive lock per output (a `.NAME.lock` file beside it), so
a second game given the same file is refused instead of interleaving two games in one log.
Output paths come from the command line only: this module never takes one from a save or a log.
"""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path

from ..errors import BoomError, Diagnostic


class OutputError(BoomError):
    """An output path that cannot be used: refused before the game, like a bad command-line option."""

    exit_code = 2


def unwritable(path, exc: OSError | None = None) -> OutputError:
    reason = (
        exc.strerror if exc is not None and exc.strerror else None
    ) or "its folder does not exist or is not writable"
    return OutputError(Diagnostic(None, f"cannot write {path}: {reason}", "F907"))


def check_outputs(*paths) -> None:
    """Refuse, before a game, outputs that are not regular files or new paths, or are given twice."""
    seen = {}
    for path in paths:
        if path is None:
            continue
        try:
            here = Path(path)
            folder = here.absolute().parent
            info = os.lstat(here) if os.path.lexists(here) else None
            folder_ok = folder.is_dir() and os.access(folder, os.W_OK)
        except (OSError, ValueError) as exc:  # a NUL in the name, a name too long...
            raise OutputError(
                Diagnostic(None, f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}", "F907")
            ) from None
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise OutputError(
                Diagnostic(
                    None,
                    f"cannot write {path}: it is {_what(info.st_mode)}, not a regular file; "
                    "outputs are regular files or new paths",
                    "F908",
                )
            )
        if not folder_ok:
            raise unwritable(path)
        key = (info.st_dev, info.st_ino) if info is not None else os.path.abspath(here)
        if key in seen:
            raise OutputError(Diagnostic(None, f"{path} is given as two outputs ({seen[key]} and this one)", "F908"))
        seen[key] = path


def _what(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def write_atomic(path, text: str, *, private: bool = False) -> None:
    """Write through a temporary file renamed over the target: a crash leaves the old complete file.
    private: readable by its owner only (a save holds the seed, so every hand)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(
            tmp, "w", encoding="utf-8", opener=lambda name, flags: os.open(name, flags, 0o600 if private else 0o666)
        ) as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise unwritable(path, exc) from None


class OutputLock:
    """An exclusive lock on one output for as long as a game runs, held on `.NAME.lock` beside it
    (the output itself is replaced at every save, so it cannot carry the lock)."""

    def __init__(self, path):
        target = Path(path)
        self.path = target.with_name(f".{target.name}.lock")
        self.output = path
        self.fd: int | None = None

    def acquire(self) -> OutputLock:
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            except OSError as exc:
                raise unwritable(self.output, exc) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise OutputError(
                    Diagnostic(
                        None,
                        f"{self.output} is in use by another game (it holds {self.path}); give this game another file",
                        "F909",
                    )
                ) from None
            try:  # the holder may have removed the lock file between our open and our lock: retry then
                same = os.stat(self.path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except OSError:
                same = False
            if same:
                self.fd = fd
                return self
            os.close(fd)

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


def open_private(path, mode: str):
    """Open a file (a log: it shows every hand) readable by its owner only when it is created."""
    return open(path, mode, encoding="utf-8", opener=lambda name, flags: os.open(name, flags, 0o600))


def lock_outputs(*paths) -> list[OutputLock]:
    """Lock every output given, or none: a refusal releases the locks already taken."""
    locks: list[OutputLock] = []
    try:
        for path in paths:
            if path is not None:
                locks.append(OutputLock(path).acquire())
    except BoomError:
        for lock in locks:
            lock.release()
        raise
    return locks
