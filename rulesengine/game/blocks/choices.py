"""The `choices` block: every seat answers the round-end icon choices (categories with `choice:`).

Every card is face up by then; a seat answers its questions in any order, each an icon or None.
The choices are told to the table once every seat has made them (in the order they were made), so
no seat chooses knowing another's; games written in file formats 1-3 told each as it was made, and
replay so (their logs hold the events in that order).
"""

from __future__ import annotations

from .base import Block

CHOICE = "choice"


class ChoicesBlock(Block):
    def start(self, game) -> bool:
        game.phase = CHOICE
        game.choices_made = []
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

    def apply(self, game, seat: int, answer, category) -> bool:
        game.choices[seat][category] = answer
        game.choices_made.append((seat, category, answer))
        over = len(game.choices_made) >= len(game._choice_decisions) and not self.pending(game)  # each is made once
        if game.keeps_events and (over or game.deal_version <= 3):
            told = game.choices_made if game.deal_version > 3 else game.choices_made[-1:]
            for who, key, option in told:
                game._emit({"type": "choice", "round": game.round + 1, "seat": who, "category": key, "option": option})
        return over
