"""The engine's random draws for thousands of games at once: each game's deal and its random seats.

A game's deal is `random.Random(seed)`'s two shuffles a round (game/shuffling.py: random.shuffle,
each place from the last swapped with one drawn by getrandbits and its rejection). The 32-bit words
a game's generator would give are read in one `getrandbits` call per game, and the shuffles are then
replayed for every game at once: each place draws from each game's next word, and the games whose
draw is rejected draw again. A random seat's decision is splitmix64 of its key and the decision
(bots/seeding.py), here in uint64 arrays. Nothing here knows a rule; rulesengine/fast/batch.py
deals and drafts with it. Every draw is the engine's: tests/test_fast_batch.py plays the same seeds
through both.
"""

from __future__ import annotations

import _random
import random

import numpy as np

from ..bots.seeding import agent_seed, seed_key

GOLDEN, MIX_1, MIX_2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_30, _27, _31 = np.uint64(30), np.uint64(27), np.uint64(31)
WORDS = 256            # words read per game at first: a 4-round deal of 28 cards takes about 150
_SEED_LIMIT = ((1 << 64) - 1 - 7_919 * 64) // 1_000_003   # below it a seat's agent seed fits in 64 bits


def mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser of every item (bots/seeding._mix), wrapping as uint64 does."""
    x = x + GOLDEN
    x = (x ^ (x >> _30)) * MIX_1
    x = (x ^ (x >> _27)) * MIX_2
    return x ^ (x >> _31)


_MIXED_ZERO = int(mix(np.zeros(1, dtype=np.uint64))[0])   # a seed's high 64 bits, mixed, when they are 0


def seat_keys(seeds: list[int], bot_seats: np.ndarray) -> np.ndarray:
    """keys[g, s]: the random bot's key (seed_key of agent_seed) of game g's bot seeded for seat bot_seats[g, s]."""
    if seeds and 0 <= min(seeds) and max(seeds) < _SEED_LIMIT:
        agent = np.asarray(seeds, dtype=np.uint64)[:, None] * np.uint64(1_000_003) \
            + bot_seats.astype(np.uint64) * np.uint64(7_919) + np.uint64(1)
        return mix(agent ^ np.uint64(_MIXED_ZERO))
    return np.array([[seed_key(agent_seed(seed, int(s))) for s in row] for seed, row in zip(seeds, bot_seats,
                                                                                              strict=True)],
                    dtype=np.uint64).reshape(bot_seats.shape)


def picks(keys: np.ndarray, asked: int, count) -> np.ndarray:
    """Each random seat's answer to a decision of `count` options (an int, or an array like keys) whose kind,
    round and category are `asked` (bots/seeding.decision_seed_from_key without the options' count): an index."""
    count = np.asarray(count, dtype=np.uint64)
    drawn = mix(keys ^ (np.uint64(asked) | (count << np.uint64(12))))
    return (drawn % count).astype(np.int64)


def words(seeds: list[int], size: int) -> np.ndarray:
    """words[g, i]: the i-th 32-bit word game g's generator (random.Random(seed)) gives, for i < size."""
    generator = random.Random()
    seed, draw = _random.Random.seed, generator.getrandbits   # seed(int) is random.Random.seed's own for an int
    raw = b"".join([(seed(generator, game), draw(32 * size))[1].to_bytes(4 * size, "little") for game in seeds])
    return np.frombuffer(raw, dtype="<u4").reshape(len(seeds), size)


class Stream:
    """Every game's generator as the engine's deal draws from it: the words read so far and each game's place.
    The words are read through one flat index a game (its row's start plus its place), so a draw of every game
    is one gather and one add."""

    def __init__(self, seeds: list[int], size: int = WORDS):
        self.seeds = seeds
        self.lanes = np.arange(len(seeds))
        self._read(words(seeds, size), np.zeros(len(seeds), dtype=np.int64))

    def _read(self, read: np.ndarray, at: np.ndarray) -> None:
        self.words = read
        self._flat = read.reshape(-1)
        self._start = self.lanes * read.shape[1]
        self._place = self._start + at       # flat index of each game's next word
        self._most = int(at.max(initial=0))  # the most words a game has drawn

    @property
    def at(self) -> np.ndarray:
        """How many words each game has drawn."""
        return self._place - self._start

    def _more(self) -> None:
        """A game is to draw more than was read: read twice as many."""
        read = self.words.shape[1]
        self._read(np.concatenate([self.words, words(self.seeds, 2 * read)[:, read:]], axis=1), self.at)

    def _next_all(self, shift: np.uint32) -> np.ndarray:
        """getrandbits(32 - shift) of every game (each game's next word, its high bits)."""
        if self._most >= self.words.shape[1]:
            self._more()
        self._most += 1
        drawn = self._flat[self._place]
        self._place += 1
        return (drawn >> shift).astype(np.int64)

    def _next(self, lanes: np.ndarray, shift: np.uint32) -> np.ndarray:
        """getrandbits(32 - shift) of these games."""
        place = self._place[lanes] + 1
        most = int((place - self._start[lanes]).max())
        if most > self.words.shape[1]:
            self._more()
            place = self._place[lanes] + 1
        self._most = max(self._most, most)
        self._place[lanes] = place
        return (self._flat[place - 1] >> shift).astype(np.int64)

    def shuffle(self, decks: np.ndarray) -> None:
        """random.Random.shuffle of every game's row, in place: each place from the last swapped with one below
        it drawn by rejection (j = getrandbits(k) until j <= i), as the engine's deal draws it."""
        if not decks.flags.c_contiguous:   # (a slice of a round's deck) shuffled as one block, then put back
            block = np.ascontiguousarray(decks)
            self.shuffle(block)
            decks[...] = block
            return
        size = decks.shape[1]
        flat = decks.reshape(-1)   # a view: every game's row, one after the other
        rows = self.lanes * size
        for i in range(size - 1, 0, -1):
            shift = np.uint32(32 - (i + 1).bit_length())
            j = self._next_all(shift)
            rejected = np.flatnonzero(j > i)
            while rejected.size:
                again = self._next(rejected, shift)
                j[rejected] = again
                rejected = rejected[again > i]
            j += rows
            held = decks[:, i].copy()
            decks[:, i] = flat[j]
            flat[j] = held
