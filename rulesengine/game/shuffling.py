"""random.Random.shuffle, drawn the same way in one Python frame.

The deal shuffles the deck twice a round and the greedy bot shuffles thousands of lists a game;
random.shuffle makes a Python call (_randbelow) per item. This gives the same order and leaves the
generator in the same state, so games seeded before it replay unchanged.
"""

from __future__ import annotations

import random

_STEPS: dict = {}   # list length -> (place, places drawn from, bits to draw) of each swap, from the last


def _steps(size: int) -> tuple:
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


def shuffle(rng: random.Random, items: list) -> None:
    """rng.shuffle(items): swap each place, from the last, with one drawn by _randbelow's rejection
    of getrandbits, as random.Random.shuffle does."""
    if type(rng) is not random.Random:  # a generator drawing otherwise: its own shuffle
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(items)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
