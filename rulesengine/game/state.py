"""The game as a state machine: it deals, asks for decisions as data, applies answers, scores.

A drafting round is the edition's drafting blocks (edition.drafting: declared under `flow:`, or
the default deal, throw, pick_and_pass, catch, choices) played in order by game/blocks; the Game
holds the round's state (hands, drafts, picks, choices, phase: what views, saves and clients read)
and scores the round when its last block is over.

It never blocks on input and never talks to a terminal or a socket: terminal players, bots, the
network and simulations all drive it through pending() and apply(). All randomness comes from the
game's own seeded generator, so (edition, players, seed, answers) replays a game exactly.
Hidden information (hands, face-down Throw cards) leaves it only through view(seat) and events
addressed to that seat. Events are only made for a game that keeps them (events=True, the default:
logs, replays, terminals); simulations and bots' games pass events=False and skip that work.
"""

from __future__ import annotations

import random
import weakref

from ..edition.model import Card, Edition
from ..errors import Diagnostic, GameRuleError
from .blocks import round_blocks
from .blocks.choices import ChoicesBlock
from .blocks.picking import PickAndPassBlock
from .dealing import DEAL_VERSION
from .decisions import Decision, decision_from_fields
from .passing import play_picks
from .scoring import ScoreKeeper
from .views import LazyView, full_view

THROW, DRAFT, CHOICE = "throw", "draft", "choice"
__all__ = ["CHOICE", "DRAFT", "THROW", "Decision", "Game", "play_picks"]


def check_seats(edition: Edition, players: list[str]) -> None:
    """GameRuleError unless these players can sit at this edition: its player count, its teams, distinct names
    (every kind of game checks its seats here, so the messages are the same whatever the round)."""
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
    def __new__(cls, edition: Edition, *args, **kwargs):
        """An edition with a `flow` plays the steps round instead (game/steps.py), whoever starts it."""
        if cls is Game and edition.flow is not None:
            from .steps import StepsGame

            return StepsGame(edition, *args, **kwargs)
        return super().__new__(cls)

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
        # ghost hands (draft: {ghosts: k}) pass after the players' and take random cards; the bots' sampled
        # worlds (at_position, deal=False) know nothing of them and play without
        self.ghosts = edition.draft.ghosts if deal else 0
        n = len(players) + self.ghosts
        self.edition = edition
        self._cards = edition.by_letter  # edition.card(letter), for the hot path
        self.players = list(players)
        self.seats = range(len(players))  # the players' seats (a ghost hand has none)
        self.seed = seed
        self.deal_version = deal_version  # 1 only to replay files written before the round-robin deal
        self.rng = random.Random(seed)
        self.scores = ScoreKeeper(edition, players)
        self.events: list[dict] = []
        self.keeps_events = events  # False: no event is made (simulations, bots' games)
        self._lazy_views: list = []  # weak references to lazy views handed out since the last move
        self.history: list[dict] = []  # per finished round: drafts and choices, as letters
        self.decisions: list[list] = []  # [seat, answer, category] in the order applied: replays the game
        self.round = 0  # 0-based index of the round being played
        self.leftover: list[Card] = []
        self.over = False
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.drafts: list[list[Card]] = [[] for _ in range(n)]
        self.seen_hands: list[list[list[Card]]] = [[] for _ in range(n)]  # each seat's hands this round
        self.picks: dict[int, Card] = {}  # each seat's pick of this pass (a tuple on a pass of several)
        self.partial: dict[int, list] = {}  # on a pass of several: the cards a seat has chosen so far
        self.passes = 0  # passes made this round
        self.blocks = round_blocks(edition)  # the drafting round's blocks (game/blocks), played in order
        self.block_at = 0
        self.block = self.blocks[0]
        self.choices: list[dict] = [{} for _ in players]
        self.mulligans_taken: set[int] = set()  # seats that took a mulligan (editions with a `mulligan` block)
        self.mulligan_answers: dict[int, str] = {}  # this round's answers so far
        self.choices_made: list[tuple] = []  # this round's round-end choices, in the order made
        self._choice_decisions: list[Decision] = []
        self._pick_cache: tuple = (None, [])
        self.phase = THROW
        if deal:
            self._start_round()

    @classmethod
    def at_position(
        cls,
        edition: Edition,
        players: list[str],
        seed: int,
        history: list[dict],
        *,
        phase: str = THROW,
        hands: list | None = None,
        drafts: list | None = None,
        leftover: list | None = None,
        seen_hands: list | None = None,
        partial: dict | None = None,
        scored: bool = True,
    ) -> Game:
        """A game at some position: the finished rounds of `history` (drafts and choices, by player
        name, as in view()["history"]) scored, then, unless they were the last, the round after them
        at this phase with these hands, cards taken (Throw first), undealt cards and hands each seat
        has seen, and on a pass of several cards the ones a seat has chosen so far (`partial`). For bots
        playing out sampled worlds; the position is taken as given, and the game owns the lists it is
        handed from then on. scored=False leaves the finished rounds unscored (the sheet then starts at this
        round): for a bot that reads only the hands and cards taken, scoring them again for every sample is waste."""
        game = cls(edition, players, seed, deal=False)
        for round_data in history:
            if scored:
                game.scores.score_round(
                    [[edition.card(x) for x in round_data["drafts"][name]] for name in players],
                    [dict(round_data["choices"].get(name, {})) for name in players],
                )
            game.history.append(round_data)
        game.round = len(history)
        if game.round >= edition.rounds:
            game.scores.finish()
            game.over = True
            return game
        n = len(players)
        game.hands = hands if hands is not None else [[] for _ in range(n)]
        game.drafts = drafts if drafts is not None else [[] for _ in range(n)]
        game.leftover = list(leftover or ())
        game.seen_hands = seen_hands if seen_hands is not None else [[] for _ in range(n)]
        game.phase = phase
        game.partial = dict(partial or {})
        game.passes = game._passes_made(len(game.drafts[0]))
        kind = ChoicesBlock if phase == CHOICE else PickAndPassBlock
        game._go_to(next(i for i, block in enumerate(game.blocks) if isinstance(block, kind)))
        if phase == CHOICE:
            game._choice_decisions = game._choice_questions()
        return game

    def _passes_made(self, taken: int) -> int:
        """How many passes a seat that has taken this many cards this round has made."""
        picks = next((b.picks for b in self.blocks if isinstance(b, PickAndPassBlock)), ())
        passes = 0
        while taken > 0:
            taken -= picks[passes] if passes < len(picks) else 1
            passes += 1
        return passes

    def _go_to(self, index: int) -> None:
        blocks = self.blocks
        self.block_at, self.block = index, blocks[index] if index < len(blocks) else blocks[-1]

    # -- the flow --------------------------------------------------------------------------
    def _emit(self, event: dict, to: int | None = None) -> None:
        event = dict(event, to=to)
        self.events.append(event)

    def _start_round(self) -> None:
        self._go_to(0)
        self._run_blocks()

    def _run_blocks(self) -> None:
        """Start the round's blocks from the current one until one waits for decisions; then score the round."""
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

    def _pick_decisions(self) -> list[Decision]:
        """Every seat's pick of this step, built once per step: the hands only change when they are passed."""
        phase = self.phase
        key = (self.round, phase, len(self.hands[0]))
        cache = self._pick_cache
        if cache[0] != key:
            number, hands, decisions = self.round + 1, self.hands, []
            for seat in self.seats:  # no decision for a ghost hand (a loop: a comprehension's frame costs more)
                decisions.append(decision_from_fields((seat, phase, number, tuple([c.letter for c in hands[seat]]),
                                                       None)))
            cache = self._pick_cache = (key, decisions)
        return cache[1]

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
        """Answer one pending decision of this seat (a letter, or an icon/None for a choice)."""
        block, kind, card = self.block, self.phase, None
        if block.quick and category is None and type(answer) is str and not self.over:
            # a pick of one card a pass, the hot path: the seat's hand says what is legal, no decision is looked up
            card = self._cards.get(answer)
            if card is not None and (seat in self.picks or seat not in self.seats or card not in self.hands[seat]):
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

    def _choice_questions(self) -> list[Decision]:
        """One question per seat and choice category: its legal icons, or None (no choice)."""
        categories = self.edition.choice_categories
        if not categories:
            return []
        options = self.scores.round_choice_options(self.drafts[: len(self.players)])
        number, questions = self.round + 1, []
        for seat, seat_options in enumerate(options):  # one list of icons a category, in order
            for index, category in enumerate(categories):
                icons = (*seat_options[index], None)
                questions.append(decision_from_fields((seat, CHOICE, number, icons, category.key)))
        return questions

    def _end_round(self) -> None:
        # one dict a player, without the categories answered "no choice" (most rounds have none: the dict itself)
        choices = [made if None not in made.values() else {k: v for k, v in made.items() if v is not None}
                   for made in self.choices]
        # a ghost's cards score nothing; the choices were each among the options offered (apply checked them)
        points = self.scores.score_round(self.drafts[: len(self.players)], choices, checked=True)
        drafts, made = {}, {}
        for seat in self.seats:  # not the ghosts
            name = self.players[seat]
            drafts[name] = [c.letter for c in self.drafts[seat]]
            if choices[seat]:
                made[name] = choices[seat]
        self.history.append({"drafts": drafts, "choices": made})
        if self.keeps_events:
            scored = {self.players[s]: points[s] for s in range(len(self.players))}
            self._emit({"type": "round_scored", "round": self.round + 1, "points": scored})
        self.round += 1
        if self.round < self.edition.rounds:
            self._start_round()
            return
        self.scores.finish()
        self.over = True
        self.hands = [[] for _ in self.players]
        self.drafts = [[] for _ in self.players]  # the finished rounds are all in history
        self.seen_hands = [[] for _ in self.players]
        if self.keeps_events:
            sheet = self.scores.sheet()
            totals = {p["name"]: p["total"] for p in sheet["players"]}
            self._emit({"type": "game_over", "totals": totals, "winners": sheet["winners"]})

    # -- what a seat may see ---------------------------------------------------------------
    def view(self, seat: int, lazy: bool = False) -> dict | LazyView:
        """Everything this seat may know now, and nothing more: the input of every agent.

        lazy: a read-only mapping that works each entry out when first read (for bots that read little)."""
        if not lazy:
            return full_view(self, seat)
        view = LazyView(self, seat)
        self._lazy_views.append(weakref.ref(view))
        return view

    def events_for(self, seat: int | None) -> list[dict]:
        """The event log as this seat may read it (None: only public events)."""
        return [e for e in self.events if e["to"] is None or e["to"] == seat]

    def record(self) -> dict:
        """The game as a record: what `boom score` reads."""
        return {"edition": self.edition.id, "players": list(self.players), "rounds": [dict(r) for r in self.history]}
