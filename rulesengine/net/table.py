"""One table on the server: its seats, its game, who plays each seat now, and what each seat is told.

It knows nothing of sockets: each call returns the messages to deliver as (seat, message) pairs,
and the server sends them. A decision is checked against the seat's pending decisions here, and
written to the store before it is applied, so nothing acknowledged is ever lost. It never puts the
seed, another seat's cards or the full state in a message (see rulesengine.net.secrecy).
"""

from __future__ import annotations

import hmac
import json
import secrets
import time

from ..bots.registry import agent_seed, make_bot
from ..bots.seeding import seeding_for
from ..edition.model import Edition
from ..errors import BoomError, Diagnostic
from ..game.dealing import DEAL_VERSION
from ..game.state import Decision, Game
from .clocks import Clock
from .editions import edition_text
from .protocol import ProtocolError
from .seats import Seat
from .secrecy import seat_events, seat_view
from .spectators import NOBODY, Gallery
from .storage import Store, StoredTable, token_hash


class Table:
    def __init__(
        self,
        code: str,
        edition: Edition,
        edition_text: str,
        players: int,
        bots: int,
        bot_kind: str,
        seed: int,
        store: Store,
        deal: int = DEAL_VERSION,
        spectators: str = "live",
        clock: Clock | None = None,
        seat_options: dict | None = None,
    ):
        self.code = code
        # the edition's seat options the host set: seat number from 1, as text -> option -> number
        self.seat_options = dict(seat_options or {})
        self.clock = clock  # the per-move clock the host set (clocks.py), or None
        self.wall = time.time  # the wall clock the deadlines are read on (the tests give their own)
        self.spectators = spectators  # live, round (a round behind) or off: spectators.DELAYS
        self.gallery: Gallery | None = None
        self.round_starts = [0]  # the number of decisions played when each round began
        self.deal = deal  # the engine's deal version: a table resumes with the deal it started with
        self.edition = edition
        self.edition_text = edition_text
        self.bot_kind = bot_kind
        self.seed = seed
        self.store = store
        self.seats = [Seat(None, "player") for _ in range(players - bots)]
        self.seats += [Seat(f"Bot {n + 1}", "bot") for n in range(bots)]
        self.game: Game | None = None
        self.opened = 0.0  # when the server opened it (its clock): a lobby waits lobby_timeout at most
        self._bots: dict[int, object] = {}
        self.host: str | None = None  # the opening address, keyed: whose share of the bots' time this table spends
        self.answered: dict[tuple, int] = {}  # (seat, round, kind, category): decisions of it answered so far

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def restore(cls, stored: StoredTable, edition: Edition, store: Store, now: float) -> Table:
        """The table as it was written: seats taken, and the game replayed to its last decision."""
        table = cls(
            stored.code,
            edition,
            edition_text(stored.edition),
            stored.players,
            stored.bots,
            stored.bot_kind,
            stored.seed,
            store,
            stored.deal,
            stored.spectators,
            Clock.from_text(stored.clock) if stored.clock else None,
            stored.seat_options,
        )
        table.host = stored.host
        for seat, name, kind, hashed in stored.seats:
            table.seats[seat] = Seat(name, kind, hashed, gone_since=now if kind == "player" else None)
        if table.clock is not None:
            for seat in table.clock.forfeited:
                table.seats[seat].forfeited = True
        if table.full():
            table.start()
            table.replay(stored.decisions)
        return table

    def restarted(self, wall) -> None:
        """Back in a server started again: the stored deadlines go on (one passed meanwhile gets a short grace),
        read on this wall clock."""
        self.wall = wall
        if self.clock is not None:
            self.clock.restarted(wall())
            self.wind()

    def replay(self, decisions) -> None:
        """Play decisions read from the log, [seat, answer, category] each (a restore, or a follower catching up)."""
        for index, (seat, answer, category) in enumerate(decisions, len(self.game.decisions)):
            try:
                self._play(self._pending_of(seat, category), answer)
            except (BoomError, StopIteration):
                message = f"table {self.code}: decision {index + 1} no longer replays"
                raise BoomError(Diagnostic(None, message, "N204")) from None

    def save_new(self, now: float, host: str | None = None) -> None:
        self.store.add_table(
            self.code,
            self.edition_text,
            len(self.seats),
            self.bots_count(),
            self.bot_kind,
            self.seed,
            now,
            self.deal,
            host,
            self.spectators,
            self.clock.to_text() if self.clock is not None else None,
            json.dumps(self.seat_options, sort_keys=True) if self.seat_options else None,
        )
        for number, seat in enumerate(self.seats):
            if seat.kind == "bot":
                self.store.add_seat(self.code, number, seat.name, "bot", None)

    def edition_data(self) -> dict:
        return json.loads(self.edition_text)

    def bots_count(self) -> int:
        return sum(1 for s in self.seats if s.kind == "bot")

    def full(self) -> bool:
        return all(s.name is not None for s in self.seats)

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    # -- seats -----------------------------------------------------------------------------------
    def join(self, name: str, advice: bool = False) -> tuple[int, str]:
        """Seat a new player; return the seat and its token (the only time the token exists in clear)."""
        if any(s.name == name for s in self.seats):
            raise ProtocolError("name_taken", f"someone at table {self.code} is already called {name}")
        free = [n for n, s in enumerate(self.seats) if s.name is None]
        if not free:
            raise ProtocolError(
                "table_full",
                f"every seat of table {self.code} is taken; to come back to your seat, resume with its token",
            )
        seat, token = free[0], secrets.token_urlsafe(24)
        self.store.add_seat(self.code, seat, name, "player", token)
        self.seats[seat] = Seat(name, "player", token_hash(token), connected=True, advice=advice)
        if self.full():
            self.start()
            self.wind()
        return seat, token

    def start(self) -> None:
        players = [s.name for s in self.seats]
        by_name = self.options_by_name(players)
        self.game = Game(self.edition, players, self.seed, deal_version=self.deal, seat_options=by_name)
        if self.spectators != "off":
            self.gallery = Gallery(self.spectators, self.edition, players, self.seed, self.deal, by_name)

    def options_by_name(self, players: list) -> dict:
        """The seat options the host set, by the name of the player at each seat."""
        return {players[int(seat) - 1]: values for seat, values in self.seat_options.items()}

    def seat_of(self, token: str) -> int:
        """The seat this token opens, or ProtocolError (the same answer for every wrong token)."""
        hashed = token_hash(token)
        for number, seat in enumerate(self.seats):
            if seat.token_hash and hmac.compare_digest(seat.token_hash, hashed):
                return number
        raise ProtocolError("bad_token", f"this token opens no seat at table {self.code}")

    def lobby(self) -> dict:
        lobby = {
            "type": "lobby",
            "table": self.code,
            "seats": [
                {"seat": n, "name": s.name, "kind": s.kind, "status": s.status()} for n, s in enumerate(self.seats)
            ],
        }
        return lobby | ({"clock": self.clock.settings()} if self.clock is not None else {})

    # -- the clock ---------------------------------------------------------------------------
    def questions(self) -> dict[int, tuple[str, ...]]:
        """The ids of what each seat whose player decides is asked now (a bot's seat has no clock)."""
        asked: dict[int, list[str]] = {}
        if self.game is not None and not self.game.over:
            for decision in self.game.pending():
                seat = self.seats[decision.seat]
                if seat.kind == "player" and not seat.stand_in and not seat.forfeited:
                    asked.setdefault(decision.seat, []).append(self.decision_id(decision))
        return {seat: tuple(ids) for seat, ids in asked.items()}

    def wind(self) -> None:
        """Start the clock of every seat asked something new (stop those asked nothing), and write the deadlines
        when they moved."""
        if self.clock is not None and self.clock.ask(self.questions(), self.wall()):
            self.store.save_clock(self.code, self.clock.to_text())

    def ran_out(self, seat: int) -> None:
        """This seat's time ran out: a bot makes its move (and plays on while its player is away), or the seat
        forfeits, as the host chose."""
        state = self.seats[seat]
        if self.clock.on_time == "forfeit":
            state.forfeited = True
            self.clock.forfeited.add(seat)
            self.clock.due.pop(seat, None)
        else:
            self.clock.ran_out.add(seat)
            if not state.connected:
                state.stand_in = True
        self.store.save_clock(self.code, self.clock.to_text())

    def seat_status(self, seat: int) -> dict:
        status = self.seats[seat].status()
        if status == "connected" and self.clock is not None and seat in self.clock.ran_out:
            status = "late"  # here, but its time ran out: a bot makes this move
        return {
            "type": "seat_status",
            "table": self.code,
            "seat": seat,
            "name": self.seats[seat].name,
            "status": status,
        }

    # -- deciding ----------------------------------------------------------------------------
    def check(self, seat: int, message: dict) -> Decision:
        """The pending decision this message answers, or ProtocolError (nothing is changed)."""
        if self.game is None:
            raise ProtocolError(
                "not_started", f"table {self.code} waits for {sum(s.name is None for s in self.seats)} more players"
            )
        if self.game.over:
            raise ProtocolError("game_over", f"the game at table {self.code} is over")
        if self.seats[seat].forfeited:
            raise ProtocolError(
                "forfeited", f"your clock ran out at table {self.code}: a bot plays your seat to the end"
            )
        mine = [d for d in self.game.pending() if d.seat == seat]
        same = [
            d
            for d in mine
            if d.kind == message["kind"] and d.round == message["round"] and d.category == message.get("category")
        ]
        wanted = [d for d in same if self.decision_id(d) == message["id"]]
        if not wanted:
            if same:  # the same question asked again: that answer was for the one before
                raise ProtocolError(
                    "stale", f"decision {message['id']} was answered already; now asked: {self.decision_id(same[0])}"
                )
            now = ", ".join(f"{d.kind} {d.category or ''}".strip() for d in mine) or "nothing (wait for the others)"
            raise ProtocolError(
                "out_of_turn",
                f"no {message['kind']} of round {message['round']} is asked of you now; you are asked: {now}",
            )
        decision = wanted[0]
        if message["answer"] not in decision.options:
            shown = ", ".join("none" if o is None else str(o) for o in decision.options)
            raise ProtocolError(
                "illegal", f"'{message['answer']}' is not a legal {decision.kind} now (options: {shown})"
            )
        return decision

    def apply(self, decision: Decision, answer) -> int:
        """Write the decision, then play it; return its number in the game."""
        number = len(self.game.decisions)
        self.store.add_decision(self.code, number, decision.seat, answer, decision.category)
        try:
            self._play(decision, answer)
        except BoomError as exc:  # checked just before: the engine and check() disagree
            raise ProtocolError("illegal", exc.diagnostics[0].message) from None
        if self.game.over:
            self.store.finish(self.code, self.seed)
        self.wind()
        return number

    def _pending_of(self, seat: int, category) -> Decision:
        return next(d for d in self.game.pending() if d.seat == seat and d.category == category)

    def _play(self, decision: Decision, answer) -> None:
        before = self.game.round
        self.game.apply(decision.seat, answer, decision.category)
        if self.game.round != before:
            self.round_starts.append(len(self.game.decisions))
        key = (decision.seat, decision.round, decision.kind, decision.category)
        self.answered[key] = self.answered.get(key, 0) + 1

    def decision_id(self, decision) -> str:
        """The id of a pending decision: its round, kind, category and how many like it the seat answered
        before, so that an answer is bound to one question and a repeated `decide` is never the next answer."""
        seat, kind, number, category = (
            (decision.seat, decision.kind, decision.round, decision.category)
            if isinstance(decision, Decision)
            else (decision["seat"], decision["kind"], decision["round"], decision["category"])
        )
        return f"{number}.{kind}.{category or ''}.{self.answered.get((seat, number, kind, category), 0)}"

    def bot_decisions(self) -> list[Decision]:
        """Pending decisions of the seats a bot plays now (bot seats, and players gone too long)."""
        if self.game is None or self.game.over:
            return []
        late = self.clock.ran_out if self.clock is not None else ()
        return [
            d
            for d in self.game.pending()
            if self.seats[d.seat].kind == "bot"
            or self.seats[d.seat].stand_in
            or self.seats[d.seat].forfeited
            or d.seat in late
        ]

    def bot_for(self, seat: int):
        """The bot of this seat, seeded from the game's seed (so a resumed table plays on identically)."""
        if seat not in self._bots:
            # drawing as the table's format did when it started: a table resumed after an upgrade plays on alike
            seeding = seeding_for(self.deal)
            self._bots[seat] = make_bot(self.bot_kind, self.edition, agent_seed(self.seed, seat), seeding=seeding)
        return self._bots[seat]

    # -- telling -----------------------------------------------------------------------------
    def state(self, seat: int, *, fresh: bool = False) -> dict:
        """The seat's state message: its view and its events since the last one (all, when fresh)."""
        events, self.seats[seat].cursor = seat_events(self.game, seat, 0 if fresh else self.seats[seat].cursor)
        self.seats[seat].asked = self._asked(seat)
        view = seat_view(self.game, seat, advice=self.seats[seat].advice)
        view["pending"] = [{**entry, "id": self.decision_id(entry)} for entry in view.get("pending", [])]
        if self.seats[seat].forfeited:  # a bot plays the seat to the end: its player is asked nothing
            view["pending"] = []
        state = {"type": "state", "table": self.code, "seat": seat, "view": view, "events": events}
        if self.clock is not None:
            state["clock"] = self.clock.settings() | {"left": self.clock.left(seat, self.wall())}
        return state

    def _asked(self, seat: int) -> tuple:
        return tuple((d.kind, d.category, d.options) for d in self.game.pending() if d.seat == seat)

    def updates(self, decider: int | None) -> list[tuple[int, dict]]:
        """After a decision: a state for the decider and for every connected seat with news, or with a
        decision to make that it was not told of (the others' answers to a question asked of all at once,
        such as a mulligan, may end that step and start the next without an event for this seat)."""
        out = []
        for number, seat in enumerate(self.seats):
            if seat.kind != "player" or not seat.connected:
                continue
            news, _ = seat_events(self.game, number, seat.cursor)
            if news or number == decider or self._asked(number) != seat.asked:
                out.append((number, self.state(number)))
        news = self.gallery.news(self.code, self.game, self.round_starts) if self.gallery is not None else None
        if news is not None:
            out.append((NOBODY, news))
        if self.game.over:
            final = self.final()
            out += [
                (number, final) for number, seat in enumerate(self.seats) if seat.kind == "player" and seat.connected
            ]
        return out

    def final(self) -> dict:
        final = {
            "type": "game_over",
            "table": self.code,
            "sheet": self.game.scores.sheet(),
            "record": self.game.record(),
        }
        forfeited = [n for n, s in enumerate(self.seats) if s.forfeited]
        return final | ({"forfeited": forfeited} if forfeited else {})
