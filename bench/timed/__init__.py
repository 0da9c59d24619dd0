"""The lean game and the engine timed over a run of seeds, random seats, by this process's CPU time.

bench/compiled.py and bench/generated.py measure their compiled forms against these two in the same
run (alternating slices): both time them the same way, here.
"""

from __future__ import annotations

import os
import time

from handwritten.game import play as play_by_hand

from rulesengine import Game
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.game.loop import play

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def lean(module, players: int, seeds: range) -> float:
    """CPU seconds the lean hand-written game (module: its edition) takes to play these seeds."""
    start = time.process_time()
    for seed in seeds:
        play_by_hand(module, players, seed)
    return time.process_time() - start


def engine(edition, players: int, seeds: range) -> float:
    """CPU seconds the engine (Game and its random bots) takes to play these seeds."""
    start = time.process_time()
    for seed in seeds:
        game = Game(edition, NAMES[:players], seed, events=False)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
    return time.process_time() - start


def load() -> str:
    """The machine's 1-minute load average, as the benches print it."""
    return f"{os.getloadavg()[0]:.1f}"
