"""Bots. An agent sees only a seat's view (never the game) and answers one decision at a time."""

from __future__ import annotations

import random

from .engine import Decision


def decision_rng(seed: int, view: dict, decision: Decision) -> random.Random:
    """A generator fixed by the bot's seed and the decision alone, so a bot keeps no state between
    decisions: a game resumed from its saved decisions continues exactly as it would have."""
    picked = len(view["table"][view["seat"]]["face_up"]) + (1 if view["throw"] else 0)
    return random.Random(f"{seed}/{decision.round}/{decision.kind}/{decision.category}/{picked}")


class RandomAgent:
    """Uniformly random legal decisions (replayable: see decision_rng)."""

    kind = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def decide(self, view: dict, decision: Decision):
        return decision_rng(self.seed, view, decision).choice(decision.options)


BOTS = {"random": RandomAgent}


def agent_seed(game_seed: int, seat: int) -> int:
    """Each bot's generator derives from the game seed, so a seed fixes the whole game."""
    return game_seed * 1_000_003 + seat * 7_919 + 1
