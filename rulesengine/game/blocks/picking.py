"""The `throw`, `pick_and_pass` and `catch` blocks: the cards taken from the hands as they go round.

Every seat picks at once (its answers stay its own until every seat has picked), then the picks
are placed and the hands pass on in the round's direction (game.state.play_picks, the one rule the
bots' rollouts use too). `pick_and_pass` takes `picks` cards a pass (1 after its list); a pass of
two or more is asked as that many decisions in a row, each one card, so every front end shows it
unchanged, and the seat's cards chosen so far wait in game.partial. The first card of the round
is the Throw (`throw`), face down until the `catch` has taken the last card of each hand; then the
Throws are turned up. No other seat's hand or unplaced pick ever leaves these blocks.
"""

from __future__ import annotations

from ..decisions import Decision
from ..passing import play_picks
from .base import Block

THROW, DRAFT = "throw", "draft"


class ThrowBlock(Block):
    """The round's first pick is face down: the pick-and-pass block asks it as a Throw."""

    def start(self, game) -> bool:
        game.phase = THROW
        return True


class PickAndPassBlock(Block):
    def __init__(self, step):
        self.picks = step.picks  # cards a seat takes on each pass (the Throw's pass first); 1 after the list
        self.quick = not any(p > 1 for p in self.picks)  # one card a pass: Game.apply may take a pick from the hand

    def start(self, game) -> bool:
        return False

    def wanted(self, game) -> int:
        picks, at = self.picks, game.passes
        return picks[at] if at < len(picks) else 1

    def pending(self, game) -> list:
        if self.picks and self.wanted(game) > 1:
            return [self._decision(game, seat) for seat in range(len(game.players)) if seat not in game.picks]
        picks = game.picks
        decisions = game._pick_decisions()
        return [d for d in decisions if d.seat not in picks] if picks else list(decisions)

    def decision_of(self, game, seat: int, category):
        if category is not None or seat in game.picks or not 0 <= seat < len(game.players):
            return None
        if self.picks and self.wanted(game) > 1:
            return self._decision(game, seat)
        return game._pick_decisions()[seat]

    def _decision(self, game, seat: int) -> Decision:
        """One card of a pass of several: the seat's cards chosen so far this pass are no longer offered."""
        chosen = game.partial.get(seat, ())
        kind = THROW if game.phase == THROW and not chosen else DRAFT
        return Decision(seat, kind, game.round + 1, tuple(c.letter for c in game.hands[seat] if c not in chosen))

    def apply(self, game, seat: int, answer, category) -> bool:
        card = game.edition.card(answer)
        if not self.quick and self.wanted(game) > 1:
            chosen = game.partial.setdefault(seat, [])
            chosen.append(card)
            if len(chosen) < self.wanted(game):
                return False
            card = tuple(game.partial.pop(seat))
        return self.place(game, seat, card)

    def place(self, game, seat: int, card) -> bool:
        """This seat's pick of the pass (a card, or a tuple of them) placed; the pass is played once every
        seat has picked. True when the block is over."""
        picks = game.picks
        picks[seat] = card
        return len(picks) == len(game.seats) and self._resolve(game)

    def _resolve(self, game) -> bool:
        """Place every seat's pick and pass the hands; over when each hand holds its last card (the Catch)."""
        seats = game.seats
        n = len(seats)
        phase = game.phase
        picks = [*map(game.picks.__getitem__, seats)]
        if game.ghosts:  # each ghost hand takes random cards, seen by nobody
            wanted = self.wanted(game)
            for hand in game.hands[n:]:
                picks.append(game.rng.choice(hand) if wanted == 1 else tuple(game.rng.sample(hand, wanted)))
        game.hands = play_picks(game.edition.passing, game.round, game.hands, game.drafts, picks, take_catch=False)
        if game.keeps_events:  # (the events of a pass of several: the Throw first, then the face-up cards)
            number = game.round + 1
            for seat, pick in enumerate(picks[:n]):  # a ghost hand's cards are never told
                for index, card in enumerate(pick if type(pick) is tuple else (pick,)):
                    if phase == THROW and index == 0:
                        game._emit({"type": "throw", "round": number, "seat": seat, "card": card.letter}, to=seat)
                        game._emit({"type": "throw_placed", "round": number, "seat": seat})
                    else:
                        game._emit({"type": "draft", "round": number, "seat": seat, "card": card.letter})
        game.picks = {}
        game.phase = DRAFT
        game.passes += 1
        if len(game.hands[0]) <= 1:
            return True
        hands, seen = game.hands, game.seen_hands
        for seat in seats:  # the ghosts see nothing
            seen[seat].append(hands[seat][:])
        if game.keeps_events:
            for seat, hand in enumerate(game.hands[:n]):
                cards = [c.letter for c in hand]
                game._emit({"type": "hand", "round": game.round + 1, "seat": seat, "cards": cards}, to=seat)
        return False


class CatchBlock(Block):
    """The last card of each hand, passed on by the last pass (the other way with `from: previous`), is taken;
    then every Throw is turned face up."""

    def start(self, game) -> bool:
        n = len(game.players)
        for seat in range(len(game.hands)):  # the ghost hands' last cards too
            game.drafts[seat].append(game.hands[seat].pop())
        if game.keeps_events:
            for seat in range(n):
                caught = game.drafts[seat][-1]
                game._emit({"type": "catch", "round": game.round + 1, "seat": seat, "card": caught.letter})
            throws = {str(s): game.drafts[s][0].letter for s in range(n)}
            game._emit({"type": "reveal", "round": game.round + 1, "throws": throws})
        return True
