"""Seats that decide by themselves. Each sees one seat's view (never the game) and answers one decision.

random: uniformly random legal decisions.
greedy: the best expected gain this round, from the edition's compiled scoring (any edition).
search: information-set Monte Carlo: sampled worlds, greedy rollouts to the end of the round.
Also here: the advice behind the terminal's `?`, determinization, and the tournament runner.
"""

from .greedy import GreedyAgent
from .registry import BOTS, RandomAgent, agent_seed, make_bot
from .search import SearchAgent

__all__ = ["BOTS", "GreedyAgent", "RandomAgent", "SearchAgent", "agent_seed", "make_bot"]
