"""Seats that decide by themselves. Each sees one seat's view (never the game) and answers one decision.

random: uniformly random legal decisions.
greedy: the best expected gain this round, from the edition's compiled scoring (any edition).
search: information-set Monte Carlo: sampled worlds, greedy rollouts to the end of the round.
Also here: the advice behind the terminal's `?`, determinization, and the tournament runner.
Each name is imported when first used (PEP 562): random seats never load the greedy bot's code.
"""

from __future__ import annotations

import importlib

_WHERE = {"BOTS": ".registry", "RandomAgent": ".registry", "agent_seed": ".registry", "make_bot": ".registry",
          "GreedyAgent": ".greedy", "SearchAgent": ".search"}


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BOTS", "GreedyAgent", "RandomAgent", "SearchAgent", "agent_seed", "make_bot"]
