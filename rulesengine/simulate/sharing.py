"""A run's blocks of shards shared between this process and `jobs - 1` workers, each taking the next block when
it is free, so that --jobs 2 keeps two cores busy to the end.

Why not a process pool: a pool's driver waits while two fresh workers play, and keeps a block queued ahead for
each, so a worker could be left with two blocks when the others had none (a greedy block is seconds), and the
driver's own work (the results' merge) ran as a third process on two cores (#35: --jobs 2 of 100,000 random
games at 1.74x of --jobs 1 by the wall clock). Here the driver plays blocks too, one worker less is forked,
and every process claims the next block from one shared counter: none is assigned ahead. The results come back
in any order; merge_in_order (runner.py) merges them in shard order, so the figures are those of --jobs 1.

A worker forked here starts with the driver's editions and their compiled programs (source.remember); with
the "spawn" start method it builds them from their text (source.compiled). It never prints and never raises:
a failure comes back as data and is raised here.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Iterator

from .shards import play_shards_from_sources


class WorkerFailed(RuntimeError):
    """A worker stopped on an unexpected exception (its traceback is the message) or died."""


def shared_blocks(blocks: list, workers: int, arguments: tuple) -> Iterator:
    """The ShardResults (or ShardFailures) of every block (first, last), in the order they are played, by this
    process and `workers` worker processes; arguments: (sources, layouts, seed, games, batched)."""
    context = multiprocessing.get_context()
    claimed, sending = context.Value("l", 0), context.Lock()
    receive, send = context.Pipe(duplex=False)
    processes = [context.Process(target=_work, args=(worker, blocks, claimed, sending, send, arguments),
                                 daemon=True) for worker in range(workers)]
    done: set = set()
    try:
        for process in processes:
            process.start()
        send.close()   # the workers hold their own ends
        while (index := _claim(claimed, len(blocks))) is not None:
            yield from _played(blocks[index], arguments)
            while len(done) < workers and receive.poll():   # what came back meanwhile, without waiting
                yield from _received(receive, done)
        while len(done) < workers:
            if receive.poll(1.0):
                yield from _received(receive, done)
            elif any(not process.is_alive() and worker not in done for worker, process in enumerate(processes)):
                if not receive.poll():
                    raise WorkerFailed("a worker process stopped before it had played its games (killed?)")
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
        receive.close()


def _claim(claimed, count: int) -> int | None:
    """The next block no process has taken, taken now; None when every block is taken."""
    with claimed.get_lock():
        index = claimed.value
        if index >= count:
            return None
        claimed.value = index + 1
    return index


def _played(block: tuple, arguments: tuple) -> list:
    sources, layouts, seed, games, batched = arguments
    first, last = block
    return play_shards_from_sources(sources, layouts, seed, first, last, games, batched)


def _received(receive, done: set) -> Iterator:
    """The results one message from a worker carries (its end noted in done; its failure raised)."""
    try:
        worker, kind, payload = receive.recv()
    except EOFError:   # every worker's end closed, one without saying it was done
        raise WorkerFailed("a worker process stopped before it had played its games (killed?)") from None
    if kind == "failed":
        raise WorkerFailed(payload)
    if kind == "done":
        done.add(worker)
        return
    yield from payload


def _work(worker: int, blocks: list, claimed, sending, send, arguments: tuple) -> None:
    """A worker: the next unclaimed block, played and sent back, until none is left."""
    try:
        while (index := _claim(claimed, len(blocks))) is not None:
            played = _played(blocks[index], arguments)
            with sending:                               # one message at a time in the pipe
                send.send((worker, "played", played))
        with sending:
            send.send((worker, "done", None))
    except BaseException:  # noqa: BLE001 - said to the driver, which raises it: a worker never prints
        with sending:
            send.send((worker, "failed", traceback.format_exc()))
    finally:
        send.close()
