"""The `reveal` block: cards are turned from the deck face up into the circle until a condition holds.

The deck is shuffled once, at the game's start, and kept face down (nobody sees it; its size is on
the table); cards left in the circle from the round before stay. When the last round captured
nothing and no card had to be turned, one card is turned anyway, so the game moves on. With the
`end: deck_empty` of its flow, the game ends when the deck is empty at a round's start.
"""

from __future__ import annotations

from ...edition.scopes import until_env
from ..places import ALL, NONE, Place
from ..scoring import evaluate
from .base import PUBLIC, Block


class RevealBlock(Block):
    places = (Place("deck", NONE, per_seat=False, words="the deck, face down (its size is on the table)"),
              Place("circle", ALL, per_seat=False, words="the cards face up in the circle"))
    view = public = ("circle", "deck")
    events = {"reveal_cards": PUBLIC}

    def __init__(self, step):
        self.step = step
        self.until = step.until
        self.after = None  # the circle's size after the last reveal: unchanged at the next one, nothing was captured

    def setup(self, game) -> None:
        deck = list(game.edition.cards)
        game.rng.shuffle(deck)
        game.places.deck, game.places.circle = deck, []

    def start(self, game) -> bool:
        places = game.places
        deck, circle, drawn = places.deck, places.circle, []
        while deck and not self._holds(game):
            drawn.append(deck.pop())
            circle.append(drawn[-1])
        if not drawn and self.after is not None and len(circle) == self.after:
            drawn.append(deck.pop())  # nothing changed last round: turn one card so the game moves on
            circle.append(drawn[-1])
        self.after = len(circle)
        if game.keeps_events:
            game._emit({"type": "reveal_cards", "round": game.round + 1, "cards": [c.letter for c in drawn],
                        "circle": [c.letter for c in circle], "deck": len(deck)})
        return True

    def _holds(self, game) -> bool:
        circle, until = game.places.circle, self.until
        return bool(evaluate(until, until_env(circle, len(game.players), game.round + 1), "reveal `until`"))

    def resume(self, game, position: dict) -> None:
        places = game.places
        places.deck, places.circle = list(position.pop("deck")), list(position.pop("circle"))

    def view_circle(self, game, seat: int) -> list:
        return [c.letter for c in game.places.circle]

    def view_deck(self, game, seat: int) -> int:
        return len(game.places.deck)

    def hidden(self, game, seat: int, hidden) -> None:
        hidden.cards.append(game.places.deck)
