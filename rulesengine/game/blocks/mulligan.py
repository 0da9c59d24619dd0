"""The `mulligan` block: after the deal, every seat that may still take one answers keep or mulligan.

The answers are made at once, as the round-end choices are; once all are in, each seat that took a
mulligan, in seat order, draws a new hand from the undealt cards (game.rng shuffles them) and its old
hand joins the undealt cards: only that seat ever sees either hand. The table is told who took one.
"""

from __future__ import annotations

from ..decisions import Decision
from .base import Block

MULLIGAN, KEEP, TAKE = "mulligan", "keep", "mulligan"
THROW = "throw"


class MulliganBlock(Block):
    def __init__(self, step):
        self.once_per_game = step.once_per_game

    def start(self, game) -> bool:
        game.mulligan_answers = {}
        if not self._asked(game):
            return True
        game.phase = MULLIGAN
        return False

    def _asked(self, game) -> list[int]:
        seats = range(len(game.players))
        return [s for s in seats if not (self.once_per_game and s in game.mulligans_taken)]

    def pending(self, game) -> list:
        number = game.round + 1
        return [
            Decision(seat, MULLIGAN, number, (KEEP, TAKE))
            for seat in self._asked(game)
            if seat not in game.mulligan_answers
        ]

    def decision_of(self, game, seat: int, category):
        return next((d for d in self.pending(game) if d.seat == seat), None)

    def apply(self, game, seat: int, answer, category) -> bool:
        game.mulligan_answers[seat] = answer
        if len(game.mulligan_answers) < len(self._asked(game)):
            return False
        for taker in sorted(s for s, a in game.mulligan_answers.items() if a == TAKE):
            self._redeal(game, taker)
        game.phase = THROW
        game._pick_cache = (None, [])
        return True

    @staticmethod
    def _redeal(game, seat: int) -> None:
        old, undealt = game.hands[seat], list(game.leftover)
        game.rng.shuffle(undealt)
        size = len(old)
        game.hands[seat], game.leftover = undealt[:size], undealt[size:] + old
        game.seen_hands[seat] = [list(game.hands[seat])]  # the old hand is out of the round: no pass shows it
        game.mulligans_taken.add(seat)
        if game.keeps_events:
            game._emit({"type": "mulligan", "round": game.round + 1, "seat": seat})
            cards = [c.letter for c in game.hands[seat]]
            game._emit({"type": "hand", "round": game.round + 1, "seat": seat, "cards": cards}, to=seat)
