"""The rollout interface of the searching bots: sampled rounds, the modelled seats' picks, what a round is worth.

A searching bot asks four things of a round it cannot see whole: a world consistent with its view
(`sample`), the pick the model of a seat makes in a world (`pick`), the world after every seat has
picked (`step`, on the world), and what each seat gains once the round is over (`gains`). Today
these are answered by the engine's own parts (determinize.from_view for the worlds, rollout.RoundPlay
and rollout.greedy_pick for the play, evaluate.round_gains for the value); a faster implementation
of the same four calls (the compiled-games work, #35) drops in here without touching the search.

The greedy pick of a seat is a function of its hand and of every seat's cards taken so far (with
completions=0 it reads nothing else: rollout.greedy_pick), so one memo serves every world sampled
for one decision: a position met in two worlds is judged once. Where every seat has the edition's
generated pick (dsl/program/pick.py, which charges no step) and no round category reads the other seats'
cards (Australia, USA and most variants), a pick reads only the seat's hand and its own cards taken: the memo
is keyed by those (a hand met in many worlds, whatever the other seats hold) and a new pick is worked out by
the generated pick, each card's worth remembered for the seat's cards taken, as the search bot's compiled
rollouts do (backend.CompiledRollouts._work_out): the same card greedy_pick gives, about four times fewer
picks worked out and each cheaper. The first picks of a round, where the hands are full and nothing is
remembered yet, cost the ismcts bot 56-60 ms of CPU at 100 iterations by greedy_pick (2026-11-27).
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
        # seat -> its generated pick for this decision, where every seat has one and nothing reads the table
        made = [value.pick for value in standing.values]
        self.pickers = {seat: pick() for seat, pick in enumerate(made)} \
            if not standing.shared and not standing.costs and all(pick is not None for pick in made) else None
        self.known: dict = {}   # (seat, its cards taken) -> {card: the value of its hand with it}

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
        own = self.pickers is not None   # the seat's generated pick, keyed by its hand and its own cards taken
        key = (seat, tuple(hand), tuple(play.drafts[seat]) if own else tuple(map(tuple, play.drafts)))
        memo = self.memo
        card = memo.get(key)
        if card is None:
            self.allowance.check()
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
                self.known.clear()
            card = memo[key] = self._own_pick(key, play.drafts[seat]) if own else \
                greedy_pick(self.standing, play, seat, None, 0)
        return card

    def _own_pick(self, key: tuple, drafts: list):
        """The generated pick's card for key (seat, hand, its own cards taken): module docstring."""
        seat, held, taken = key
        known = self.known.get((seat, taken))
        if known is None:
            known = self.known[seat, taken] = {}
        picker = self.pickers[seat]
        return (picker(held, drafts[:-1], drafts[-1:], known, 0) if len(drafts) >= 2
                else picker(held, drafts, [], known, 0))[0]

    def gains(self, play: RoundPlay) -> list:
        """Each seat's gain from the finished round: categories, races, game-end categories."""
        return round_gains(self.standing, play.drafts)
