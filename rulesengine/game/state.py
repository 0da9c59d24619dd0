"""The game as a state machine: it plays an edition's round of blocks, asks for decisions as data, scores.

Every round, of every edition, is its blocks (edition.round: declared under `flow:`, or the default
drafting round) played in order by game/blocks. Each block keeps its own state; what blocks share
(hands, cards taken, the circle, the stocks...) is a place of game.places, declared by the block that
makes it (game/places.py). The Game holds only what every round has: the seats, the generator, the
round number, the decisions, the events, the history of finished rounds and the score sheet. A round
that takes cards (the `drafts` place) is scored when it ends; the game ends after `end: {rounds: N}`
rounds, or when the deck is empty at a round's start (`end: deck_empty`).

It never blocks on input and never talks to a terminal or a socket: terminal players, bots, the
network and simulations all drive it through pending() and apply(). All randomness comes from the
game's own seeded generator, so (edition, players, seed, seat options, answers) replays a game exactly.
Hidden information leaves it only through view(seat) and events addressed to that seat. Events are
only made for a game that keeps them (events=True, the default: logs, replays, terminals);
simulations and bots' games pass events=False and skip that work.
"""

from __future__ import annotations

import random
import weakref

from ..edition.model import Edition
from ..edition.seat_options import seat_values as seat_option_values
from ..errors import Diagnostic, GameRuleError
from .blocks import make_blocks, round_plan
from .blocks.base import Hidden
from .dealing import DEAL_VERSION
from .decisions import Decision
from .passing import play_picks
from .places import Places
from .scoring import ScoreKeeper
from .views import LazyView, full_view, view_fields

THROW, DRAFT, CHOICE, OVER = "throw", "draft", "choice", "over"
__all__ = ["CHOICE", "DRAFT", "THROW", "Decision", "Game", "play_picks"]


def check_seats(edition: Edition, players: list[str]) -> None:
    """GameRuleError unless these players can sit at this edition: its player count, its teams, distinct names."""
    n = len(players)
    if not edition.players_min <= n <= edition.players_max:
        message = f"{edition.name} is for {edition.players_min} to {edition.players_max} players, not {n}"
        raise GameRuleError(Diagnostic(None, message, "G602"))
    if not edition.draft.fits(n):
        teams = edition.draft.teams
        message = f"{edition.name} is played in {teams} teams of equal size (at least 2 each), not by {n} players"
        raise GameRuleError(Diagnostic(None, message, "G606"))
    if len(set(players)) != n:
        raise GameRuleError(Diagnostic(None, "player names must differ", "G603"))


class Game:
    def __init__(
        self,
        edition: Edition,
        players: list[str],
        seed: int = 0,
        *,
        deal: bool = True,
        deal_version: int = DEAL_VERSION,
        events: bool = True,
        seat_options: dict | None = None,
        goals: list | None = None,
    ):
        check_seats(edition, players)
        # the public goals this game has (a save's, a record's, a sampled world's): drawn all the same (blocks/goals.py)
        self.given_goals = goals
        # what the table set of the edition's seat options: name -> key -> number (saves and logs keep it)
        self.seat_options = ({name: dict(values) for name, values in seat_options.items() if values}
                             if seat_options else {})
        values = seat_option_values(edition, players, self.seat_options) if self.seat_options else None
        # ghost hands (draft: {ghosts: k}) pass after the players' and take random cards; the bots' sampled
        # worlds (at_position, deal=False) know nothing of them and play without
        self.ghosts = edition.draft.ghosts if deal else 0
        self.edition = edition
        self._cards = edition.by_letter  # edition.card(letter), for the hot path
        self.players = list(players)
        self.seats = range(len(players))  # the players' seats (a ghost hand has none)
        self.seed = seed
        self.deal_version = deal_version  # the file format: 1 only to replay files written before the round-robin deal
        self.rng = random.Random(seed)
        self.scores = ScoreKeeper(edition, players, values)
        self.events: list[dict] = []
        self.keeps_events = events  # False: no event is made (simulations, bots' games)
        self._lazy_views: list = []  # weak references to lazy views handed out since the last move
        # what a view of this game lists (views.view_fields), made at the first view; not a cached_property, which
        # would give the game a __dict__ of its own and slow every attribute read after it (+0.35% a greedy game)
        self._view_fields: dict | None = None
        self.history: list[dict] = []  # per finished round: what each block tells of it (drafts, choices...)
        self.decisions: list[list] = []  # [seat, answer, category] in the order applied: replays the game
        self.round = 0  # 0-based index of the round being played
        self.round_began = 0  # len(decisions) when this round began
        self.over = False
        self.phase = THROW  # the kind of decision the round is at (its blocks set it)
        self.plan = plan = round_plan(edition)
        self.places = Places()
        self.blocks = blocks = make_blocks(plan)
        for index in plan.hooks["setup"]:
            blocks[index].setup(self)
        self.block_at, self.block = 0, blocks[0]
        self.scores.holdings = self.places if plan.holds else None
        if deal:
            self._start_round()

    @classmethod
    def at_position(
        cls, edition: Edition, players: list[str], seed: int, history: list[dict] = (), *,
        at: str | None = None, round: int | None = None, phase: str | None = None, scored: bool = True,
        seat_options: dict | None = None, goals: list | None = None, **position,
    ) -> Game:
        """A game at some position: the finished rounds of `history` (drafts and choices, by player
        name, as in view()["history"]) scored, then, unless they were the last, the round after them
        (or round `round`, 0-based) at the block named `at` (its decisions pending), in this phase, with
        `position` giving each place and each block's state by name (each block takes its own: its
        resume()). For bots playing out sampled worlds; the position is taken as given, and the game owns
        the lists it is handed from then on. scored=False leaves the finished rounds unscored (the sheet
        then starts at this round): for a bot that reads only the hands and cards taken, scoring them again
        for every sample is waste. seat_options: as the table set them (the view's `seat_options`); goals: the
        public goals drawn (the ids of the view's `goals`)."""
        game = cls(edition, players, seed, deal=False, seat_options=seat_options, goals=goals)
        for round_data in history:
            if scored:
                game.scores.score_round(
                    [[edition.card(x) for x in round_data["drafts"][name]] for name in players],
                    [dict(round_data["choices"].get(name, {})) for name in players],
                )
            game.history.append(round_data)
        game.round = len(history) if round is None else round
        if game._ended():  # the game is over: finished as a played one is (its blocks' places emptied too)
            game._finish()
            return game
        game._go_to(game.plan.index[at])
        if phase is not None:
            game.phase = phase
        for block in game.blocks:
            block.resume(game, position)
        if position:
            raise TypeError(f"no block of this round takes {', '.join(position)}")
        return game

    def _go_to(self, index: int) -> None:
        blocks = self.blocks
        self.block_at, self.block = index, blocks[index] if index < len(blocks) else blocks[-1]

    def block_named(self, name: str):
        """This game's block of that name (a step's YAML key), or None."""
        index = self.plan.index.get(name)
        return None if index is None else self.blocks[index]

    # -- the round -------------------------------------------------------------------------
    def _emit(self, event: dict, to: int | None = None) -> None:
        event = dict(event, to=to)
        self.events.append(event)

    def _ended(self) -> bool:
        """Whether the game is over before this round starts: its rounds played, or its deck empty."""
        rounds = self.plan.rounds
        return self.round >= rounds if rounds is not None else not self.places.deck

    def _start_round(self) -> None:
        if self._ended():
            self._finish()
            return
        self.round_began = len(self.decisions)
        told, blocks = {}, self.blocks
        for index in self.plan.hooks["begin_round"]:
            told.update(blocks[index].begin_round(self))
        if self.keeps_events:
            self._emit({"type": "round_start", "round": self.round + 1, **told})
        self._go_to(0)
        self._run_blocks()

    def _run_blocks(self) -> None:
        """Start the round's blocks from the current one until one waits for decisions; then end the round."""
        blocks = self.blocks
        while self.block_at < len(blocks):
            if not self.block.start(self):
                return
            self._go_to(self.block_at + 1)
        self._end_round()

    def pending(self) -> list[Decision]:
        """Every decision the game is waiting for now; seats answer in any order."""
        if self.over:
            return []
        return self.block.pending(self)

    def _decision_of(self, seat: int, category: str | None) -> Decision | None:
        """This seat's first pending decision (of this category, if one is named), as pending() lists them."""
        if self.over:
            return None
        return self.block.decision_of(self, seat, category)

    def _fill_views(self) -> None:
        """Lazy views still held by someone keep what they showed: fill them in before the game moves."""
        for ref in self._lazy_views:
            view = ref()
            if view is not None:
                view.fill()
        self._lazy_views.clear()

    def apply(self, seat: int, answer, category: str | None = None) -> None:
        """Answer one pending decision of this seat (a letter, an icon or None for a choice, a word)."""
        block, kind, card = self.block, self.phase, None
        if block.quick and category is None and type(answer) is str and not self.over:
            # a pick of one card a pass, the hot path: the seat's hand says what is legal, no decision is looked up
            card = self._cards.get(answer)
            if card is not None and (seat in block.chosen or seat not in self.seats
                                     or card not in self.places.hands[seat]):
                card = None
        if card is None:
            decision = self._decision_of(seat, category)
            if decision is None:
                raise GameRuleError(Diagnostic(None, f"seat {seat} has no decision to make now", "G604"))
            if answer not in decision.options:
                shown = ", ".join("none" if o is None else str(o) for o in decision.options)
                raise GameRuleError(
                    Diagnostic(
                        None,
                        f"'{answer}' is not a legal {decision.kind} for {self.players[seat]} (options: {shown})",
                        "G605",
                    )
                )
            kind, category = decision.kind, decision.category
        if self._lazy_views:
            self._fill_views()
        if self.keeps_events:
            self._emit(
                {
                    "type": "decision",
                    "round": self.round + 1,
                    "seat": seat,
                    "kind": kind,
                    "category": category,
                    "answer": answer,
                },
                to=seat,
            )
        self.decisions.append([seat, answer, category])
        over = block.apply(self, seat, answer, category) if card is None else block.place(self, seat, card)
        if over:
            self._go_to(self.block_at + 1)
            self._run_blocks()

    def _end_round(self) -> None:
        entry: dict = {}
        blocks = self.blocks
        for index in self.plan.hooks["end_round"]:
            blocks[index].end_round(self, entry)
        points = None
        if self.plan.scores_rounds:  # the cards taken, and the round-end choices (none without a choices block)
            places, n = self.places, len(self.players)
            # (getattr, not vars(places): vars() gives the places a dict of their own, and every later read of a
            # place in the game misses the interpreter's fast path: 92K instructions a random 4-player game, 2%)
            choices = getattr(places, "choices", None) or [{} for _ in self.players]
            # a ghost's cards score nothing; the choices were each among the options offered (apply checked them)
            points = self.scores.score_round(places.drafts[:n], choices, checked=True)
        self.history.append(entry)
        if points is not None and self.keeps_events:
            scored = {self.players[s]: points[s] for s in range(len(self.players))}
            self._emit({"type": "round_scored", "round": self.round + 1, "points": scored})
        self.round += 1
        self._start_round()

    def _finish(self) -> None:
        self.scores.finish()
        self.over, self.phase = True, OVER
        for index in self.plan.hooks["finish"]:
            self.blocks[index].finish(self)
        if self.keeps_events:
            sheet = self.scores.sheet()
            totals = {p["name"]: p["total"] for p in sheet["players"]}
            self._emit({"type": "game_over", "totals": totals, "winners": sheet["winners"]})

    # -- what a seat may see ---------------------------------------------------------------
    def view(self, seat: int, lazy: bool = False) -> dict | LazyView:
        """Everything this seat may know now, and nothing more: the input of every agent.

        lazy: a read-only mapping that works each entry out when first read (for bots that read little)."""
        entries = self._view_fields
        if entries is None:   # the first view of this game (a game no seat views makes none)
            entries = self._view_fields = view_fields(self)
        if not lazy:
            return full_view(self, seat, entries)
        view = LazyView(self, seat, entries)
        self._lazy_views.append(weakref.ref(view))
        return view

    def hidden(self, seat: int) -> Hidden:
        """What this seat cannot see now, as its round's blocks declare it (for the secrecy test)."""
        hidden = Hidden()
        for block in self.blocks:
            block.hidden(self, seat, hidden)
        return hidden

    def events_for(self, seat: int | None) -> list[dict]:
        """The event log as this seat may read it (None: only public events)."""
        return [e for e in self.events if e["to"] is None or e["to"] == seat]

    def record(self) -> dict:
        """The game as a record: what `boom score` reads (each block adds its keys)."""
        record = {"edition": self.edition.id, "players": list(self.players)}
        if self.seat_options:
            record["seat_options"] = {name: dict(values) for name, values in self.seat_options.items()}
        for block in self.blocks:
            block.add_record(self, record)
        return record
