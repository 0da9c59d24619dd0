"""The `bidding` block: in turn, each seat still in throws a token of its stock into the pot, or stops.

With `most: N` a seat throws 1 to N tokens a turn (as many as it holds): its answers are `throw`,
`throw 2` ... `throw N`; the published game throws one (`most: 1`, the default).

A seat that stops takes the pot and its secret choice goes on top of the stack; a seat with no
token left stops by itself (taking the pot, which may be empty); the last seat left does not bid.
Every bid is made in the open: the stocks, the pot, the stack, whose turn it is and this round's
bids are on the table. The first seat is drawn at random (game.rng) in the first round, and with
`first: random` every round; else it is the seat left last in the round before. It asks the same
question again and again in a round, so bots tell its bids apart by how many the seat has made.
"""

from __future__ import annotations

from ..decisions import Decision
from ..places import ALL, Place
from .base import PUBLIC, Block

BID, THROW_TOKEN, STOP = "bid", "throw", "stop"


class BiddingBlock(Block):
    places = (Place("stocks", ALL, cards=False, words="each seat's tokens"),
              Place("stack", ALL, per_seat=False, cards=False, words="the seats in the order they stopped"),
              Place("last_left", ALL, per_seat=False, cards=False, words="the seat left last in the bidding"))
    view = public = ("step", "pot", "stocks", "first", "turn", "still_in", "stack", "moves")
    events = {"throw_token": PUBLIC, "stop": PUBLIC}
    history = ("first", "last_left", "stopped", "took")
    record = ("kept",)
    repeats = True

    def __init__(self, step):
        self.step = step
        self.stock, self.draw_first = step.stock, step.first
        self.most, self.throws = step.most, step.throws()  # the most tokens a throw; its answers, 1 token first
        self.first: int | None = None
        self.turn: int | None = None
        self.still_in: list[int] = []
        self.pot = 0
        self.took: dict[int, int] = {}
        self.moves: list[dict] = []  # this round's bids in order: who threw (the pot after), who stopped
        self.bidding = False  # the bidding has started this round

    def setup(self, game) -> None:
        places = game.places
        places.stocks = [dict(game.edition.stocks) for _ in game.players]
        places.stack, places.last_left = [], None

    def begin_round(self, game) -> dict:
        places, n = game.places, len(game.players)
        if self.draw_first == "random" or places.last_left is None:
            self.first = game.rng.randrange(n)
        else:
            self.first = places.last_left
        places.stack, self.took, self.moves, self.pot, self.bidding = [], {}, [], 0, False
        return {"first": self.first}

    def start(self, game) -> bool:
        game.phase = BID
        self.bidding = True
        self.still_in = list(game.seats)
        self.turn = self.first
        self._advance(game)
        return self._over(game)

    def _over(self, game) -> bool:
        if len(self.still_in) > 1:
            return False
        game.places.last_left = self.still_in[0]
        return True

    def _options(self, game, seat: int) -> tuple:
        """throw (one token), throw 2 ... up to `most` and the seat's tokens, or stop."""
        if self.most == 1:
            return (THROW_TOKEN, STOP)
        held = game.places.stocks[seat][self.stock]
        return (*self.throws[: max(1, min(self.most, held))], STOP)

    def pending(self, game) -> list:
        return [Decision(self.turn, BID, game.round + 1, self._options(game, self.turn), None)]

    def decision_of(self, game, seat: int, category):
        if seat != self.turn or category is not None:
            return None
        return Decision(seat, BID, game.round + 1, self._options(game, seat), None)

    def apply(self, game, seat: int, answer, category) -> bool:
        if answer != STOP:
            tokens = self.throws.index(answer) + 1
            game.places.stocks[seat][self.stock] -= tokens
            self.pot += tokens
            move = {"seat": seat, "move": THROW_TOKEN, "pot": self.pot}
            event = {"type": "throw_token", "round": game.round + 1, "seat": seat, "pot": self.pot}
            if self.most > 1:   # (the published game throws one: its moves and events say no number)
                move["tokens"] = event["tokens"] = tokens
            self.moves.append(move)
            if game.keeps_events:
                game._emit(event)
            self.turn = self._next_in(game, seat)
        else:
            self._stop(game, seat)
        self._advance(game)
        return self._over(game)

    def _next_in(self, game, seat: int) -> int:
        n = len(game.players)
        return next((seat + k) % n for k in range(1, n + 1) if (seat + k) % n in self.still_in)

    def _stop(self, game, seat: int) -> None:
        """The seat stops, takes the pot and puts its choice on top of the stack."""
        took = self.pot
        game.places.stocks[seat][self.stock] += took
        self.pot -= took
        self.took[seat] = took
        self.moves.append({"seat": seat, "move": STOP, "took": took})
        stack = game.places.stack
        stack.append(seat)
        after = self._next_in(game, seat)
        self.still_in.remove(seat)
        self.turn = after
        if game.keeps_events:
            game._emit({"type": "stop", "round": game.round + 1, "seat": seat, "took": took, "stack": len(stack)})

    def _advance(self, game) -> None:
        """Play what needs no decision: a seat that cannot throw stops; the last one left ends the bidding."""
        stocks = game.places.stocks
        while len(self.still_in) > 1 and stocks[self.turn][self.stock] == 0:
            self._stop(game, self.turn)  # with an empty pot it takes nothing (the special case)

    def end_round(self, game, entry: dict) -> None:
        names = game.players
        entry.update(first=names[self.first], last_left=names[game.places.last_left],
                     stopped=[names[s] for s in game.places.stack], took={names[s]: t for s, t in self.took.items()})
        self.turn = None

    def add_record(self, game, record: dict) -> None:
        record["kept"] = {name: dict(game.places.stocks[s]) for s, name in enumerate(game.players)}

    def resume(self, game, position: dict) -> None:
        places = game.places
        places.stocks = position.pop("stocks")
        places.stack, self.pot = list(position.pop("stack")), position.pop("pot")
        self.first = places.last_left = position.pop("first")
        self.turn = position.pop("turn")
        still_in = position.pop("still_in")
        if game.block is self:
            self.bidding, self.still_in = True, list(still_in)
            game.phase = BID

    # -- what a seat may see ---------------------------------------------------------------------
    def view_step(self, game, seat: int) -> int:
        return len(game.decisions) - game.round_began

    def view_pot(self, game, seat: int) -> int:
        return self.pot

    def view_stocks(self, game, seat: int) -> list:
        return [dict(k) for k in game.places.stocks]

    def view_first(self, game, seat: int):
        return self.first

    def view_turn(self, game, seat: int):
        return self.turn

    def view_still_in(self, game, seat: int) -> list:
        return list(self.still_in) if game.phase == BID else []

    def view_stack(self, game, seat: int) -> list:
        return list(game.places.stack)

    def view_moves(self, game, seat: int) -> list:
        return [dict(m) for m in self.moves]

    @staticmethod
    def made(view) -> int:
        return sum(1 for move in view["moves"] if move["seat"] == view["seat"])
