"""The `choices` block: every seat answers the round-end icon choices (categories with `choice:`).

Every card is face up by then; a seat answers its questions in any order, each an icon or None.
The choices are told to the table once every seat has made them (in the order they were made), so
no seat chooses knowing another's. A choice declared in secret earlier in the round (a `secret_choice`
of the same key, blocks/secret_choice.py) is not asked: the declaration is the seat's choice when it
is among the icons the seat may choose now, else the seat chooses nothing; the declarations are told
first, with the others, and revealed then; games written in file formats 1-3 told each as it was made, and
replay so (their logs hold the events in that order). The round's choices are a place the score
sheet reads (each seat's own until told); the order they were made in is the block's own.
"""

from __future__ import annotations

from ..decisions import decision_from_fields
from ..places import OWN, Place
from .base import PUBLIC, Block

CHOICE = "choice"


class ChoicesBlock(Block):
    __slots__ = ("answered", "declared", "questions", "secret")
    places = (Place("choices", OWN, cards=False, words="each seat's round-end choices, told once all are made"),)
    view = ("used_choices",)
    events = {"choice": PUBLIC}
    history = ("choices",)

    def __init__(self, step):
        self.step = step
        self.answered: list[tuple] = []  # this round's choices, in the order made
        self.questions: list = []  # every seat's questions this round
        self.declared = 0  # of self.answered, the first ones: the choices declared in secret, not asked
        self.secret = None  # the secret choice block whose choices this block reveals and takes (setup)

    def setup(self, game) -> None:
        secret = game.block_named("secret_choice")
        self.secret = secret if secret is not None and secret.declares else None

    def begin_round(self, game) -> dict:
        game.places.choices = [{} for _ in game.players]
        return {}

    def start(self, game) -> bool:
        game.phase = CHOICE
        self.answered = []
        self.questions = self._questions(game)
        self.declared = len(self.answered)
        if self.questions:  # (none answered yet: each is pending)
            return False
        self._tell(game)
        return True

    def _questions(self, game) -> list:
        """One question per seat and choice category: its legal icons, or None (no choice). A category
        declared in secret is answered by the declaration instead (in self.answered)."""
        categories = game.edition.choice_categories
        if not categories:
            return []
        options = game.scores.round_choice_options(game.places.drafts[: len(game.players)])
        secret = self.secret
        number, questions = game.round + 1, []
        for seat, seat_options in enumerate(options):  # one list of icons a category, in order
            for index, category in enumerate(categories):
                if secret is not None and category.key == secret.key:
                    declared = game.places.secrets.get(seat)
                    icon = declared if declared in seat_options[index] else None
                    game.places.choices[seat][category.key] = icon
                    self.answered.append((seat, category.key, icon))
                    continue
                icons = (*seat_options[index], None)
                questions.append(decision_from_fields((seat, CHOICE, number, icons, category.key)))
        return questions

    def _tell(self, game) -> None:
        """Every choice is made: the declared ones are revealed, and all are told (file format 4 on)."""
        if self.secret is not None:
            self.secret.revealed = True
        if game.keeps_events and game.deal_version > 3:
            for who, key, option in self.answered:
                game._emit({"type": "choice", "round": game.round + 1, "seat": who, "category": key, "option": option})

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
        # each is made once: over when as many are made as asked (and the declared ones), then checked once
        over = len(self.answered) >= len(self.questions) + self.declared and not self.pending(game)
        if game.deal_version <= 3:  # (told as made)
            if game.keeps_events:
                game._emit({"type": "choice", "round": game.round + 1, "seat": seat, "category": category,
                            "option": answer})
        elif over:
            self._tell(game)
        return over

    def end_round(self, game, entry: dict) -> None:
        # one dict a player, without the categories answered "no choice" (most rounds have none: the dict itself)
        choices, told = game.places.choices, {}
        for seat, name in enumerate(game.players):
            made = choices[seat]
            if None in made.values():
                made = choices[seat] = {k: v for k, v in made.items() if v is not None}
            if made:
                told[name] = made
        entry["choices"] = told

    def resume(self, game, position: dict) -> None:
        game.places.choices = [{} for _ in game.players]
        if game.block is self:
            self.answered = []
            self.questions = self._questions(game)
            self.declared = len(self.answered)

    def view_used_choices(self, game, seat: int) -> dict:
        return {k: sorted(v) for k, v in game.scores.used_choices[seat].items()}

    def hidden(self, game, seat: int, hidden) -> None:
        if game.block is self and self.pending(game):  # told once all are made
            choices = game.places.choices
            hidden.values += [(choices[d.seat], d.category, d.options) for d in self.questions
                              if d.seat != seat and d.category in choices[d.seat]]
            icons = (*self.secret.icons, None) if self.declared else ()
            hidden.values += [(choices[who], key, icons) for who, key, _ in self.answered[: self.declared]
                              if who != seat]
