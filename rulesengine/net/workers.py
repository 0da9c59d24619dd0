"""The game side in worker processes (`boom serve --workers N`): the front's event loop never runs a game.

Each table is owned by one worker (worker.py), chosen when it opens (the one with the fewest tables); the
database stays the source of truth, so a worker that dies is started again on its tables, replayed from the
database, while every other worker goes on. The table it was working on when it died (a call over the CPU
limit that no timer could interrupt, or over memory) is the one stopped, its seats told; a request that was
waiting on the dead worker is answered `retry`, so its client answers again. The front awaits the same calls
as from side.InProcess; requests and answers are pickled over a socketpair (length-prefixed), never sent to
anyone else.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import os
import pickle
import socket
import zlib
from itertools import count

from .protocol import Limits, ProtocolError, encode, error
from .storage import Store, TableMoved
from .tables import CLOSE
from .worker import HEADER, OPENING, read_slot, run_worker

log = logging.getLogger("boom.net")


class WorkerHandle:
    """The front's side of one worker process: its socket, its requests waiting for answers, its tables."""

    def __init__(self, pool: WorkerPool, number: int, codes: list[str]):
        self.pool, self.number = pool, number
        context = multiprocessing.get_context("spawn")
        # what its main thread and its bots' thread are busy with (worker.Slot): the watchdog and the post-mortem
        self.slots = (context.Array("c", 64, lock=False), context.Array("c", 64, lock=False))
        self.culprit: str | None = None  # set by the watchdog when it stops the process for a table
        front, back = socket.socketpair()
        self.process = context.Process(
            target=run_worker,
            args=(back, pool.db, pool.fsync, pool.worker_limits, codes, pool.share, self.slots),
            name=f"boom-worker-{number}",
            daemon=True,
        )
        self.process.start()
        back.close()
        self.socket = front
        self.waiting: dict[int, tuple[str, str | None, asyncio.Future]] = {}  # kind, table, answer to come
        self.alive = True
        self.reader: asyncio.Task | None = None
        self.connected = asyncio.Event()
        self.outgoing: list[bytes] = []  # requests of this turn of the event loop, written together at its end

    async def connect(self) -> None:
        self.streams = await asyncio.open_unix_connection(sock=self.socket, limit=64 * 1024 * 1024)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        self.connected.set()

    async def request(self, kind: str, *args):
        if not self.alive:
            raise ProtocolError("retry", "the table's process is starting again; answer again in a moment")
        await self.connected.wait()
        number = next(self.pool.numbers)
        future = asyncio.get_running_loop().create_future()
        self.waiting[number] = (kind, args[0] if args and isinstance(args[0], str) else None, future)
        data = pickle.dumps((kind, number, *args), protocol=pickle.HIGHEST_PROTOCOL)
        if not self.outgoing:
            asyncio.get_running_loop().call_soon(self._send)
        self.outgoing.append(HEADER.pack(len(data)) + data)
        return await future

    def _send(self) -> None:
        if self.alive:
            self.streams[1].write(b"".join(self.outgoing))
        self.outgoing.clear()

    async def _read(self) -> None:
        reader = self.streams[0]
        try:
            while True:
                header = await reader.readexactly(HEADER.size)
                answer = pickle.loads(await reader.readexactly(HEADER.unpack(header)[0]))  # noqa: S301 - our worker
                if answer[0] == "frames":
                    self.pool.deliver(answer[1])
                    continue
                _, _, future = self.waiting.pop(answer[1], (None, None, None))
                if future is None or future.done():
                    continue
                if answer[0] == "ok":
                    future.set_result(answer[2])
                else:
                    future.set_exception(ProtocolError(answer[2], answer[3], answer[4]))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        self.alive = False
        if not self.pool.closing:
            await self.pool.lost(self)

    def busy_too_long(self) -> str | None:
        """The table of a call that has run past twice the CPU limit (plus 2 s) on either thread: its process
        is stopped for it (a call the worker could not stop by itself, e.g. stuck in C code)."""
        for slot in self.slots:
            code, tid, started = read_slot(slot)
            if not code:
                continue
            try:
                fields = open(f"/proc/{self.process.pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            spent = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") - started
            if spent > 2 * self.pool.limits.table_cpu + 2:
                return code
        return None

    def post_mortem(self) -> str | None:
        """The table the worker died on: the one the watchdog named, else the one a thread was busy with, the bots'
        thread first: a bot's decision is the long call that grows (a request is a move and its frames, a few ms,
        and blaming it stopped a live table that happened to be mid-request when its neighbour's bots were killed)."""
        if self.culprit is not None:
            return self.culprit
        for slot in reversed(self.slots):  # slots[1] the bots' thread, slots[0] the requests'
            code = read_slot(slot)[0]
            if code:
                return code
        return None

    def stop(self) -> None:
        self.alive = False
        if self.reader is not None:
            self.reader.cancel()
        self.socket.close()
        self.process.kill()
        self.process.join(5)


class WorkerPool:
    """N worker processes and which owns each table."""

    def __init__(self, store: Store, db: str, fsync: bool, limits: Limits, workers: int):
        self.store, self.fsync, self.limits, self.size = store, fsync, limits, workers
        # how a worker opens the same store: a cluster's workers write for their node, with the nodes' key
        key = getattr(store, "key", None)
        self.db = {"where": str(db), "node": store.node, "key": str(key.path) if key is not None else None}
        # an address's tables may sit in every worker: each gives its bots an equal part of the address's share
        self.worker_limits = dataclasses.replace(limits, bot_cpu_per_address=limits.bot_cpu_per_address / workers)
        self.owner: dict[str, WorkerHandle] = {}
        self.workers: list[WorkerHandle] = []
        self.numbers = count()
        self.share: str | None = None
        self.closing = False
        self.deliver = lambda frames: None  # set by the front
        self.held = lambda code: []  # set by the front: the seats of a table its connections hold
        self.stopped: list[str] = []  # tables stopped because their worker died on them

    async def start(self, share: str | None = None) -> None:
        self.share = share
        codes = self.store.codes(playing=True)
        shares = [codes[n :: self.size] for n in range(self.size)]
        self.workers = [WorkerHandle(self, n, shares[n]) for n in range(self.size)]
        for worker, mine in zip(self.workers, shares, strict=True):
            for code in mine:
                self.owner[code] = worker
            await worker.connect()
        for worker in self.workers:  # each has read its tables back: the server is ready
            await worker.request("ping")

    async def close(self) -> None:
        self.closing = True
        for worker in self.workers:
            worker.stop()

    def _of(self, code: str) -> WorkerHandle:
        """The worker owning a table; one not owned yet (a finished or unknown code) goes to a worker chosen by
        its code, which reads it from the database if a token opens it."""
        worker = self.owner.get(code)
        if worker is None:
            worker = self.workers[zlib.crc32(code.encode()) % len(self.workers)]
        return worker

    async def open(self, message: dict, address) -> str:
        counts = {w: 0 for w in self.workers}
        for owner in self.owner.values():
            counts[owner] = counts.get(owner, 0) + 1
        worker = min(self.workers, key=lambda w: (counts[w], w.number))
        hosted = await worker.request("open", message, address)
        self.owner[hosted["table"]] = worker
        return encode(hosted)

    async def join(self, code: str, name: str, ref, advice: bool = False):
        worker = self._of(code)
        out = await worker.request("join", code, name, ref, advice)
        self.owner[code] = worker
        return out

    async def resume(self, code: str, token: str, ref, advice: bool = False):
        worker = self._of(code)
        out = await worker.request("resume", code, token, ref, advice)
        self.owner[code] = worker
        return out

    def holds(self, code: str) -> bool:
        return code in self.owner

    async def adopt(self, code: str):
        """Play a table taken over from a node that died, in the worker with the fewest tables. The worker is named
        before it is asked, so that a second request for the table (its seats come back together) goes to the same
        worker, never to a second one that would play the table too."""
        worker = self.owner.get(code)
        if worker is None:
            counts = {w: 0 for w in self.workers}
            for owner in self.owner.values():
                counts[owner] = counts.get(owner, 0) + 1
            worker = min(self.workers, key=lambda w: (counts[w], w.number))
            self.owner[code] = worker
        return await worker.request("adopt", code)

    async def watch(self, code: str, ref):
        return await self._of(code).request("watch", code, ref)

    async def decide(self, code: str, seat: int, message: dict):
        return await self._of(code).request("decide", code, seat, message)

    async def left(self, code: str, seat: int):
        try:
            return await self._of(code).request("left", code, seat)
        except ProtocolError:
            return []

    async def tick(self):
        out = []
        for worker in self.workers:
            stuck = worker.busy_too_long() if worker.alive else None
            if stuck is not None:
                log.warning(
                    "worker %d: a call for table %s runs past its limit: stopping the process", worker.number, stuck
                )
                worker.culprit = stuck
                worker.process.kill()
                continue
            try:
                out += await worker.request("tick")
                codes = set(await worker.request("codes"))
            except ProtocolError:
                continue
            for code in [c for c, w in self.owner.items() if w is worker and c not in codes]:
                del self.owner[code]  # finished (and left memory) or closed: found again by its code if asked
        return out

    async def lost(self, dead: WorkerHandle) -> None:
        """A worker died: stop the table it was working on, start it again on its other tables, tell the
        seats whose requests were waiting to answer again, and the seats still connected where they are."""
        culprit = dead.post_mortem()
        log.warning("worker %d died (exit %s) on table %s", dead.number, dead.process.exitcode, culprit)
        reason = "one of its moves went over the server's limits (its process was stopped)"
        for kind, code, future in dead.waiting.values():
            if future.done():
                continue
            if kind == "open" and culprit == OPENING:  # reading the sent edition killed the worker: not again
                future.set_exception(ProtocolError("bad_edition", "reading this edition went over the server's limits"))
            elif code is not None and code == culprit:
                future.set_exception(ProtocolError("stopped", f"table {code} is stopped: {reason}"))
            else:
                future.set_exception(ProtocolError("retry", "the table's process was restarted; answer again"))
        if culprit is not None and self.owner.get(culprit) is dead:
            await self._stop(culprit, reason)
        await asyncio.to_thread(dead.process.join, 1)
        codes = [c for c, w in self.owner.items() if w is dead]  # after the waits: a table adopted meanwhile too
        fresh = WorkerHandle(self, dead.number, codes)
        self.workers[dead.number] = fresh
        for code in codes:
            self.owner[code] = fresh
        await fresh.connect()
        for code in codes:
            for seat in self.held(code):
                try:
                    self.deliver(await fresh.request("attach", code, seat))
                except ProtocolError:
                    pass

    async def _stop(self, culprit: str, reason: str) -> None:
        """Close the table a dead worker died on, its seats told. The store is written in a thread, never on the
        event loop (a database busy with the workers' writes, or far away, would hold every connection); until
        then the table stays the dead worker's, whose requests are answered `retry`. A table another node has
        claimed meanwhile (a cluster) is that node's: its seats are sent there."""
        try:
            await asyncio.to_thread(self.store.close_lobby, culprit)
        except TableMoved:
            moved = f"table {culprit} is served by another server now; reconnecting takes you there"
            told, detach = error("moved", moved), CLOSE
        else:
            self.stopped.append(culprit)
            told, detach = error("stopped", f"table {culprit} is stopped: {reason}. The other tables go on."), True
        del self.owner[culprit]
        self.deliver([(culprit, seat, encode(told), detach) for seat in self.held(culprit)])
