"""The `throw`, `pick_and_pass` and `catch` blocks: the cards taken from the hands as they go round.

Every seat picks at once (its answers stay its own until every seat has picked), then the picks
are placed and the hands pass on in the round's direction (game.passing.play_picks, the one rule the
bots' rollouts use too). `pick_and_pass` takes `picks` cards a pass (1 after its list); a pass of
two or more is asked as that many decisions in a row, each one card, so every front end shows it
unchanged, and the seat's cards chosen so far wait in the block's `partial`. With `discards`, a seat
then discards that many cards of its hand (a `discard` decision each, asked after its picks): they
go out of the round into the `discarded` place, face up once the pass is played. The first card of
the round is the Throw (`throw`), face down until the `catch` has taken the last card of each hand;
then the Throws are turned up. With `open`, every hand is face up: each seat's table entry shows its
hand (`hand`), and no hand is hidden (hidden() takes the hands back out of what the deal hides).
Otherwise no other seat's hand or unplaced pick ever leaves these blocks.
"""

from __future__ import annotations

from ..decisions import Decision, decision_from_fields
from ..passing import play_picks
from ..places import ALL, Place
from .base import OWN, PUBLIC, Block

THROW, DRAFT, CHOICE, DISCARD = "throw", "draft", "choice", "discard"


class ThrowBlock(Block):
    """The round's first pick is face down: the pick-and-pass block asks it as a Throw."""

    __slots__ = ("face_down",)
    view = ("throw",)

    def __init__(self, step):
        self.step = step
        self.face_down = True  # the round's Throws are face down (until the catch turns them up)

    def start(self, game) -> bool:
        game.phase = THROW
        self.face_down = True  # (no card is taken before this block: nothing to turn down at the round's start)
        return True

    def resume(self, game, position: dict) -> None:
        self.face_down = game.phase != CHOICE

    def view_throw(self, game, seat: int):
        mine = game.places.drafts[seat]
        return mine[0].letter if mine else None

    def hidden(self, game, seat: int, hidden) -> None:
        if self.face_down:
            drafts = game.places.drafts
            hidden.face_down += [(drafts[other], 0) for other in game.seats if other != seat and drafts[other]]


class PickAndPassBlock(Block):
    __slots__ = ("picks", "discards", "quick", "chosen", "partial", "discarding", "passes", "_cache", "throw")
    places = (Place("drafts", ALL, words="the cards each seat has taken this round (the Throw face down)"),
              Place("discarded", ALL, words="the cards each seat has discarded this round, face up"))
    view = ("hand", "seen_hands", "picked", "direction", "table")
    public = ("direction", "table")
    entries = {"table": ("name", "face_up", "throw_down", "hand_size")}
    events = {"throw": OWN, "throw_placed": PUBLIC, "draft": PUBLIC, "discard": PUBLIC, "hand": OWN}
    history = ("drafts",)
    record = ("rounds",)

    @classmethod
    def entries_of(cls, step) -> dict:
        """A round that discards shows each seat's discards in its table entry; open hands show each hand."""
        shown = ("discarded",) * any(step.discards) + ("hand",) * step.open
        return {"table": cls.entries["table"] + shown} if shown else cls.entries

    def __init__(self, step):
        self.step = step
        self.picks = step.picks  # cards a seat takes on each pass (the Throw's pass first); 1 after the list
        self.discards = step.discards  # cards a seat discards on each pass, after its picks; 0 after the list
        # one card a pass and no discard: Game.apply may take a pick from the hand
        self.quick = not any(p > 1 for p in self.picks) and not any(self.discards)
        self.chosen: dict[int, object] = {}  # each seat's pick of this pass (a tuple on a pass of several)
        # on a pass of several cards (picks, then discards): the cards a seat has chosen so far
        self.partial: dict[int, list] = {}
        self.discarding: dict[int, list] = {}  # each seat's discards of this pass, once all its cards are chosen
        self.passes = 0  # passes made this round
        self._cache: tuple = (None, [])  # (round, phase, hand size) -> every seat's pick decision
        self.throw: ThrowBlock | None = None

    def setup(self, game) -> None:
        self.throw = game.block_named("throw")  # (the drafts are made at each round's start: begin_round, resume)
        game.places.discarded = [[] for _ in range(len(game.players) + game.ghosts)]

    def begin_round(self, game) -> dict:
        game.places.drafts = [[] for _ in range(len(game.players) + game.ghosts)]
        if self.discards:  # (a round that discards none leaves them empty: a list less to make every round)
            game.places.discarded = [[] for _ in range(len(game.players) + game.ghosts)]
        self.chosen, self.partial, self.discarding, self.passes, self._cache = {}, {}, {}, 0, (None, [])
        game.phase = DRAFT
        if not game.keeps_events:
            return {}
        return {"direction": "left" if game.edition.passing.direction(game.round) > 0 else "right"}

    def start(self, game) -> bool:
        return False

    def wanted(self) -> int:
        picks, at = self.picks, self.passes
        return picks[at] if at < len(picks) else 1

    def thrown(self) -> int:
        """Cards a seat discards on this pass."""
        discards, at = self.discards, self.passes
        return discards[at] if at < len(discards) else 0

    def pending(self, game) -> list:
        if not self.quick:
            return [self._decision(game, seat) for seat in game.seats if seat not in self.chosen]
        chosen = self.chosen
        decisions = self._decisions(game)
        return [d for d in decisions if d.seat not in chosen] if chosen else list(decisions)

    def _decisions(self, game) -> list[Decision]:
        """Every seat's pick of this step, built once per step: the hands only change when they are passed."""
        phase, hands = game.phase, game.places.hands
        key = (game.round, phase, len(hands[0]))
        cache = self._cache
        if cache[0] != key:
            number, decisions = game.round + 1, []
            for seat in game.seats:  # no decision for a ghost hand (a loop: a comprehension's frame costs more)
                decisions.append(decision_from_fields((seat, phase, number, tuple([c.letter for c in hands[seat]]),
                                                       None)))
            cache = self._cache = (key, decisions)
        return cache[1]

    def decision_of(self, game, seat: int, category):
        if category is not None or seat in self.chosen or seat not in game.seats:
            return None
        if not self.quick:
            return self._decision(game, seat)
        return self._decisions(game)[seat]

    def _decision(self, game, seat: int) -> Decision:
        """One card of a pass of several (picks, then discards): the seat's cards chosen so far this pass are no
        longer offered."""
        chosen = self.partial.get(seat, ())
        kind = DISCARD if len(chosen) >= self.wanted() else THROW if game.phase == THROW and not chosen else DRAFT
        hand = game.places.hands[seat]
        return Decision(seat, kind, game.round + 1, tuple(c.letter for c in hand if c not in chosen))

    def apply(self, game, seat: int, answer, category) -> bool:
        card = game.edition.card(answer)
        if not self.quick:
            chosen = self.partial.setdefault(seat, [])
            chosen.append(card)
            wanted = self.wanted()
            if len(chosen) < wanted + self.thrown():
                return False
            cards = self.partial.pop(seat)
            if len(cards) > wanted:  # the discards wait, unseen, until the pass is played
                self.discarding[seat] = cards[wanted:]
            card = tuple(cards[:wanted]) if wanted > 1 else cards[0]
        return self.place(game, seat, card)

    def place(self, game, seat: int, card) -> bool:
        """This seat's pick of the pass (a card, or a tuple of them) placed; the pass is played once every
        seat has picked. True when the block is over."""
        chosen = self.chosen
        chosen[seat] = card
        return len(chosen) == len(game.seats) and self._resolve(game)

    def _resolve(self, game) -> bool:
        """Place every seat's pick and pass the hands; over when each hand holds its last card (the Catch)."""
        seats, places = game.seats, game.places
        n = len(seats)
        phase = game.phase
        picks = [*map(self.chosen.__getitem__, seats)]
        if game.ghosts:  # each ghost hand takes random cards, seen by nobody
            wanted = self.wanted()
            for hand in places.hands[n:]:
                picks.append(game.rng.choice(hand) if wanted == 1 else tuple(game.rng.sample(hand, wanted)))
        thrown = self._discard(game, picks) if self.discards and self.thrown() else None
        places.hands = play_picks(game.edition.passing, game.round, places.hands, places.drafts, picks,
                                  take_catch=False, pass_index=self.passes)
        if game.keeps_events:  # (the events of a pass of several: the Throw first, then the face-up cards)
            number = game.round + 1
            for seat, pick in enumerate(picks[:n]):  # a ghost hand's cards are never told
                for index, card in enumerate(pick if type(pick) is tuple else (pick,)):
                    if phase == THROW and index == 0:
                        game._emit({"type": "throw", "round": number, "seat": seat, "card": card.letter}, to=seat)
                        game._emit({"type": "throw_placed", "round": number, "seat": seat})
                    else:
                        game._emit({"type": "draft", "round": number, "seat": seat, "card": card.letter})
            for seat, cards in enumerate(thrown or ()):
                for card in cards:
                    game._emit({"type": "discard", "round": number, "seat": seat, "card": card.letter})
        self.chosen = {}
        game.phase = DRAFT
        self.passes += 1
        hands = places.hands
        if len(hands[0]) <= 1:
            return True
        seen = places.seen_hands
        for seat in seats:  # the ghosts see nothing
            seen[seat].append(hands[seat][:])
        if game.keeps_events:
            for seat, hand in enumerate(hands[:n]):
                game._emit({"type": "hand", "round": game.round + 1, "seat": seat, "cards": [c.letter for c in hand]},
                           to=seat)
        return False

    def _discard(self, game, picks: list) -> list:
        """Every seat's discards of this pass out of its hand (a ghost hand's at random, from what its picks
        leave), before the picks are placed and the hands passed; the players' discards, seat by seat."""
        places, n, count = game.places, len(game.players), self.thrown()
        thrown, self.discarding = [self.discarding[seat] for seat in game.seats], {}
        for pick, hand in zip(picks[n:], places.hands[n:], strict=True):
            left = [c for c in hand if c not in (pick if type(pick) is tuple else (pick,))]
            thrown.append(game.rng.sample(left, count))
        for seat, cards in enumerate(thrown):
            hand = places.hands[seat]
            for card in cards:
                hand.remove(card)
            places.discarded[seat] += cards
        return thrown[:n]

    def end_round(self, game, entry: dict) -> None:
        drafts, told = game.places.drafts, {}
        for seat, name in enumerate(game.players):  # (not the ghosts')
            told[name] = [c.letter for c in drafts[seat]]
        entry["drafts"] = told

    def finish(self, game) -> None:
        game.places.drafts = [[] for _ in game.players]  # the finished rounds are all in history
        game.places.discarded = [[] for _ in game.players]

    def add_record(self, game, record: dict) -> None:
        record["rounds"] = [dict(r) for r in game.history]

    def resume(self, game, position: dict) -> None:
        drafts, discarded = position.pop("drafts", None), position.pop("discarded", None)
        game.places.drafts = drafts if drafts is not None else [[] for _ in game.players]
        game.places.discarded = discarded if discarded is not None else [[] for _ in game.places.drafts]
        self.partial = dict(position.pop("partial", None) or {})
        self.passes, taken = 0, len(game.places.drafts[0])
        while taken > 0:  # the passes a seat that has taken this many cards has made
            taken -= self.picks[self.passes] if self.passes < len(self.picks) else 1
            self.passes += 1

    # -- what a seat may see -----------------------------------------------------------------------
    def view_hand(self, game, seat: int) -> list:
        """The seat's hand, less the cards it has already chosen on a pass of several (view["picked"])."""
        chosen = self.partial.get(seat) if self.partial else None
        hand = game.places.hands[seat]
        if not chosen:
            return [c.letter for c in hand]
        return [c.letter for c in hand if c not in chosen]

    def view_seen_hands(self, game, seat: int) -> list:
        return [[c.letter for c in hand] for hand in game.places.seen_hands[seat]]

    def view_picked(self, game, seat: int) -> list:
        return [c.letter for c in self.partial.get(seat, ())]  # its own, on a pass of several

    def view_direction(self, game, seat: int) -> int:
        edition = game.edition  # (this pass's, when the round passes by `pass_directions`)
        return edition.passing.direction(min(game.round, edition.rounds - 1), self.passes)

    def view_table(self, game, seat: int) -> list:
        table, places = [], game.places
        revealed = self.throw is None or not self.throw.face_down
        for other in game.seats:
            cards = places.drafts[other] if not game.over else []
            face_up = [c.letter for c in (cards if revealed else cards[1:])]
            table.append({"name": game.players[other], "face_up": face_up, "throw_down": bool(cards) and not revealed,
                          "hand_size": len(places.hands[other])})
            if self.discards:  # (only a round that discards: every other view is as it was)
                table[-1]["discarded"] = [c.letter for c in places.discarded[other]] if not game.over else []
            if self.step.open:  # open hands: every hand face up
                table[-1]["hand"] = [c.letter for c in places.hands[other]] if not game.over else []
        return table

    def hidden(self, game, seat: int, hidden) -> None:
        hidden.cards += game.places.drafts[len(game.players):]  # a ghost hand's cards are never told
        if self.step.open:  # every player's hand is face up (a ghost's is nobody's: still hidden)
            shown = game.places.hands[:len(game.players)]
            hidden.cards = [cards for cards in hidden.cards if not any(cards is hand for hand in shown)]

    @staticmethod
    def made(view) -> int:
        """The cards the seat has taken this round and chosen so far on this pass: its hand as dealt, less its
        hand now (which leaves out the cards chosen)."""
        return len(view["seen_hands"][0]) - len(view["hand"]) if view["seen_hands"] else 0


class CatchBlock(Block):
    """The last card of each hand, passed on by the last pass (the other way with `from: previous`), is taken;
    then every Throw is turned face up."""

    __slots__ = ("throw",)
    events = {"catch": PUBLIC, "reveal": PUBLIC}

    def __init__(self, step):
        self.step = step
        self.throw: ThrowBlock | None = None

    def setup(self, game) -> None:
        self.throw = game.block_named("throw")

    def start(self, game) -> bool:
        places, n = game.places, len(game.players)
        for seat in range(len(places.hands)):  # the ghost hands' last cards too
            places.drafts[seat].append(places.hands[seat].pop())
        if self.throw is not None:
            self.throw.face_down = False
        if game.keeps_events:
            number = game.round + 1
            for seat in range(n):
                game._emit({"type": "catch", "round": number, "seat": seat, "card": places.drafts[seat][-1].letter})
            throws = {str(s): places.drafts[s][0].letter for s in range(n)}
            game._emit({"type": "reveal", "round": number, "throws": throws})
        return True
