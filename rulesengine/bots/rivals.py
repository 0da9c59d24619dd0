"""A sampled model of the greedy rivals for the tree bots (`rivals="sampled"`), in place of the one-ply pick.

The tree models every other seat by the generated pick (playouts.remembered_pick: the card of the hand whose cards
taken are worth most now, a one-ply value). The seats it meets in the ladder are the greedy bot (greedy.py), which
takes the best of its expected gains of the round over 6 sampled worlds x 3 random completions: a noisy estimate of
what the card may become. Measured (2026-11-27; docs/bots.md, "The guided bot"): on the greedy seats'
4,320 real picks of the ladder's games 0-59 of seed 50 (the guided bot at seat g mod 4, 4-player Australia), the
one-ply pick is the greedy bot's card in 48.3% of them (25.2% at the Throw, 27.9% at the first draft, 79.2% at the
last choice of two); the greedy bot agrees with its own expectation (48 worlds x 6 completions) in 71.3% of 1,440 (52.5%
at the Throw): it is a noisy player, and a deterministic model can match it at most that often. At the first picks the
one-ply values say almost nothing of its choice (a softmax over them fits best nearly flat: log-likelihood 1.875 a
Throw against 1.946 for a uniform draw).

This model draws each rival's card at random, with a probability that grows with two values (a softmax): the one-ply
value (remembered as the generated pick leaves it in `known`), and the card's worth in a random round, a fixed,
seeded estimate made once per edition and player count (the mean of seat_value over random first-round hands that
hold the card: `card_worth`), which is most of what the greedy bot's expectation sees at the first picks. Their
weights by the number of cards the seat has taken (WEIGHTS) are fitted by likelihood to those 4,320 picks. A draw is
made from the decision's generator, so a game replays exactly; the probabilities of a hand are remembered for the
decision as the picks are (keyed alike). Where a category reads the other seats' cards (Europe's National Treasures)
or a seat has no generated pick, the model stays the one-ply pick (the generated pick keeps only the seat's own part
of those values).

Why it is kept, not the default: alone it gains nothing measurable (+0.6 +- 6.6 points against the shipped guided
bot, 400 paired games) at 1.5x the CPU a pick. But it is what sharper worlds need: with the true hidden round as
every world (a diagnostic that reads the game), the one-ply model loses 7.3 points and this model gains 9.2 +- 7.7
(docs/bots.md): inference on the hidden cards pays only beside rivals modelled as noisy as they play.
"""

from __future__ import annotations

import math
import random
from bisect import bisect

from ..dsl.meter import aside
from ..edition.model import Edition
from ..game.scoring import ScoreKeeper
from .evaluate import seat_value, standing_from_scores

# cards taken (0: the Throw) -> (the one-ply value's weight, the card's worth's weight) in the softmax's exponent,
# fitted by likelihood to the greedy seats' 4,320 picks (module docstring); beyond the table, its last entry
WEIGHTS = ((0.067, 1.33), (0.13, 1.33), (0.27, 1.33), (0.33, 0.67), (0.5, 1.0), (0.67, 0.67))
WORTH_HANDS = 20_000   # random hands of the fixed estimate of a card's worth (card_worth)
MEMO_LIMIT = 200_000   # hands whose draw is remembered for one decision; past it the memo starts afresh


def card_worth(edition: Edition, players: int) -> dict:
    """card -> the mean of what a random first-round hand holding it is worth (seat_value), over WORTH_HANDS seeded
    hands: kept with the edition (Edition.kept), charged to no decision."""
    return edition.kept(("card worth", players), _measure_worth, edition, players)


def _measure_worth(edition: Edition, players: int) -> dict:
    with aside():
        standing = standing_from_scores(edition, ScoreKeeper(edition, [str(i) for i in range(players)]))
        rng = random.Random(f"worth/{edition.id}/{players}")
        totals = dict.fromkeys(edition.cards, 0.0)
        counts = dict.fromkeys(edition.cards, 0)
        for _ in range(WORTH_HANDS):
            hand = rng.sample(edition.cards, edition.hand_size)
            value = seat_value(standing, 0, hand, ())
            for card in hand:
                totals[card] += value
                counts[card] += 1
    return {card: totals[card] / counts[card] if counts[card] else 0.0 for card in edition.cards}


class SampledRivals:
    """The rivals' picks of one decision drawn by the softmax (module docstring), from the decision's generator."""

    def __init__(self, worth: dict, rng: random.Random, mode: str = "sampled"):
        self.worth = worth   # card -> its worth in a random round (card_worth)
        self.rng = rng
        # "sampled": a draw every time a hand is met; "drawn": one draw a hand for the decision (remembered);
        # "ranked": no draw, the card of the best exponent (the first of equals)
        self.mode = mode
        self.memo: dict = {}   # (seat, hand, cards taken) -> (hand, cumulative weights)

    def pick(self, seat: int, hand: list, taken: list, valued, x, sites):
        """A card of `hand` drawn for this seat with its cards taken; valued(seat, hand, taken, x, sites) -> card ->
        its one-ply value (every card of the hand: RoundPlayouts._valued), asked where this hand's draw is not
        remembered."""
        key = (seat, tuple(hand), tuple(taken))
        drawn = self.memo.get(key)
        if drawn is None:
            known = valued(seat, hand, taken, x, sites)
            one, own = WEIGHTS[min(len(taken), len(WEIGHTS) - 1)]
            worth = self.worth
            scores = [one * known[card] + own * worth[card] for card in hand]
            top = max(scores)
            total, cumulative = 0.0, []
            for score in scores:
                total += math.exp(score - top)
                cumulative.append(total)
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            drawn = (key[1], cumulative)
            if self.mode == "drawn":
                drawn = key[1][bisect(cumulative, self.rng.random() * total)]
            elif self.mode == "ranked":
                drawn = key[1][scores.index(top)]
            self.memo[key] = drawn
        if self.mode != "sampled":
            return drawn
        held, cumulative = drawn
        return held[bisect(cumulative, self.rng.random() * cumulative[-1])]
