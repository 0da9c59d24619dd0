"""Bots. An agent sees only a seat's view (never the game) and answers one decision at a time.

Every bot is built the same way, BOTS[kind](seed, edition=edition, **options), and keeps no state
between decisions (see bots.seeding.decision_rng), so a resumed game replays identically.
"""

from __future__ import annotations

from ..edition.model import Edition
from ..game.state import Decision
from .greedy import GreedyAgent
from .search import SearchAgent
from .seeding import agent_seed, decision_rng


class RandomAgent:
    """Uniformly random legal decisions (replayable: see decision_rng)."""

    kind = "random"

    def __init__(self, seed: int = 0, edition: Edition | None = None):
        self.seed = seed

    def decide(self, view: dict, decision: Decision):
        return decision_rng(self.seed, view, decision).choice(decision.options)


BOTS = {"random": RandomAgent, "greedy": GreedyAgent, "search": SearchAgent}


def make_bot(kind: str, edition: Edition, seed: int, **options):
    """A bot of this kind for this edition; options go to the bots that take them (search budget)."""
    cls = BOTS[kind]
    if kind == "search":
        return cls(seed, edition, **options)
    return cls(seed, edition)


def parse_seats(text: str) -> list[str]:
    """The bot of each seat from a line-up such as "greedy,random,random"; ValueError says what is wrong."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot '{unknown[0]}' (bots: {', '.join(BOTS)})")
    if not kinds:
        raise ValueError("name at least one bot")
    return kinds


__all__ = ["BOTS", "GreedyAgent", "RandomAgent", "SearchAgent", "agent_seed", "decision_rng", "make_bot", "parse_seats"]
