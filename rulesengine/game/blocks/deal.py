"""The `deal` block: shuffle, deal every seat a hand, and tell each seat its own hand (no decision).

The cards undealt last round are shuffled and dealt first, then the shuffled rest (game/dealing.py):
two shuffles of game.rng (game/shuffling.py: random.shuffle's draws), in this order, every round.
Ghost hands (draft: {ghosts: k}) are dealt after the players' and belong to nobody. It makes the
hands (each seen by its seat only), the undealt cards (seen by nobody) and the hands each seat has
seen this round (its own memory, which the passes add to); it never shows a hand to another seat.
"""

from __future__ import annotations

from ..dealing import deal as deal_hands
from ..places import NONE, OWN, Place
from ..shuffling import shuffle
from .base import OWN as TOLD_OWN
from .base import Block


class DealBlock(Block):
    __slots__ = ("cards",)
    places = (Place("hands", OWN, words="the cards in each hand"),
              Place("leftover", NONE, per_seat=False, words="the cards left undealt"),
              Place("seen_hands", OWN, words="the hands each seat has seen this round"))
    events = {"deal": TOLD_OWN}

    def __init__(self, step):
        self.step = step
        self.cards = step.cards

    def setup(self, game) -> None:
        game.places.leftover = []  # (the hands are made by begin_round when a block comes before the deal, by the
        # deal, or by resume: nothing shows them before)

    @classmethod
    def hooked(cls, hook: str, step, index: int) -> bool:
        """A deal that opens the round needs no begin_round: nothing is shown before it replaces the hands."""
        return super().hooked(hook, step, index) and (hook != "begin_round" or index > 0)

    def begin_round(self, game) -> dict:
        """No hand until the deal (a block before it, a secret choice, shows the seat none)."""
        n = len(game.players) + game.ghosts
        game.places.hands, game.places.seen_hands = [[] for _ in range(n)], [[] for _ in range(n)]
        return {}

    def start(self, game) -> bool:
        edition, places, n = game.edition, game.places, len(game.players) + game.ghosts
        leftover = list(places.leftover)
        if leftover:  # (a shuffle of nothing draws nothing)
            shuffle(game.rng, leftover)
        undealt = set(leftover)
        rest = [c for c in edition.cards if c not in undealt] if undealt else list(edition.cards)
        shuffle(game.rng, rest)
        cards = self.cards if not self.step.by_round else self.step.cards_in(game.round)  # this round's hand
        places.hands, places.leftover = deal_hands(leftover, rest, n, cards, game.deal_version)
        places.seen_hands = [[list(hand)] for hand in places.hands]
        if game.keeps_events:
            number = game.round + 1
            for seat in game.seats:
                cards = [c.letter for c in places.hands[seat]]
                game._emit({"type": "deal", "round": number, "seat": seat, "cards": cards}, to=seat)
        return True

    def finish(self, game) -> None:
        places = game.places
        places.hands = [[] for _ in game.players]
        places.seen_hands = [[] for _ in game.players]

    def resume(self, game, position: dict) -> None:
        places, n = game.places, len(game.players)
        hands, seen = position.pop("hands", None), position.pop("seen_hands", None)
        places.hands = hands if hands is not None else [[] for _ in range(n)]
        places.leftover = list(position.pop("leftover", None) or ())
        places.seen_hands = seen if seen is not None else [[] for _ in range(n)]

    def hidden(self, game, seat: int, hidden) -> None:
        hands = game.places.hands
        hidden.cards += [hand for other, hand in enumerate(hands) if other != seat]  # the ghosts' too
        hidden.cards.append(game.places.leftover)
