"""The game as a state machine: it deals, asks for decisions as data, applies answers, scores.

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
from dataclasses import dataclass

from ..edition.model import Card, Edition, Passing
from ..errors import Diagnostic, GameRuleError
from .dealing import DEAL_VERSION
from .dealing import deal as deal_hands
from .scoring import ScoreKeeper
from .views import LazyView, full_view

THROW, DRAFT, CHOICE = "throw", "draft", "choice"


def play_picks(passing: Passing, round_index: int, hands: list, drafts: list, picks: list) -> list:
    """One turn of a drafting round, as the rules play it: every seat moves its pick from its hand to
    the cards it took, and the hands pass on in this round's direction; when one card is left in
    each, that card (the Catch) is passed, the other way with `catch: previous`, and taken at once.
    Returns the hands after the turn (empty once the Catch is taken); `drafts` changes in place."""
    n = len(hands)
    for seat, card in enumerate(picks):
        hands[seat].remove(card)
        drafts[seat].append(card)
    direction = passing.direction(round_index)
    if len(hands[0]) == 1 and passing.catch == "previous":
        direction = -direction
    hands = [hands[(seat - direction) % n] for seat in range(n)]
    if len(hands[0]) == 1:
        for seat in range(n):
            drafts[seat].append(hands[seat].pop())
    return hands


@dataclass(frozen=True, init=False)
class Decision:
    """A question the game asks one seat. options: card letters, or icons plus None for a choice."""

    seat: int
    kind: str
    round: int
    options: tuple
    category: str | None = None

    def __init__(self, seat: int, kind: str, round: int, options: tuple, category: str | None = None):
        # one dict in place of five frozen writes: a decision is made for every seat at every step
        fields = {"seat": seat, "kind": kind, "round": round, "options": options, "category": category}
        object.__setattr__(self, "__dict__", fields)

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "round": self.round,
            "options": list(self.options),
            "category": self.category,
        }


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
        n = len(players)
        if not edition.players_min <= n <= edition.players_max:
            raise GameRuleError(
                Diagnostic(
                    None,
                    f"{edition.name} is for {edition.players_min} to {edition.players_max} players, not {n}",
                    "G602",
                )
            )
        if not edition.draft.fits(n):
            teams = edition.draft.teams
            message = f"{edition.name} is played in {teams} teams of equal size (at least 2 each), not by {n} players"
            raise GameRuleError(Diagnostic(None, message, "G606"))
        if len(set(players)) != n:
            raise GameRuleError(Diagnostic(None, "player names must differ", "G603"))
        self.edition = edition
        self.players = list(players)
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
        self.picks: dict[int, Card] = {}
        self.choices: list[dict] = [{} for _ in range(n)]
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
    ) -> Game:
        """A game at some position: the finished rounds of `history` (drafts and choices, by player
        name, as in view()["history"]) scored, then, unless they were the last, the round after them
        at this phase with these hands, cards taken (Throw first), undealt cards and hands each seat
        has seen. For bots playing out sampled worlds; the position is taken as given, and the game
        owns the lists it is handed from then on."""
        game = cls(edition, players, seed, deal=False)
        for round_data in history:
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
        if phase == CHOICE:
            game._choice_decisions = game._choice_questions()
        return game

    # -- the flow --------------------------------------------------------------------------
    def _emit(self, event: dict, to: int | None = None) -> None:
        event = dict(event, to=to)
        self.events.append(event)

    def _start_round(self) -> None:
        edition, n, h = self.edition, len(self.players), self.edition.hand_size
        leftover = list(self.leftover)
        self.rng.shuffle(leftover)
        undealt = set(leftover)
        rest = [c for c in edition.cards if c not in undealt]
        self.rng.shuffle(rest)
        self.hands, self.leftover = deal_hands(leftover, rest, n, h, self.deal_version)
        self.drafts = [[] for _ in range(n)]
        self.seen_hands = [[list(hand)] for hand in self.hands]
        self.picks = {}
        self.choices = [{} for _ in range(n)]
        self.phase = THROW
        if not self.keeps_events:
            return
        self._emit(
            {
                "type": "round_start",
                "round": self.round + 1,
                "direction": "left" if edition.passing.direction(self.round) > 0 else "right",
            }
        )
        for seat in range(n):
            self._emit(
                {"type": "deal", "round": self.round + 1, "seat": seat, "cards": [c.letter for c in self.hands[seat]]},
                to=seat,
            )

    def pending(self) -> list[Decision]:
        """Every decision the game is waiting for now; seats answer in any order."""
        if self.over:
            return []
        if self.phase in (THROW, DRAFT):
            picks = self.picks
            decisions = self._pick_decisions()
            return [d for d in decisions if d.seat not in picks] if picks else list(decisions)
        return [d for d in self._choice_decisions if d.category not in self.choices[d.seat]]

    def _pick_decisions(self) -> list[Decision]:
        """Every seat's pick of this step, built once per step: the hands only change when they are passed."""
        phase = self.phase
        key = (self.round, phase, len(self.hands[0]))
        cache = self._pick_cache
        if cache[0] != key:
            number = self.round + 1
            decisions = [
                Decision(seat, phase, number, tuple([c.letter for c in hand])) for seat, hand in enumerate(self.hands)
            ]
            cache = self._pick_cache = (key, decisions)
        return cache[1]

    def _decision_of(self, seat: int, category: str | None) -> Decision | None:
        """This seat's first pending decision (of this category, if one is named), as pending() lists them."""
        if self.over:
            return None
        if self.phase != CHOICE:
            if category is not None or seat in self.picks or not 0 <= seat < len(self.players):
                return None
            return self._pick_decisions()[seat]
        for decision in self._choice_decisions:
            if decision.seat == seat and decision.category not in self.choices[seat]:
                if category in (None, decision.category):
                    return decision
        return None

    def _fill_views(self) -> None:
        """Lazy views still held by someone keep what they showed: fill them in before the game moves."""
        for ref in self._lazy_views:
            view = ref()
            if view is not None:
                view.fill()
        self._lazy_views.clear()

    def apply(self, seat: int, answer, category: str | None = None) -> None:
        """Answer one pending decision of this seat (a letter, or an icon/None for a choice)."""
        picks, kind, card = self.picks, self.phase, None
        if kind != CHOICE and category is None and seat not in picks and not self.over:
            # a pick, the hot path: the seat's hand says what is legal, no decision is looked up
            card = self.edition.card(answer) if type(answer) is str else None
            if card is not None and not (0 <= seat < len(self.hands) and card in self.hands[seat]):
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
        if kind == CHOICE:
            self.choices[seat][category] = answer
            if self.keeps_events:
                self._emit(
                    {"type": "choice", "round": self.round + 1, "seat": seat, "category": category, "option": answer}
                )
            if not self.pending():
                self._end_round()
            return
        picks[seat] = card or self.edition.card(answer)
        if len(picks) == len(self.players):
            self._resolve_picks()

    def _resolve_picks(self) -> None:
        n = len(self.players)
        phase = self.phase
        picks = [self.picks[seat] for seat in range(n)]
        self.hands = play_picks(self.edition.passing, self.round, self.hands, self.drafts, picks)
        for seat in range(n) if self.keeps_events else ():
            card = self.picks[seat]
            if phase == THROW:
                self._emit({"type": "throw", "round": self.round + 1, "seat": seat, "card": card.letter}, to=seat)
                self._emit({"type": "throw_placed", "round": self.round + 1, "seat": seat})
            else:
                self._emit({"type": "draft", "round": self.round + 1, "seat": seat, "card": card.letter})
        self.picks = {}
        self.phase = DRAFT
        if not self.hands[0]:
            if self.keeps_events:
                for seat in range(n):
                    caught = self.drafts[seat][-1]
                    self._emit({"type": "catch", "round": self.round + 1, "seat": seat, "card": caught.letter})
                throws = {str(s): self.drafts[s][0].letter for s in range(n)}
                self._emit({"type": "reveal", "round": self.round + 1, "throws": throws})
            self.phase = CHOICE
            self._choice_decisions = self._choice_questions()
            if not self.pending():
                self._end_round()
        else:
            seen = self.seen_hands
            for seat, hand in enumerate(self.hands):
                seen[seat].append(hand[:])
                if self.keeps_events:
                    cards = [c.letter for c in self.hands[seat]]
                    self._emit({"type": "hand", "round": self.round + 1, "seat": seat, "cards": cards}, to=seat)

    def _choice_questions(self) -> list[Decision]:
        """One question per seat and choice category: its legal icons, or None (no choice)."""
        return [
            Decision(
                seat,
                CHOICE,
                self.round + 1,
                tuple(self.scores.choice_options(seat, category, self.drafts)) + (None,),
                category.key,
            )
            for seat in range(len(self.players))
            for category in self.edition.choice_categories
        ]

    def _end_round(self) -> None:
        choices = [{k: v for k, v in self.choices[seat].items() if v is not None} for seat in range(len(self.players))]
        points = self.scores.score_round(self.drafts, choices)
        self.history.append(
            {
                "drafts": {self.players[s]: [c.letter for c in self.drafts[s]] for s in range(len(self.players))},
                "choices": {self.players[s]: choices[s] for s in range(len(self.players)) if choices[s]},
            }
        )
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
