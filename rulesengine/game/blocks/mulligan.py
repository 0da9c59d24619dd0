"""The `mulligan` block: after the deal, every seat that may still take one answers keep or mulligan.
A seat may take one a game (`once_per_game: true`, the default), N a game at most one a round
(`once_per_game: N`), or one every round (false).

The answers are made at once, as the round-end choices are, and stay each seat's own; once all are
in, each seat that took a mulligan, in seat order, draws a new hand from the undealt cards (game.rng
shuffles them). From file format 5 on, the hands returned wait aside until every new hand is drawn,
so no new hand holds a card another seat returned this round; a seat for whom the undealt cards no
longer hold a whole hand keeps its own (its mulligan is not used up). Format 4 and before returned
each old hand to the undealt cards at once (a second mulligan of the round could draw the first's
returned hand, which its owner then knew), and replays so. Only the seat sees either of its hands;
the table is told who took one.
"""

from __future__ import annotations

from ..decisions import Decision
from .base import OWN, PUBLIC, Block

MULLIGAN, KEEP, TAKE = "mulligan", "keep", "mulligan"
SET_ASIDE_FROM = 5  # the file format from which the returned hands wait until every new hand is drawn


class MulliganBlock(Block):
    events = {"mulligan": PUBLIC, "hand": OWN}

    def __init__(self, step):
        self.step = step
        # the mulligans a seat may take in the game (once_per_game: N), or None: one every round
        self.times = step.times if step.once_per_game else None
        self.taken: dict[int, int] = {}  # seat -> the mulligans it took this game
        self.answers: dict[int, str] = {}  # this round's answers so far

    def begin_round(self, game) -> dict:
        self.answers = {}
        return {}

    def start(self, game) -> bool:
        if not self._asked(game):
            return True
        game.phase = MULLIGAN
        return False

    def _asked(self, game) -> list[int]:
        times, taken = self.times, self.taken
        return [s for s in game.seats if times is None or taken.get(s, 0) < times]

    def pending(self, game) -> list:
        number = game.round + 1
        asked = self._asked(game)
        return [Decision(seat, MULLIGAN, number, (KEEP, TAKE)) for seat in asked if seat not in self.answers]

    def decision_of(self, game, seat: int, category):
        return next((d for d in self.pending(game) if d.seat == seat), None)

    def apply(self, game, seat: int, answer, category) -> bool:
        self.answers[seat] = answer
        if len(self.answers) < len(self._asked(game)):
            return False
        takers = sorted(s for s, a in self.answers.items() if a == TAKE)
        if game.deal_version < SET_ASIDE_FROM:
            for taker in takers:
                places = game.places
                old, undealt = places.hands[taker], list(places.leftover)
                game.rng.shuffle(undealt)
                size = len(old)
                places.hands[taker], places.leftover = undealt[:size], undealt[size:] + old
                self._told(game, taker)
            return True
        returned = []
        for taker in takers:
            places = game.places
            old, undealt = places.hands[taker], list(places.leftover)
            if len(undealt) < len(old):
                continue  # no whole hand left undealt: the seat keeps its own
            game.rng.shuffle(undealt)
            places.hands[taker], places.leftover = undealt[: len(old)], undealt[len(old):]
            returned += old
            self._told(game, taker)
        game.places.leftover += returned
        return True

    def _told(self, game, seat: int) -> None:
        """The seat has its new hand: its old one is out of the round (no pass shows it), the table is told."""
        hand = game.places.hands[seat]
        game.places.seen_hands[seat] = [list(hand)]
        self.taken[seat] = self.taken.get(seat, 0) + 1
        if game.keeps_events:
            game._emit({"type": "mulligan", "round": game.round + 1, "seat": seat})
            game._emit({"type": "hand", "round": game.round + 1, "seat": seat, "cards": [c.letter for c in hand]},
                       to=seat)

    def hidden(self, game, seat: int, hidden) -> None:
        if game.block is self:  # the others' answers are their own until the new hands are drawn
            hidden.values += [(self.answers, other, (KEEP, TAKE)) for other in self.answers if other != seat]
