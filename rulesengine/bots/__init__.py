"""Bots worth playing against. Each sees one seat's view (never the game) and answers one decision.

greedy: the best expected gain this round, from the edition's compiled scoring (any edition).
search: information-set Monte Carlo: sampled worlds, greedy rollouts to the end of the round.
"""

from .greedy import GreedyAgent
from .search import SearchAgent

__all__ = ["GreedyAgent", "SearchAgent"]
