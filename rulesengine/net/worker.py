"""One worker process of a server: it plays its share of the tables, each call within a CPU and memory limit.

The front (server.py) never runs a game: it sends each request for a table to the worker that owns the table
(workers.py) and sends on the frames it gets back. Here each request, and each bot decision, is one call for
one table whose CPU time is measured on its thread, in a process with a memory limit: a table whose call went
over is stopped alone, with a message to its seats, and the worker goes on with the others; a call that does
not end is seen by the front (it reads the thread's CPU time from /proc through the slots below), which stops
the process and starts it again without that table. Requests are answered on the main thread while the bots
think on another; the bots of one table, and of all the tables one address opened, get a
share of the CPU (token buckets of CPU seconds), so a host's twenty tables of search bots cannot take a core
from everyone. The process dies with the front (PR_SET_PDEATHSIG): a killed server leaves no orphan writing.
"""

from __future__ import annotations

import ctypes
import logging
import os
import pickle
import queue
import resource
import select
import signal
import socket
import struct
import sys
import threading
import time

from ..errors import BoomError
from .guard import Bucket
from .protocol import Limits, ProtocolError
from .stores import open_store
from .tables import Tables

log = logging.getLogger("boom.net")
HEADER = struct.Struct("!I")
OPENING = "#open"  # what `current` holds while a worker reads an edition a host sent


def frame(value) -> bytes:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def complete_frames(inbox: bytearray) -> list:
    """The whole frames at the start of inbox, unpickled (and taken out of it); a partial one stays."""
    out, start = [], 0
    while len(inbox) - start >= HEADER.size:
        size = HEADER.unpack_from(inbox, start)[0]
        if len(inbox) - start - HEADER.size < size:
            break
        body = bytes(inbox[start + HEADER.size : start + HEADER.size + size])
        out.append(pickle.loads(body))  # noqa: S301 - our own front, over a socketpair
        start += HEADER.size + size
    del inbox[:start]
    return out


def _die_with_parent() -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:
        os._exit(0)


class Slot:
    """What one thread of a worker is busy with, in memory the front reads (its post-mortem and watchdog): the
    table, the thread's id and its CPU time when the call began."""

    def __init__(self, shared):
        self.shared = shared  # multiprocessing Array of 64 bytes: code (32), tid (8), cpu at start (8)

    def begin(self, code: str) -> float:
        """Note the call begun; its thread's CPU time now (read once: a system call)."""
        now = time.thread_time()
        self.shared[:48] = struct.pack("32sqd", code.encode(), threading.get_native_id(), now)
        return now

    def end(self) -> None:
        self.shared[:32] = bytes(32)


def read_slot(shared) -> tuple[str, int, float]:
    code, tid, cpu = struct.unpack("32sqd", bytes(shared[:48]))
    return code.rstrip(b"\0").decode(), tid, cpu


class Worker:
    """The loop of one worker process: requests on the main thread; the bots think on a thread of their own,
    so a request never waits for a bot's whole decision."""

    def __init__(self, sock: socket.socket, tables: Tables, limits: Limits, slots):
        self.sock, self.tables, self.limits = sock, tables, limits
        self.main, self.thinker = Slot(slots[0]), Slot(slots[1])
        self.table_cpu: dict[str, Bucket] = {}
        self.address_cpu: dict[str | None, Bucket] = {}
        self.questions: queue.SimpleQueue = queue.SimpleQueue()
        self.answers: queue.SimpleQueue = queue.SimpleQueue()
        self.wake_read, self.wake_write = os.pipe()
        self.thinking = False
        # requests are read as they come, all that is there in one read, and their answers sent together: under
        # load a worker answers a batch per wake-up with two system calls, not four per request
        self.inbox = bytearray()
        self.outbox: list[bytes] = []

    def run(self) -> None:
        # the main thread takes the interpreter back from a thinking bot within a millisecond (not the default 5):
        # a request waits that long for a bot, no more (no lower priority for the bots' thread: holding the
        # interpreter while the system keeps it waiting, it would keep the main thread waiting too)
        sys.setswitchinterval(0.001)
        threading.Thread(target=self._think, name="bots", daemon=True).start()
        while True:
            if not self.thinking:
                question = self._bot_question()
                if question is not None:
                    self.thinking = True
                    self.questions.put(question)
            readable, _, _ = select.select([self.sock, self.wake_read], [], [], 0.5)
            if self.wake_read in readable:
                os.read(self.wake_read, 4096)
                while not self.answers.empty():
                    self._bot_answered(*self.answers.get())
            if self.sock in readable:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    return  # the front closed the connection
                self.inbox += chunk
                for request in complete_frames(self.inbox):
                    self._answer(request)
            if self.outbox:
                self.sock.sendall(b"".join(self.outbox))
                self.outbox.clear()

    def _call(self, code: str | None, call):
        """call() for one table, its CPU time measured: a table whose call went over the limit (or over memory)
        is stopped, and the request refused with `stopped`. A call that never ends is the front's to stop."""
        started = self.main.begin(code or OPENING)
        try:
            result = call()
        except MemoryError:
            result, reason = None, "one call needed more memory than the server allows a table"
        else:
            spent = time.thread_time() - started
            budget = self.limits.table_cpu if code is not None else self.limits.edition_cpu
            reason = None if spent <= budget else self._too_long(budget)
        finally:
            self.main.end()
        if reason is None:
            return result
        if code is None:
            raise ProtocolError("bad_edition", f"reading this edition went over the server's limits ({reason})")
        self._push(self.tables.stop(code, reason))
        raise ProtocolError("stopped", f"table {code} is stopped: {reason}. The other tables go on.")

    def _too_long(self, budget: float | None = None) -> str:
        return f"one call took more than {budget or self.limits.table_cpu:g} s of the server's time"

    def _answer(self, request) -> None:
        kind, number, *args = request
        code = args[0] if kind in ("join", "resume", "decide", "left", "attach", "watch", "adopt") else None
        try:
            result = self._call(code, lambda: getattr(self, f"on_{kind}")(*args))
        except ProtocolError as exc:
            self.outbox.append(frame(("refused", number, exc.code, exc.message, exc.ref)))
        except BoomError as exc:  # the engine refused what the table checked: a bug, reported to its sender
            self.outbox.append(frame(("refused", number, "internal", exc.diagnostics[0].message, None)))
        except Exception:  # noqa: BLE001 - a bug in one request must not take the worker's other tables down
            log.exception("worker: internal error on a %s request", kind)
            message = "the server failed on this message (a bug, logged); try again or report it"
            self.outbox.append(frame(("refused", number, "internal", message, None)))
        else:
            self.outbox.append(frame(("ok", number, result)))

    def _push(self, frames) -> None:
        if frames:
            self.outbox.append(frame(("frames", frames)))

    # -- requests --------------------------------------------------------------------------------
    def on_open(self, message, address):
        return self.tables.open(message, address)

    def on_join(self, code, name, ref, advice=False):
        return self.tables.join(code, name, ref, advice)

    def on_resume(self, code, token, ref, advice=False):
        return self.tables.resume(code, token, ref, advice)

    def on_decide(self, code, seat, message):
        return self.tables.decide(code, seat, message)

    def on_watch(self, code, ref):
        return self.tables.watch(code, ref)

    def on_left(self, code, seat):
        return self.tables.left(code, seat)

    def on_attach(self, code, seat):
        """After this worker was restarted: a seat whose connection stayed with the front is still there."""
        return self.tables.attach(code, seat)

    def on_adopt(self, code):
        """A table the node took over from a node that died: replayed from the log here."""
        return self.tables.adopt(code)

    def on_tick(self):
        return self.tables.tick()

    def on_codes(self):
        return list(self.tables.tables)

    def on_ping(self):
        return True

    # -- bots ------------------------------------------------------------------------------------
    def _buckets(self, code: str) -> tuple[Bucket, Bucket]:
        limits = self.limits
        table = self.tables.tables.get(code)
        host = table.host if table is not None else None
        mine = self.table_cpu.setdefault(code, Bucket(limits.bot_cpu_burst, limits.bot_cpu_rate))
        theirs = self.address_cpu.setdefault(host, Bucket(limits.bot_cpu_burst * 2, limits.bot_cpu_per_address))
        return mine, theirs

    def _bot_question(self):
        now = time.monotonic()
        return self.tables.bot_question(lambda code: all(b.spend(now, 0.0) for b in self._buckets(code)))

    def _think(self) -> None:
        """The bots' thread: one decision at a time, from a view made on the main thread."""
        while True:
            code, decision, bot, view = self.questions.get()
            started = self.thinker.begin(code)
            try:
                answer, problem = bot.decide(view, decision), None
            except MemoryError:
                answer, problem = None, "one call needed more memory than the server allows a table"
            except Exception as exc:  # noqa: BLE001 - a failing bot stops its table, not the worker
                answer, problem = None, f"its bots failed ({type(exc).__name__})"
            finally:
                self.thinker.end()
            self.answers.put((code, decision, answer, problem, time.thread_time() - started))
            os.write(self.wake_write, b"!")

    def _bot_answered(self, code, decision, answer, problem, spent) -> None:
        self.thinking = False
        now = time.monotonic()
        for bucket in self._buckets(code):
            bucket.spend(now, 0.0)
            bucket.level -= spent  # may go below zero: the table then waits until the bucket refills
        if problem is None and spent > self.limits.table_cpu:
            problem = self._too_long()
        if problem is not None:
            self._push(self.tables.stop(code, problem))
            return
        try:
            self._push(self._call(code, lambda: self.tables.bot_answer(code, decision, answer)))
        except ProtocolError:
            pass


def run_worker(sock: socket.socket, db: dict, fsync: bool, limits: Limits, codes: list, share, slots) -> None:
    """The worker process's main: its own connection to the database (db: open_store's where, node and key),
    its tables restored, then the loop."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the front, which stops its workers
    if limits.worker_memory:
        memory = limits.worker_memory * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    store = open_store(db["where"], fsync, owner=False, node=db["node"], key=db["key"])
    tables = Tables(store, limits)
    tables.share = share
    for code in codes:
        tables._restore(code)
    try:
        Worker(sock, tables, limits, slots).run()
    finally:
        store.close()
