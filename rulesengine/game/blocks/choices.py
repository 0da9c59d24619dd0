"""The `choices` block: every seat answers the round-end icon choices (categories with `choice:`).

Every card is face up by then; a seat answers its questions in any order, each an icon or None.
"""

from __future__ import annotations

from .base import Block

CHOICE = "choice"


class ChoicesBlock(Block):
    def start(self, game) -> bool:
        game.phase = CHOICE
        game._choice_decisions = game._choice_questions()
        return not self.pending(game)

    def pending(self, game) -> list:
        return [d for d in game._choice_decisions if d.category not in game.choices[d.seat]]

    def decision_of(self, game, seat: int, category):
        for decision in game._choice_decisions:
            if decision.seat == seat and decision.category not in game.choices[seat]:
                if category in (None, decision.category):
                    return decision
        return None

    def apply(self, game, seat: int, answer, category, card=None) -> bool:
        game.choices[seat][category] = answer
        if game.keeps_events:
            game._emit(
                {
                    "type": "choice",
                    "round": game.round + 1,
                    "seat": seat,
                    "category": category,
                    "option": answer,
                }
            )
        return not self.pending(game)
