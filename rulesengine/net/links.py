"""One client connection of the server: the seat it proved, its message budget and its outbox.

It exists so that the server's module holds the tables and messages, and this one what a single
connection owns. It never reads or sends a message itself: the server decides what goes in the outbox.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import websockets
from websockets.asyncio.server import ServerConnection

from .protocol import Limits

OUTBOX = 256  # messages waiting for one client; a client that lets more pile up is too slow and is closed


@dataclass(eq=False)  # a connection is itself: kept in sets, compared by identity
class Link:
    """One client connection: the seat it proved (if any) and its message budget."""

    socket: ServerConnection
    allowance: float
    checked: float
    table: str | None = None
    seat: int | None = None
    refused: int = 0
    told_too_fast: float = field(default=-1.0)
    address: str | None = None  # the address its budget is kept for (guard.address_key)
    watching: str | None = None  # the table it watches as a spectator
    hop: object | None = None  # in a cluster: the connection to the node playing its table (cluster.py relays)
    outbox: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(OUTBOX))

    async def write(self) -> None:
        """Forever: send what is queued for this client, in order; a slow client delays only itself."""
        while True:
            text = await self.outbox.get()
            try:
                await self.socket.send(text)
            except websockets.ConnectionClosed:
                return

    def within_rate(self, limits: Limits, now: float) -> bool:
        """Spend one message of this client's budget (a token bucket); False when it has none left."""
        self.allowance = min(float(limits.burst), self.allowance + (now - self.checked) * limits.rate)
        self.checked = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True
