"""The kinds a seat may be, and the bots of a recorded game's seats, rebuilt to re-decide them.

A save or a log names each seat's kind; the game package checks those files but never imports the
bots, so it is given SEAT_KINDS and recorded_bots by its caller. Bots are stateless and seeded
(agent_seed), so a bot rebuilt here decides exactly as it did in the game; a search bot on a time
budget cannot (how far it gets depends on the machine) and is left out.
"""

from __future__ import annotations

from ..edition.model import Edition
from .registry import BOTS, agent_seed, make_bot
from .search import search_budget
from .seeding import seeding_for

SEAT_KINDS = ("human", *BOTS)


def recorded_bots(header, edition: Edition) -> dict:
    """seat -> bot for every bot seat of a game's header (a save_fields.Header) that can re-decide."""
    search = search_budget(header.options.get("search_rollouts"), header.options.get("search_seconds"))
    return {
        seat: make_bot(kind, edition, agent_seed(header.seed, seat), seeding=seeding_for(header.format), **search)
        for seat, kind in enumerate(header.seats)
        if kind in BOTS and not (kind == "search" and "search_seconds" in header.options)
    }
