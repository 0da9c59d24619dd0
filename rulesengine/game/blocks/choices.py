"""The `choices` block: every seat answers the round-end icon choices (categories with `choice:`).

Every card is face up by then; a seat answers its questions in any order, each an icon or None.
The choices are told to the table once every seat has made them (in the order they were made), so
no seat chooses knowing another's; games written in file formats 1-3 told each as it was made, and
replay so (their logs hold the events in that order). The round's choices are a place the score
sheet reads (each seat's own until told); the order they were made in is the block's own.
"""

from __future__ import annotations

from ..decisions import decision_from_fields
from ..places import OWN, Place
from .base import PUBLIC, Block

CHOICE = "choice"


class ChoicesBlock(Block):
    __slots__ = ("answered", "questions")
    places = (Place("choices", OWN, cards=False, words="each seat's round-end choices, told once all are made"),)
    view = ("used_choices",)
    events = {"choice": PUBLIC}
    history = ("choices",)

    def __init__(self, step):
        self.step = step
        self.answered: list[tuple] = []  # this round's choices, in the order made
        self.questions: list = []  # every seat's questions this round

    def begin_round(self, game) -> dict:
        game.places.choices = [{} for _ in game.players]
        return {}

    def start(self, game) -> bool:
        game.phase = CHOICE
        self.answered = []
        self.questions = self._questions(game)
        return not self.pending(game)

    def _questions(self, game) -> list:
        """One question per seat and choice category: its legal icons, or None (no choice)."""
        categories = game.edition.choice_categories
        if not categories:
            return []
        options = game.scores.round_choice_options(game.places.drafts[: len(game.players)])
        number, questions = game.round + 1, []
        for seat, seat_options in enumerate(options):  # one list of icons a category, in order
            for index, category in enumerate(categories):
                icons = (*seat_options[index], None)
                questions.append(decision_from_fields((seat, CHOICE, number, icons, category.key)))
        return questions

    def pending(self, game) -> list:
        choices = game.places.choices
        return [d for d in self.questions if d.category not in choices[d.seat]]

    def decision_of(self, game, seat: int, category):
        made = game.places.choices[seat]
        for decision in self.questions:
            if decision.seat == seat and decision.category not in made:
                if category in (None, decision.category):
                    return decision
        return None

    def apply(self, game, seat: int, answer, category) -> bool:
        game.places.choices[seat][category] = answer
        self.answered.append((seat, category, answer))
        over = len(self.answered) >= len(self.questions) and not self.pending(game)  # each is made once
        if game.keeps_events and (over or game.deal_version <= 3):
            told = self.answered if game.deal_version > 3 else self.answered[-1:]
            for who, key, option in told:
                game._emit({"type": "choice", "round": game.round + 1, "seat": who, "category": key, "option": option})
        return over

    def end_round(self, game, entry: dict) -> None:
        # one dict a player, without the categories answered "no choice" (most rounds have none: the dict itself)
        choices = game.places.choices = [
            made if None not in made.values() else {k: v for k, v in made.items() if v is not None}
            for made in game.places.choices]
        entry["choices"] = {game.players[seat]: choices[seat] for seat in game.seats if choices[seat]}

    def resume(self, game, position: dict) -> None:
        game.places.choices = [{} for _ in game.players]
        if game.block is self:
            self.answered, self.questions = [], self._questions(game)

    def view_used_choices(self, game, seat: int) -> dict:
        return {k: sorted(v) for k, v in game.scores.used_choices[seat].items()}

    def hidden(self, game, seat: int, hidden) -> None:
        if game.block is self and self.pending(game):  # told once all are made
            choices = game.places.choices
            hidden.values += [(choices[d.seat], d.category, d.options) for d in self.questions
                              if d.seat != seat and d.category in choices[d.seat]]
