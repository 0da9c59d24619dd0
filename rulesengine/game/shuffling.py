"""random.Random.shuffle, drawn the same way in one Python frame.

The deal shuffles the deck twice a round and the greedy bot shuffles thousands of lists a game;
random.shuffle makes a Python call (_randbelow) per item. This gives the same order and leaves the
generator in the same state, so games seeded before it replay unchanged.
"""

from __future__ import annotations

import random


def shuffle(rng: random.Random, items: list) -> None:
    """rng.shuffle(items): swap each place, from the last, with one drawn by _randbelow's rejection
    of getrandbits, as random.Random.shuffle does."""
    if type(rng) is not random.Random:  # a generator drawing otherwise: its own shuffle
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
