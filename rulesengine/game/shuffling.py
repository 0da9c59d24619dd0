"""random.Random.shuffle, drawn the same way in one Python frame.

The deal shuffles the deck twice a round and the greedy bot shuffles thousands of lists a game;
random.shuffle makes a Python call (_randbelow) per item. This gives the same order and leaves the
generator in the same state, so games seeded before it replay unchanged.
"""

from __future__ import annotations

import random
from functools import partial

_BY_LENGTH: dict = {}   # list length -> its shuffle, every swap written out


def _written_out(size: int):
    """shuffle(getrandbits, items) for lists of this length: random.Random.shuffle's loop unrolled, each
    place from the last swapped with one drawn by _randbelow's rejection of getrandbits (no loop, no
    tuple of steps read per swap: a fifth faster on the lists the bots shuffle)."""
    lines = [f"def shuffle_{size}(getrandbits, items):", "    pass"]
    for i in range(size - 1, 0, -1):
        bits = (i + 1).bit_length()
        lines += [f"    j = getrandbits({bits})", f"    while j > {i}:", f"        j = getrandbits({bits})",
                  f"    items[{i}], items[j] = items[j], items[{i}]"]
    namespace: dict = {}
    exec("\n".join(lines), namespace)   # made of integers only
    return namespace[f"shuffle_{size}"]


def shuffler(rng: random.Random, size: int):
    """f(items) = shuffle(rng, items) for lists of this length, looked up once: the greedy bot shuffles
    lists of a few lengths thousands of times a game."""
    if type(rng) is not random.Random:  # a generator drawing otherwise: its own shuffle
        return rng.shuffle
    written = _BY_LENGTH.get(size)
    if written is None:
        if len(_BY_LENGTH) > 512:   # lengths are few (hands, decks); a bound all the same
            _BY_LENGTH.clear()
        written = _BY_LENGTH[size] = _written_out(size)
    return partial(written, rng.getrandbits)


def shuffle(rng: random.Random, items: list) -> None:
    """rng.shuffle(items), as random.Random.shuffle draws it."""
    shuffler(rng, len(items))(items)
