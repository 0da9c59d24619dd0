"""Calls spread over local worker processes, stopped at once when the driver is interrupted or stops reading.

Why not concurrent.futures: a ProcessPoolExecutor left by an exception waits, in its shutdown and again at the
interpreter's exit, for every call already submitted: a SIGINT to the driver alone (`kill -INT PID`, a
supervisor) left `boom ladder`, `boom tune` or `boom tournament --jobs` playing on to the end of what it had
handed out. A multiprocessing pool is terminated when its `with` block is left, whatever the reason. Its workers
ignore SIGINT: a terminal's Ctrl-C reaches the whole process group, and a worker that died of it mid-call would
leave its result missing and the driver waiting; the driver answers it alone.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator


def numbered_results(jobs: int, function: Callable, arguments: Iterable[tuple], initializer: Callable | None = None,
                     initargs: tuple = ()) -> Iterator[tuple]:
    """(position, function(*arguments[position])) for every call, in the order they finish, on `jobs` worker
    processes (each started by initializer(*initargs), if given); the workers are terminated when this generator
    ends, is closed or raises (an interruption, a call's error re-raised here)."""
    calls = [(position, function, args) for position, args in enumerate(arguments)]
    with multiprocessing.get_context().Pool(jobs, initializer=_started, initargs=(initializer, initargs)) as pool:
        yield from pool.imap_unordered(_numbered, calls)


def _started(initializer: Callable | None, initargs: tuple) -> None:
    """A worker's start: SIGINT is the driver's to answer; then the caller's own start, if any."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


def _numbered(call: tuple) -> tuple:
    position, function, arguments = call
    return position, function(*arguments)
