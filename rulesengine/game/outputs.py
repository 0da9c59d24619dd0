"""Where a game writes: output paths checked before the game starts, atomic writes, one game per file.

An output is a regular file or a new path in a writable folder; a device, a FIFO, a symbolic link
or a folder is refused before the game starts (exit 2), so nothing is ever replaced by a regular
file. While a game runs it holds an exclusive lock per output (a `.NAME.lock` file beside it), so
a second game given the same file is refused instead of interleaving two games in one log.
Output paths come from the command line only: this module never takes one from a save or a log.

Every file boom creates is created here, by `create_new`: O_CREAT|O_EXCL|O_NOFOLLOW in its folder,
so a name planted beforehand (a symbolic link to ~/.bashrc, a hard link, a FIFO) is never opened
and written through; an output then takes its place by a rename, which replaces a planted link
itself and never writes where it points.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
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


_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def create_new(folder: Path, stem: str, *, private: bool = False) -> tuple[int, Path]:
    """A new file `.STEM.PID.RANDOM.tmp` in folder, created by this call (O_CREAT|O_EXCL|O_NOFOLLOW):
    never a file, link or FIFO that was there before. Its descriptor and its path. private: 0600."""
    for _ in range(100):
        path = Path(folder) / f".{stem}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(path, _NEW, 0o600 if private else 0o666), path
        except FileExistsError:
            continue
    raise OSError(errno.EEXIST, "no new temporary name could be made in its folder")


def write_atomic(path, text: str, *, private: bool = False) -> None:
    """Write through a new temporary file renamed over the target: a crash leaves the old complete file.
    private: readable by its owner only (a save holds the seed, so every hand)."""
    target = Path(path)
    tmp = None
    try:
        fd, tmp = create_new(target.absolute().parent, target.name, private=private)
        with open(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        if tmp is not None:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
        raise unwritable(path, exc) from None


class AppendedFile:
    """An output written as it grows (the log): created new beside its target and renamed over it
    when opened, then written through the one descriptor until closed, never reopened by its name
    (a link planted or swapped at the path while the game runs changes nothing)."""

    def __init__(self, path, first: str, *, private: bool = True):
        target = Path(path)
        self.path = path
        tmp = None
        try:
            fd, tmp = create_new(target.absolute().parent, target.name, private=private)
            self.handle = open(fd, "w", encoding="utf-8")
            self.handle.write(first)
            self.handle.flush()
            os.replace(tmp, target)
        except OSError as exc:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    tmp.unlink(missing_ok=True)
            raise unwritable(path, exc) from None

    def write(self, text: str) -> None:
        try:
            self.handle.write(text)
            self.handle.flush()
        except OSError as exc:
            raise unwritable(self.path, exc) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.handle.close()


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
                fd = _open_lock_file(self.path)
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


def _open_lock_file(path: Path) -> int:
    """The lock file: created new (O_EXCL), or the one another game holds or a crash left, opened
    without following a link and only if it is a regular file. Nothing is ever written to it."""
    flags = os.O_RDWR | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block the open
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EEXIST, f"{path.name} beside it is not a regular file")
    return fd


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


@contextlib.contextmanager
def holding(*paths):
    """Outputs written at the end of a long run (a record, a report, an export): checked, and locked
    from now until they are written, so no other game or run writes them meanwhile."""
    check_outputs(*paths)
    locks = lock_outputs(*paths)
    try:
        yield
    finally:
        for lock in locks:
            lock.release()
