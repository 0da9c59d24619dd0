"""The `secret_choice` block: every seat picks one icon of a family face down, all at once.

A seat's choice is its own (view["secret"]) until a later block reveals it (the claim); the table
is told only who has chosen. The choices are a place: the claim reads them.
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
        self.revealed = False  # a later block (the claim) has turned the choices up

    def setup(self, game) -> None:
        game.places.secrets = {}

    def begin_round(self, game) -> dict:
        game.places.secrets = {}
        self.revealed = False
        return {}

    def start(self, game) -> bool:
        game.phase = SECRET
        return len(game.places.secrets) == len(game.players)

    def pending(self, game) -> list:
        secrets, number = game.places.secrets, game.round + 1
        return [Decision(seat, SECRET, number, self.icons, self.key) for seat in game.seats if seat not in secrets]

    def decision_of(self, game, seat: int, category):
        if category not in (None, self.key) or seat in game.places.secrets or seat not in game.seats:
            return None
        return Decision(seat, SECRET, game.round + 1, self.icons, self.key)

    def apply(self, game, seat: int, answer, category) -> bool:
        secrets = game.places.secrets
        secrets[seat] = answer
        if game.keeps_events:
            game._emit({"type": "secret_chosen", "round": game.round + 1, "seat": seat})
        return len(secrets) == len(game.players)

    def end_round(self, game, entry: dict) -> None:
        secrets = game.places.secrets
        entry["choices"] = {game.players[s]: secrets[s] for s in game.seats}

    def resume(self, game, position: dict) -> None:
        game.places.secrets = dict(position.pop("secrets"))

    def view_chosen(self, game, seat: int) -> list:
        return sorted(game.places.secrets)

    def view_secret(self, game, seat: int):
        return game.places.secrets.get(seat)

    def hidden(self, game, seat: int, hidden) -> None:
        if self.revealed:
            return
        secrets = game.places.secrets
        hidden.values += [(secrets, other, self.icons) for other in secrets if other != seat]

    @staticmethod
    def made(view) -> int:
        return view["secret"] is not None
