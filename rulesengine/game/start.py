"""Which state machine plays an edition: the drafting round (state.Game) or a flow's steps (steps.StepsGame).

Every front end starts games here, so a new kind of round is added in one place. It never looks
inside a game once started.
"""

from __future__ import annotations

from ..edition.model import Edition
from .state import Game
from .steps import StepsGame


def new_game(edition: Edition, players: list[str], seed: int = 0):
    """A game of this edition, dealt and waiting for its first decisions."""
    if edition.flow is not None:
        return StepsGame(edition, players, seed)
    return Game(edition, players, seed)
