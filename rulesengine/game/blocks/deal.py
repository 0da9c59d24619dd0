"""The `deal` block: shuffle, deal every seat a hand, and tell each seat its own hand (no decision).

The cards undealt last round are shuffled and dealt first, then the shuffled rest (game/dealing.py):
two shuffles of game.rng (game/shuffling.py: random.shuffle's draws), in this order, every round.
It never shows a hand to another seat.
"""

from __future__ import annotations

from ..dealing import deal as deal_hands
from ..shuffling import shuffle
from .base import Block

THROW = "throw"


class DealBlock(Block):
    def __init__(self, step):
        self.cards = step.cards

    def start(self, game) -> bool:
        edition, n = game.edition, len(game.players) + game.ghosts  # ghost hands are dealt after the players
        leftover = list(game.leftover)
        if leftover:  # (a shuffle of nothing draws nothing)
            shuffle(game.rng, leftover)
        undealt = set(leftover)
        rest = [c for c in edition.cards if c not in undealt] if undealt else list(edition.cards)
        shuffle(game.rng, rest)
        game.hands, game.leftover = deal_hands(leftover, rest, n, self.cards, game.deal_version)
        game.drafts = [[] for _ in range(n)]
        game.seen_hands = [[list(hand)] for hand in game.hands]
        game.picks = {}
        game.partial = {}
        game.passes = 0
        game.choices = [{} for _ in game.players]
        game.phase = THROW
        if game.keeps_events:
            game._emit(
                {
                    "type": "round_start",
                    "round": game.round + 1,
                    "direction": "left" if edition.passing.direction(game.round) > 0 else "right",
                }
            )
            for seat in range(len(game.players)):
                cards = [c.letter for c in game.hands[seat]]
                game._emit({"type": "deal", "round": game.round + 1, "seat": seat, "cards": cards}, to=seat)
        return True
