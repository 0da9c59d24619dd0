"""The round kind of an edition with a `flow`: reveal, secret choice, bidding around a pot, claim.

The drafting round lives in state.py; this is the other kind of round, played from the blocks an
edition declares (rulesengine/edition/flow.py) in the order it declares them (the checker allows
only orders that can be played: a secret choice may come before the reveal, say), again and again
until the deck is empty at the start of a round. It keeps the Game protocol (pending(), apply(),
view(seat), events, decisions, record()) so every front end drives it unchanged. It never names a
game, never blocks on input, and a seat's secret choice leaves it only through view(seat) and events
addressed to that seat, until the claim reveals it.
"""

from __future__ import annotations

import random

from ..edition.flow import Bidding, Claim, Reveal, SecretChoice
from ..edition.model import Edition
from ..edition.scopes import until_env
from ..errors import Diagnostic, GameRuleError
from .dealing import DEAL_VERSION
from .flow_scoring import flow_sheet
from .scoring import evaluate
from .state import Decision, check_seats

SECRET, BID, OVER = "secret", "bid", "over"
THROW_TOKEN, STOP = "throw", "stop"


def own_decisions(view: dict) -> int:
    """How many decisions this seat has made this round, read from its view: its secret choice and its bids.
    Unlike the round's `step` it does not depend on when the other seats made their simultaneous choices."""
    return (view["secret"] is not None) + sum(1 for move in view["moves"] if move["seat"] == view["seat"])


class FlowScores:
    """The score sheet of a flow game as the front ends read it (sheet(), winners(), total(seat))."""

    def __init__(self, game: StepsGame):
        self.game = game
        self._sheet = None

    def sheet(self) -> dict:
        game = self.game
        sheet = self._sheet
        if sheet is None:
            sheet = flow_sheet(game.edition, game.players, game.captured, game.kept)
            if game.over:
                self._sheet = sheet  # final: nothing changes any more
            else:  # no winner and no ranking while the game runs (as the drafting round's sheet)
                sheet.update(winners=[], ranking=[], decided_by=None)
        return {
            "players": [
                dict(p, categories=dict(p["categories"]), captured=list(p["captured"]), stocks=dict(p["stocks"]))
                for p in sheet["players"]
            ],
            "winners": list(sheet["winners"]),
            "ranking": [dict(place) for place in sheet["ranking"]],
            "decided_by": dict(sheet["decided_by"]) if sheet["decided_by"] else None,
        }

    def winners(self) -> list[int]:
        names = self.sheet()["winners"]
        return [self.game.players.index(name) for name in names]

    def total(self, seat: int) -> int:
        return self.sheet()["players"][seat]["total"]


class StepsGame:
    def __init__(
        self,
        edition: Edition,
        players: list[str],
        seed: int = 0,
        *,
        deal: bool = True,
        deal_version: int = DEAL_VERSION,
        events: bool = True,
    ):
        check_seats(edition, players)
        n = len(players)
        flow = edition.flow
        self.edition, self.players, self.seed = edition, list(players), seed
        self.deal_version = deal_version  # the save and log format (the steps round deals the same in each)
        self.reveal, self.secret = flow.step(Reveal), flow.step(SecretChoice)
        self.bidding, self.claim = flow.step(Bidding), flow.step(Claim)
        self.rng = random.Random(seed)
        self.deck = list(edition.cards)
        self.rng.shuffle(self.deck)
        self.circle: list = []
        self.captured: list[list] = [[] for _ in range(n)]
        self.kept: list[dict] = [dict(edition.stocks) for _ in range(n)]
        self.scores = FlowScores(self)
        self.events: list[dict] = []
        self.keeps_events = events  # False: no event is made (tournaments and bots' games read none)
        self.decisions: list[list] = []
        self.history: list[dict] = []  # per finished round: who started, stopped, chose and captured
        self.round = 0  # 0-based index of the round being played
        self.over = False
        self.phase = SECRET
        self.secrets: dict[int, str] = {}
        self.still_in: list[int] = []
        self.stack: list[int] = []  # seats in the order they stopped: the top is the last
        self.took: dict[int, int] = {}
        self.moves: list[dict] = []  # this round's public bids in order: who threw (the pot after), who stopped
        self.pot = 0
        self.turn: int | None = None
        self.first: int | None = None
        self.last_left: int | None = None
        self.step = 0  # decisions made this round (public: who acted, not what was chosen)
        self.at = 0  # the index of the block being played in flow.steps
        self.claimed: dict = {}  # what each seat took in this round's claim, by name
        if deal:
            self._start_round()

    @classmethod
    def at_position(
        cls,
        edition: Edition,
        players: list[str],
        seed: int,
        *,
        round: int,
        deck: list,
        circle: list,
        captured: list,
        kept: list,
        secrets: dict,
        still_in: list,
        stack: list,
        pot: int,
        turn: int | None,
        first: int,
    ) -> StepsGame:
        """A game at some position of a round (for bots playing out sampled worlds): the deck in the
        order it will be revealed, the circle, what each seat captured and kept, the secret choices
        made, and the bidding so far. The game owns the lists it is handed from then on."""
        game = cls(edition, players, seed, deal=False)
        game.round, game.deck, game.circle, game.captured, game.kept = round, list(deck), list(circle), captured, kept
        game.secrets, game.stack, game.pot, game.first, game.turn = dict(secrets), list(stack), pot, first, turn
        game.last_left = first
        if len(game.secrets) < len(players):
            game.phase, game.at = SECRET, game.edition.flow.steps.index(game.secret)
        else:
            game.phase, game.still_in = BID, list(still_in)
            game.at = game.edition.flow.steps.index(game.bidding)
        return game

    # -- the flow --------------------------------------------------------------------------
    def _emit(self, event: dict, to: int | None = None) -> None:
        if self.keeps_events:
            self.events.append(dict(event, to=to))

    def _start_round(self) -> None:
        if not self.deck:
            self._finish()
            return
        n = len(self.players)
        self.first = (
            self.rng.randrange(n) if self.bidding.first == "random" or self.last_left is None else self.last_left
        )
        self.secrets, self.stack, self.took, self.moves, self.pot, self.step = {}, [], {}, [], 0, 0
        self.phase = SECRET
        self.at = 0
        self._emit({"type": "round_start", "round": self.round + 1, "first": self.first})
        self._run()

    def _run(self) -> None:
        """Play the round's blocks from the current one, until one waits for decisions or the round ends."""
        steps = self.edition.flow.steps
        while self.at < len(steps):
            step = steps[self.at]
            if isinstance(step, SecretChoice):
                if len(self.secrets) < len(self.players):
                    self.phase = SECRET
                    return
            elif isinstance(step, Bidding):
                if self.phase != BID:
                    self.phase = BID
                    self.still_in = list(range(len(self.players)))
                    self.turn = self.first
                    self._advance()
                if len(self.still_in) > 1:
                    return
            elif isinstance(step, Reveal):
                self._reveal()
            elif isinstance(step, Claim):
                self._claim(self.still_in[0])
            self.at += 1
        self._end_round()

    def _reveal(self) -> None:
        drawn = []
        while self.deck and not self._until_holds():
            drawn.append(self.deck.pop())
            self.circle.append(drawn[-1])
        if not drawn and self.history and not any(self.history[-1]["captured"].values()):
            drawn.append(self.deck.pop())  # nothing changed last round: turn one card so the game moves on
            self.circle.append(drawn[-1])
        self._emit(
            {
                "type": "reveal_cards",
                "round": self.round + 1,
                "cards": [c.letter for c in drawn],
                "circle": [c.letter for c in self.circle],
                "deck": len(self.deck),
            }
        )

    def _until_holds(self) -> bool:
        until = self.reveal.until
        return bool(evaluate(until, until_env(self.circle, len(self.players), self.round + 1), "reveal `until`"))

    def pending(self) -> list[Decision]:
        """Every decision the game is waiting for now: every secret choice at once, then one bidder at a time."""
        if self.over:
            return []
        if self.phase == SECRET:
            return [
                Decision(seat, SECRET, self.round + 1, self.secret.family.icons, self.secret.key)
                for seat in range(len(self.players))
                if seat not in self.secrets
            ]
        return [Decision(self.turn, BID, self.round + 1, (THROW_TOKEN, STOP), None)]

    def apply(self, seat: int, answer, category: str | None = None) -> None:
        """Answer one pending decision of this seat: an icon for the secret choice, throw or stop for a bid."""
        mine = [d for d in self.pending() if d.seat == seat and (category is None or d.category == category)]
        if not mine:
            raise GameRuleError(Diagnostic(None, f"seat {seat} has no decision to make now", "G604"))
        decision = mine[0]
        if answer not in decision.options:
            raise GameRuleError(
                Diagnostic(
                    None,
                    f"'{answer}' is not a legal {decision.kind} for {self.players[seat]} "
                    f"(options: {', '.join(map(str, decision.options))})",
                    "G605",
                )
            )
        self._emit(
            {
                "type": "decision",
                "round": self.round + 1,
                "seat": seat,
                "kind": decision.kind,
                "category": decision.category,
                "answer": answer,
            },
            to=seat,
        )
        self.decisions.append([seat, answer, decision.category])
        self.step += 1
        if decision.kind == SECRET:
            self.secrets[seat] = answer
            self._emit({"type": "secret_chosen", "round": self.round + 1, "seat": seat})
            if len(self.secrets) == len(self.players):
                self.at += 1
                self._run()
            return
        if answer == THROW_TOKEN:
            self.kept[seat][self.bidding.stock] -= 1
            self.pot += 1
            self.moves.append({"seat": seat, "move": THROW_TOKEN, "pot": self.pot})
            self._emit({"type": "throw_token", "round": self.round + 1, "seat": seat, "pot": self.pot})
            self.turn = self._next_in(seat)
        else:
            self._stop(seat, take=True)
        self._advance()
        if len(self.still_in) == 1:
            self.at += 1
            self._run()

    def _next_in(self, seat: int) -> int:
        n = len(self.players)
        return next((seat + k) % n for k in range(1, n + 1) if (seat + k) % n in self.still_in)

    def _stop(self, seat: int, take: bool) -> None:
        took = self.pot if take else 0
        self.kept[seat][self.bidding.stock] += took
        self.pot -= took
        self.took[seat] = took
        self.moves.append({"seat": seat, "move": STOP, "took": took})
        self.stack.append(seat)
        after = self._next_in(seat)
        self.still_in.remove(seat)
        self.turn = after
        self._emit({"type": "stop", "round": self.round + 1, "seat": seat, "took": took, "stack": len(self.stack)})

    def _advance(self) -> None:
        """Play what needs no decision: a seat that cannot throw stops; the last one left ends the bidding."""
        stock = self.bidding.stock
        while len(self.still_in) > 1 and self.kept[self.turn][stock] == 0:
            self._stop(self.turn, take=True)  # with an empty pot it takes nothing (the special case)

    def _claim(self, last: int) -> None:
        order = [last] + self.stack[::-1]
        captured = self.claimed = {}
        for seat in order:
            icon = self.secrets[seat]
            taken = [c for c in self.circle if icon in c.icons]
            self.circle = [c for c in self.circle if icon not in c.icons]
            self.captured[seat].extend(taken)
            captured[self.players[seat]] = [c.letter for c in taken]
            self._emit(
                {
                    "type": "claim",
                    "round": self.round + 1,
                    "seat": seat,
                    "choice": icon,
                    "cards": [c.letter for c in taken],
                }
            )
        self.last_left = last

    def _end_round(self) -> None:
        last = self.last_left
        self.history.append(
            {
                "first": self.players[self.first],
                "last_left": self.players[last],
                "stopped": [self.players[s] for s in self.stack],
                "took": {self.players[s]: t for s, t in self.took.items()},
                "choices": {self.players[s]: self.secrets[s] for s in range(len(self.players))},
                "captured": self.claimed,
            }
        )
        self.round += 1
        self.turn = None
        self._start_round()

    def _finish(self) -> None:
        self.over = True
        self.phase = OVER
        sheet = self.scores.sheet()
        self._emit(
            {
                "type": "game_over",
                "totals": {p["name"]: p["total"] for p in sheet["players"]},
                "winners": sheet["winners"],
            }
        )

    # -- what a seat may see ---------------------------------------------------------------
    def view(self, seat: int, lazy: bool = False) -> dict:
        """Everything this seat may know now: every public thing, and its own secret choice only
        (lazy is the drafting round's option; this view is always built whole)."""
        names = self.players
        return {
            "edition": self.edition.id,
            "players": list(names),
            "seat": seat,
            "flow": True,
            "round": self.round + 1,
            "rounds": None,
            "phase": self.phase,
            "step": self.step,
            "circle": [c.letter for c in self.circle],
            "deck": len(self.deck),
            "pot": self.pot,
            "stocks": [dict(k) for k in self.kept],
            "captured": [[c.letter for c in cards] for cards in self.captured],
            "first": self.first,
            "turn": self.turn,
            "still_in": list(self.still_in) if self.phase == BID else [],
            "stack": list(self.stack),
            "moves": [dict(m) for m in self.moves],
            "chosen": sorted(self.secrets),
            "secret": self.secrets.get(seat),
            "history": [dict(r) for r in self.history],
            "sheet": self.scores.sheet(),
            "pending": [d.as_dict() for d in self.pending() if d.seat == seat],
        }

    def events_for(self, seat: int | None) -> list[dict]:
        """The event log as this seat may read it (None: only public events)."""
        return [e for e in self.events if e["to"] is None or e["to"] == seat]

    def record(self) -> dict:
        """The game as a record for `boom score`: what each seat captured and the tokens it kept."""
        return {
            "edition": self.edition.id,
            "players": list(self.players),
            "captured": {name: [c.letter for c in self.captured[s]] for s, name in enumerate(self.players)},
            "kept": {name: dict(self.kept[s]) for s, name in enumerate(self.players)},
        }
