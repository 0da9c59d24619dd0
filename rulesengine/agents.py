"""Bots. An agent sees only a seat's view (never the game) and answers one decision at a time."""

from __future__ import annotations

import random

from .engine import Decision


class RandomAgent:
    """Uniformly random legal decisions, from its own seeded generator (replayable)."""

    kind = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def decide(self, view: dict, decision: Decision):
        return self.rng.choice(decision.options)


BOTS = {"random": RandomAgent}


def agent_seed(game_seed: int, seat: int) -> int:
    """Each bot's generator derives from the game seed, so a seed fixes the whole game."""
    return game_seed * 1_000_003 + seat * 7_919 + 1
