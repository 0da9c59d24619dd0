"""A table's seats and its code: who sits where, and the code friends type to join.

A code lets anyone who has it join a table's open seat, so it is drawn from the system's CSPRNG and is
long enough not to be found by trying (look-ups of unknown codes are limited per address).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8  # 32**8 = 2**40 codes: with look-ups of unknown codes limited per address, not found by trying


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


@dataclass
class Seat:
    """A seat: a player who joins over the network, or a bot on the server."""

    name: str | None
    kind: str  # "player" or "bot"
    token_hash: str | None = None
    connected: bool = False
    gone_since: float | None = None  # when its player dropped (or the server restarted)
    stand_in: bool = False  # a bot plays it until its player returns
    cursor: int = 0  # how many of the game's events this seat has been sent
    asked: tuple = ()  # the decisions this seat was last told it has to make
    advice: bool = False  # its connection asked for the advice of each pick (the page's `?`; it costs a bot's look)
    forfeited: bool = False  # its clock ran out at a table where that forfeits: a bot plays it to the end

    def status(self) -> str:
        if self.forfeited:
            return "forfeit"
        if self.kind == "bot" or self.stand_in:
            return "bot"
        if self.name is None:
            return "open"
        return "connected" if self.connected else "away"
