"""Seats that decide by themselves. Each sees one seat's view (never the game) and answers one decision.

random: uniformly random legal decisions.
greedy1: the card that adds most to the seat's cards of the round as they stand (one pick ahead).
greedy: the best expected gain this round, from the edition's compiled scoring (any edition).
search: flat Monte Carlo over sampled worlds, greedy rollouts to the end of the round.
ismcts: information-set Monte Carlo tree search over its own picks, valued by its chance to win the game.
blend: the search bot's rollouts over every option plus the greedy bot's expectation (low-noise).
Their measured strength: docs/bots.md (`boom ladder`).
Also here: the advice behind the terminal's `?`, determinization, and the tournament runner.
Each name is imported when first used (PEP 562): random seats never load the greedy bot's code.
"""

from __future__ import annotations

import importlib

_WHERE = {"BOTS": ".registry", "RandomAgent": ".registry", "agent_seed": ".registry", "make_bot": ".registry",
          "GreedyAgent": ".greedy", "SearchAgent": ".search", "OnePlyAgent": ".one_ply", "IsmctsAgent": ".ismcts",
          "BlendAgent": ".blend"}


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BOTS", "BlendAgent", "GreedyAgent", "IsmctsAgent", "OnePlyAgent", "RandomAgent", "SearchAgent",
           "agent_seed", "make_bot"]
