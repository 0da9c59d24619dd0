"""Randomness for bots that keep no state: every draw is fixed by the bot's seed and the decision.

A game resumed from its saved decisions must continue exactly as it would have, so a bot may not
carry a generator from one decision to the next.
"""

from __future__ import annotations

import random


def decision_rng(seed: int, view: dict, decision) -> random.Random:
    """A generator fixed by the bot's seed and the decision alone (never by what the seat cannot see)."""
    picked = len(view["table"][view["seat"]]["face_up"]) + (1 if view["throw"] else 0)
    return random.Random(f"{seed}/{decision.round}/{decision.kind}/{decision.category}/{picked}")


def agent_seed(game_seed: int, seat: int) -> int:
    """Each bot's generator derives from the game seed, so a seed fixes the whole game."""
    return game_seed * 1_000_003 + seat * 7_919 + 1
