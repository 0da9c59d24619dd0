"""The `secret_choice` block: every seat picks one icon of a family face down, all at once.

A seat's choice is its own (view["secret"]) until a later block reveals it; the table is told only
who has chosen. The choices are a place. In the 2010 game the claim reveals and reads them. In a
drafting round the choice declares the icon of the round-end choice category of the same key
(step.declares): a seat may declare only an icon it may still choose (once_per_game), and the
`choices` block reveals the declarations and takes each as the seat's choice (blocks/choices.py).
"""

from __future__ import annotations

from ..decisions import Decision
from ..places import OWN, Place
from .base import PUBLIC, Block

SECRET = "secret"


class SecretChoiceBlock(Block):
    places = (Place("secrets", OWN, per_seat=False, cards=False, words="each seat's secret choice, face down"),)
    view = ("chosen", "secret")
    public = ("chosen",)
    events = {"secret_chosen": PUBLIC}
    history = ("choices",)

    def __init__(self, step):
        self.step = step
        self.key, self.icons = step.key, step.family.icons
        self.declares = step.declares
        self.revealed = False  # a later block (the claim, or the round-end choices) has turned the choices up
        self.options: list = []  # per seat, the icons it may declare this round (a declared choice)

    def setup(self, game) -> None:
        game.places.secrets = {}

    def begin_round(self, game) -> dict:
        game.places.secrets = {}
        self.revealed = False
        return {}

    def start(self, game) -> bool:
        game.phase = SECRET
        if self.declares:
            self.options = [self._choosable(game, seat) for seat in game.seats]
            for seat in game.seats:
                if not self.options[seat]:  # nothing left to declare: the seat declares nothing, unasked
                    game.places.secrets[seat] = None
        return len(game.places.secrets) == len(game.players)

    def _choosable(self, game, seat: int) -> tuple:
        """The icons this seat may still choose for the category it declares (those not used up)."""
        category = next(c for c in game.edition.choice_categories if c.key == self.key)
        used = game.scores.used_choices[seat][self.key] if category.choice.once_per_game else ()
        return tuple(icon for icon in self.icons if icon not in used)

    def _options(self, seat: int) -> tuple:
        return self.options[seat] if self.declares else self.icons

    def pending(self, game) -> list:
        secrets, number = game.places.secrets, game.round + 1
        return [Decision(seat, SECRET, number, self._options(seat), self.key) for seat in game.seats
                if seat not in secrets]

    def decision_of(self, game, seat: int, category):
        if category not in (None, self.key) or seat in game.places.secrets or seat not in game.seats:
            return None
        return Decision(seat, SECRET, game.round + 1, self._options(seat), self.key)

    def apply(self, game, seat: int, answer, category) -> bool:
        secrets = game.places.secrets
        secrets[seat] = answer
        if game.keeps_events:
            game._emit({"type": "secret_chosen", "round": game.round + 1, "seat": seat})
        return len(secrets) == len(game.players)

    def end_round(self, game, entry: dict) -> None:
        if self.declares:  # the round-end choices tell them (blocks/choices.py)
            return
        secrets = game.places.secrets
        entry["choices"] = {game.players[s]: secrets[s] for s in game.seats}

    def resume(self, game, position: dict) -> None:
        game.places.secrets = dict(position.pop("secrets"))
        if self.declares:
            self.options = [self._choosable(game, seat) for seat in game.seats]

    def view_chosen(self, game, seat: int) -> list:
        return sorted(game.places.secrets)

    def view_secret(self, game, seat: int):
        return game.places.secrets.get(seat)

    def hidden(self, game, seat: int, hidden) -> None:
        if self.revealed:
            return
        secrets = game.places.secrets
        hidden.values += [(secrets, other, self._options(other)) for other in secrets if other != seat]

    @staticmethod
    def made(view) -> int:
        return view["secret"] is not None
