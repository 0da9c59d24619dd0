"""The rollout interface of the searching bots: sampled rounds, the modelled seats' picks, what a round is worth.

A searching bot asks four things of a round it cannot see whole: a world consistent with its view
(`sample`), the pick the model of a seat makes in a world (`pick`), the world after every seat has
picked (`step`, on the world), and what each seat gains once the round is over (`gains`). Today
these are answered by the engine's own parts (determinize.from_view for the worlds, rollout.RoundPlay
and rollout.greedy_pick for the play, evaluate.round_gains for the value); a faster implementation
of the same four calls (the compiled-games work, #35) drops in here without touching the search.

The greedy pick of a seat is a function of its hand and of every seat's cards taken so far (with
completions=0 it reads nothing else: rollout.greedy_pick), so one memo serves every world sampled
for one decision: a position met in two worlds is judged once.
"""

from __future__ import annotations

import random

from ..edition.model import Edition
from .allowance import Allowance
from .determinize import from_view, round_sampler
from .evaluate import Standing, round_gains
from .rollout import RoundPlay, greedy_pick

MEMO_LIMIT = 200_000  # greedy picks remembered for one decision; past it the memo starts afresh


class RoundPlayouts:
    """The rounds sampled for one decision of one seat, and the greedy model of every seat in them."""

    def __init__(self, edition: Edition, view: dict, standing: Standing, allowance: Allowance | None = None):
        self.edition, self.view, self.standing = edition, view, standing
        self.allowance = allowance or Allowance(None)   # the decision's steps (allowance.py), checked at every pick
        self.memo: dict = {}
        self.sampler = round_sampler(edition, view)
        self.round_index = len(view["history"])

    def sample(self, rng: random.Random) -> RoundPlay:
        """A world consistent with the view, from this moment of the round to its end."""
        if self.sampler is None:
            return RoundPlay.from_game(from_view(self.edition, self.view, rng, scored=False))
        hands, drafts = self.sampler(rng)
        return RoundPlay(self.edition, self.round_index, hands, drafts)

    def pick(self, play: RoundPlay, seat: int):
        """The card the greedy model takes from this seat's hand in this world (remembered); raises Spent
        before working one out once the decision has spent its steps."""
        hand = play.hands[seat]
        if len(hand) == 1:
            return hand[0]
        key = (seat, tuple(hand), tuple(map(tuple, play.drafts)))
        memo = self.memo
        card = memo.get(key)
        if card is None:
            self.allowance.check()
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            card = memo[key] = greedy_pick(self.standing, play, seat, None, 0)
        return card

    def gains(self, play: RoundPlay) -> list:
        """Each seat's gain from the finished round: categories, races, game-end categories."""
        return round_gains(self.standing, play.drafts)
