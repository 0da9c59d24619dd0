"""Games at compiled speed: the engine's games, played by code made for speed, the engine their oracle.

batch.py plays thousands of random-seat games of a drafting edition at once in numpy arrays
(lockstep rounds; each game's deal from its own generator, each seat's decisions from the random
bot's seeds, the edition's scoring expressions as array code: arrays.py, draws.py): the same games
as the engine for the same seeds. What it does not play (fallback() says why) the engine plays.

numpy is the `fast` extra, not the base install (which plays, validates, scores and serves without
it): this package's front door imports nothing heavy, so a caller asks missing_numpy() first and
the engine plays when it says what is missing.
"""

from __future__ import annotations

from .. import DISTRIBUTION

NUMPY_MISSING = (f"the batch simulator needs numpy, which the base install leaves out: "
                 f"pip install '{DISTRIBUTION}[fast]'")


def missing_numpy() -> str | None:
    """What to install for the batch simulator (numpy, the `fast` extra), or None when it is there."""
    try:
        import numpy  # noqa: F401 - only asked whether it is there
    except ImportError:
        return NUMPY_MISSING
    return None


__all__ = ["NUMPY_MISSING", "missing_numpy"]
