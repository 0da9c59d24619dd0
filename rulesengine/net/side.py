"""The game side in the server's own process (`boom serve --workers 0`): the tables played on its event loop.

The front (server.py) awaits the same calls whether the games run here or in worker processes
(workers.py); here each call is the table core's (tables.py) itself, and the bots think in a thread
(a random bot at once). It is the simplest way to run and to test a server; a table's work then shares
the event loop with every connection, which the worker processes avoid.
"""

from __future__ import annotations

import asyncio
import logging
import time

from .protocol import Limits, encode
from .storage import Store
from .tables import Tables

log = logging.getLogger("boom.net")


class InProcess:
    def __init__(self, store: Store, limits: Limits, clock, wall=time.time):
        self.core = Tables(store, limits, clock, wall)
        self.core.restore_all()
        self.deliver = lambda frames: None  # set by the front
        self.held = lambda code: []
        self._wake = asyncio.Event()
        self._bots: asyncio.Task | None = None

    async def open(self, message: dict, address) -> str:
        hosted = self.core.open(message, address)
        self._wake.set()
        return encode(hosted)

    async def join(self, code: str, name: str, ref, advice: bool = False):
        out = self.core.join(code, name, ref, advice)
        self._wake.set()
        return out

    async def resume(self, code: str, token: str, ref, advice: bool = False):
        out = self.core.resume(code, token, ref, advice)
        self._wake.set()
        return out

    async def decide(self, code: str, seat: int, message: dict):
        out = self.core.decide(code, seat, message)
        self._wake.set()
        return out

    def holds(self, code: str) -> bool:
        """The table is played here now (a cluster routes the others' seats to their owners)."""
        return code in self.core.tables

    async def adopt(self, code: str):
        out = self.core.adopt(code)
        self._wake.set()
        return out

    async def watch(self, code: str, ref):
        return self.core.watch(code, ref)

    async def left(self, code: str, seat: int):
        return self.core.left(code, seat)

    async def tick(self):
        out = self.core.tick()
        self._wake.set()
        return out

    async def start(self, share: str | None = None) -> None:
        self.core.share = share
        self._bots = asyncio.get_running_loop().create_task(self._play_bots())

    async def close(self) -> None:
        if self._bots is not None:
            self._bots.cancel()

    async def _play_bots(self) -> None:
        """Forever: one bot decision at a time, the tables in turn; asleep while no bot is asked anything."""
        while True:
            question = self.core.bot_question()
            if question is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            code, decision, bot, view = question
            try:
                if getattr(bot, "kind", None) == "random":
                    answer = bot.decide(view, decision)
                else:  # a bot that thinks does so in a thread, so the connections are not kept waiting
                    answer = await asyncio.to_thread(bot.decide, view, decision)
                self.deliver(self.core.bot_answer(code, decision, answer))
            except Exception:  # noqa: BLE001 - a failing bot stops its table, not the server
                log.exception("table %s: the bots stopped", code)
                self.deliver(self.core.stop(code, "its bots failed (a bug, logged)"))
            await asyncio.sleep(0)  # the connections go on
