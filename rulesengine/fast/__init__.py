"""Games at compiled speed: the engine's games, played by code made for speed, the engine their oracle.

batch.py plays thousands of random-seat games of a drafting edition at once in numpy arrays
(lockstep rounds; each game's deal from its own generator, each seat's decisions from the random
bot's seeds, the edition's scoring expressions as array code: arrays.py, draws.py): the same games
as the engine for the same seeds. What it does not play (fallback() says why) the engine plays.
"""

from __future__ import annotations

__all__: list[str] = []
