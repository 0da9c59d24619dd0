"""The `claim` block: the secret choices are revealed in the bidding's order, each taking its cards.

The seat left last in the bidding reveals its choice first and takes every card of the circle that
shows it; then the stack is revealed from the top down, each seat taking every card left that shows
its choice. What each seat captured is a place on the table, for all to see, that the score sheet
reads at the game's end.
"""

from __future__ import annotations

from ..places import ALL, Place
from .base import PUBLIC, Block


class ClaimBlock(Block):
    places = (Place("captured", ALL, words="the cards each seat has captured"),)
    view = public = ("captured",)
    events = {"claim": PUBLIC}
    history = ("captured",)
    record = ("captured",)

    def __init__(self, step):
        self.step = step
        self.choice = step.choice
        self.claimed: dict = {}  # what each seat took in this round's claim, by name

    def setup(self, game) -> None:
        game.places.captured = [[] for _ in game.players]

    def start(self, game) -> bool:
        places = game.places
        last = places.last_left
        order = [last] + places.stack[::-1]
        captured = self.claimed = {}
        secret = game.block_named("secret_choice")
        if secret is not None and secret.key == self.choice:
            secret.revealed = True
        for seat in order:
            icon = places.secrets[seat]
            taken = [c for c in places.circle if icon in c.icons]
            places.circle = [c for c in places.circle if icon not in c.icons]
            places.captured[seat].extend(taken)
            captured[game.players[seat]] = [c.letter for c in taken]
            if game.keeps_events:
                game._emit({"type": "claim", "round": game.round + 1, "seat": seat, "choice": icon,
                            "cards": [c.letter for c in taken]})
        return True

    def end_round(self, game, entry: dict) -> None:
        entry["captured"] = self.claimed

    def add_record(self, game, record: dict) -> None:
        record["captured"] = {name: [c.letter for c in game.places.captured[s]] for s, name in enumerate(game.players)}

    def resume(self, game, position: dict) -> None:
        game.places.captured = position.pop("captured")

    def view_captured(self, game, seat: int) -> list:
        return [[c.letter for c in cards] for cards in game.places.captured]
