"""The kinds a seat may be, and the bots of a recorded game's seats, rebuilt to re-decide them.

A save or a log names each seat's kind; the game package checks those files but never imports the
bots, so it is given SEAT_KINDS and recorded_bots by its caller. Bots are stateless and seeded
(agent_seed), so a bot rebuilt here decides exactly as it did in the game; a searching bot
on a time budget cannot (how far it gets depends on the machine) and is left out.
"""

from __future__ import annotations

from ..edition.model import Edition
from .registry import BOTS, SEARCHING, agent_seed, bot_options, make_bot
from .seeding import seeding_for

SEAT_KINDS = ("human", *BOTS)


def recorded_bots(header, edition: Edition) -> dict:
    """seat -> bot for every bot seat of a game's header (a save_fields.Header) that can re-decide."""
    rollouts, seconds = header.options.get("search_rollouts"), header.options.get("search_seconds")
    return {
        seat: make_bot(kind, edition, agent_seed(header.seed, seat), seeding=seeding_for(header.format),
                       **bot_options(kind, rollouts, seconds))
        for seat, kind in enumerate(header.seats)
        if kind in BOTS and not (kind in SEARCHING and seconds is not None)
    }
