"""Randomness for bots that keep no state: every draw is fixed by the bot's seed and the decision.

A game resumed from its saved decisions must continue exactly as it would have, so a bot may not
carry a generator from one decision to the next. Seeds are mixed as integers (splitmix64), never
through a string: a bot answers thousands of decisions a second, and a string-seeded generator
costs more than a random bot's whole decision. The draw never depends on what the seat cannot see.
Games whose files say format 1 or 2 were played with string seeds (STRING_SEEDS): their bots keep
drawing that way, so their logs re-decide and their saves resume exactly as they were played.
Format 3 drew from integer seeds of the decision alone (INTEGER_SEEDS); in a round with a block that
asks the same question again (a bid: Block.repeats) every bid of a round is the same decision (same
round, kind and options), so a random bot made the same bid all round. Format 4 (STEP_SEEDS) mixes
in, for every decision of such an edition, how many decisions the seat has made this round (as its
view shows them: game.blocks.decisions_made); the other editions draw as in format 3 (a pick's
options already change at every pick). Format 6 draws as 4 and 5 do; what it changes is a bot's decisions: its
guided bot plans its once-per-game choices over the rounds left (bots/choices.py), where the guided seats of a game
of an earlier format keep the greedy bot's choices (PLANNED_CHOICES), so that such a game re-decides as it was played.
"""

from __future__ import annotations

import importlib
import random
import zlib
from functools import cache

_MASK = (1 << 64) - 1
_KINDS = {"throw": 1, "draft": 2, "choice": 3}
_CATEGORY_CODES: dict = {None: 0}


def _mix(x: int) -> int:
    """splitmix64's finaliser: every input bit moves every output bit."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


_MIXED_ZERO = _mix(0)   # the high bits' mix of every seed from 0 to 2**64 - 1


def seed_key(seed: int) -> int:
    """The bot's seed mixed once; a bot may keep it to draw faster (decision_seed_from_key).
    Its low and high 64 bits both count, so negative and very large seeds differ too."""
    high = (seed >> 64) & _MASK
    return _mix((seed & _MASK) ^ (_mix(high) if high else _MIXED_ZERO))


def decision_seed_from_key(key: int, decision) -> int:
    """decision_seed from the bot's seed_key: _mix written out, as a random bot calls it at every decision."""
    _, kind, number, options, category = decision  # a Decision is a tuple: one unpacking, not four reads
    code = _CATEGORY_CODES.get(category)
    if code is None:
        code = _CATEGORY_CODES[category] = zlib.crc32(str(category).encode("utf-8"))
    x = key ^ (_KINDS.get(kind, 0) | number << 2 | len(options) << 12 | code << 24)
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def decision_seed(seed: int, decision) -> int:
    """A 64-bit integer fixed by the bot's seed and the decision alone: its round, kind, category and
    how many options it has (for a pick, the cards left in the hand: a different number at every pick)."""
    return decision_seed_from_key(seed_key(seed), decision)


STRING_SEEDS = 1      # bots of games written in file formats 1 and 2
INTEGER_SEEDS = 2     # bots of games written in format 3
STEP_SEEDS = 3        # bots of games written in formats 4 and 5: a repeated question's also by the seat's step
PLANNED_CHOICES = 4   # bots of games written in format 6 and after: drawing as STEP_SEEDS; the guided bot plans choices


def seeding_for(file_format: int) -> int:
    """How the bots of a game saved or logged in this file format drew their randomness."""
    if file_format <= 3:
        return STRING_SEEDS if file_format <= 2 else INTEGER_SEEDS
    return STEP_SEEDS if file_format <= 5 else PLANNED_CHOICES


def by_step(edition, seeding: int) -> bool:
    """Whether this edition's bots tell decisions apart by the seat's step too (see the module docstring)."""
    return seeding >= STEP_SEEDS and edition is not None and _blocks().round_plan(edition).repeats


def step_key(key: int, edition, view) -> int:
    """A bot's seed_key moved by the seat's own decisions so far this round (game.blocks.decisions_made:
    not the round's step, which depends on when the others made their simultaneous choices)."""
    return _mix(key ^ _blocks().decisions_made(edition, view))


@cache
def _blocks():
    """game.blocks, imported at the first bot's first question: the bot registry (which every command's options
    name) loads without the game, its editions and the scoring language (`boom tournament --help`)."""
    return importlib.import_module("..game.blocks", __package__)


def decision_rng(seed: int, view, decision, seeding: int = STEP_SEEDS, edition=None) -> random.Random:
    """A generator fixed by the bot's seed and the decision alone (with integer seeds the view is not
    read, but for a repeated question's step with STEP_SEEDS; string seeds, as format 1 and 2 games drew
    them, read how many cards the seat has taken)."""
    if seeding == STRING_SEEDS:
        picked = len(view["table"][view["seat"]]["face_up"]) + (1 if view.get("throw") else 0)
        return random.Random(f"{seed}/{decision.round}/{decision.kind}/{decision.category}/{picked}")
    if view is not None and by_step(edition, seeding):
        return random.Random(decision_seed_from_key(step_key(seed_key(seed), edition, view), decision))
    return random.Random(decision_seed(seed, decision))


def agent_seed(game_seed: int, seat: int) -> int:
    """Each bot's generator derives from the game seed, so a seed fixes the whole game."""
    return game_seed * 1_000_003 + seat * 7_919 + 1
