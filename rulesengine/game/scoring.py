"""The score sheet: turns each round's drafted cards and choices into points, races and a winner.

Shared by the engine (games played here) and the score pad (games played on a real table), so a
record scored twice gives the same sheet. It knows no edition: every rule comes from the Edition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from ..dsl import DslRuntimeError
from ..dsl.meter import aside
from ..edition import scopes
from ..edition.goals import GOAL_PREFIX, GOALS_KEY
from ..edition.in_words import in_words
from ..edition.model import Card, Category, Edition, Expression
from ..edition.scopes import EndInputs, SeatInputs
from ..errors import Diagnostic, GameRuleError
from .holdings import holding_points
from .program import locate, program
from .ranking import Ranking, rank_seats, rank_teams
from .round_facts import RoundFacts, end_inputs, others
from .sheet_data import fresh_copy, sheet_data
from .sheet_plan import sheet_plan

_SITE = attrgetter("site")  # a copy of a card is visited as the card it copies (`copies:`)
_NO_POINTS: dict = {}  # a seat's points of the round before the first (read only: never changed)
_blank = object.__new__  # an inputs object with no field set yet (see ScoreKeeper._seat_inputs)
_SHEET_NAMES = frozenset(v.name for v in scopes.SHEET)


class ScoringError(GameRuleError):
    """An expression failed while a game was being scored (e.g. a missing table row)."""


def evaluate(expression: Expression, env: dict, situation):
    """expression's value in env, or a located ScoringError saying the situation: a string, or a function
    giving it (the sheet's, so that its words are put together only for an error)."""
    try:
        return expression.run(env)
    except DslRuntimeError as exc:
        raise located(exc, expression, situation() if callable(situation) else situation) from None
    except RecursionError:
        said = situation() if callable(situation) else situation
        raise ScoringError(Diagnostic(None, f"expression too deep to evaluate ({said})", "R502")) from None


def located(exc: DslRuntimeError, expression: Expression | None, said: str) -> ScoringError:
    """The ScoringError of an expression's failure: at the node it points at, saying the situation (R501)."""
    node = exc.node
    span = expression.locate(node.start, node.end) if node is not None and expression and expression.locate else None
    error = ScoringError(Diagnostic(span, f"{exc.message} ({said})", "R501"))
    return error.quoting(expression.texts or {} if expression is not None else {})


@dataclass
class RaceState:
    places_given: int = 0
    winners: set = field(default_factory=set)


class ScoreKeeper:
    """Keeps every seat's score sheet across the rounds of one game."""

    def __init__(self, edition: Edition, players: list[str], options: tuple | None = None):
        self.edition = edition
        self.players = list(players)
        n = len(players)
        # each seat's options (seat_options.seat_values: what the table set, defaults elsewhere); None: defaults
        self.options = options
        self._seen: list[frozenset] = [frozenset()] * n  # the sites each seat has visited
        self.rounds: list[list[dict]] = [[] for _ in range(n)]  # seat -> round -> key -> points
        # the icons each seat may no longer choose: chosen once, or `once_per_game: N` times (counted in _chosen)
        self.used_choices: list[dict] = [{c.key: set() for c in edition.choice_categories} for _ in range(n)]
        self._chosen: list[dict] = [{} for _ in range(n)]  # (key, icon) -> times chosen, where N > 1
        plan = sheet_plan(edition)
        self.races = {name: RaceState() for name in plan.race_names}
        self.end_scores: list[dict] | None = None
        # the cards of the last round scored, where a game-end category reads the other seats' (others)
        self._last_drafts: list[list[Card]] = [[] for _ in range(n)]
        self._sheet: dict | None = None
        self._facts: RoundFacts | None = None  # see _round_facts
        # what seats hold (game.places: `captured`, `stocks`), read by the holding lines (game/holdings.py)
        self.holdings = None
        self._program = program(edition)   # the edition's scoring, generated or interpreted (its runner)
        self._race_states = [self.races[name] for name in plan.race_names]
        self._awards = edition.kept(("awards", n), dict)  # (race slot, place, round) -> pay (see _award)
        self._moments = edition.kept(("moments", n), dict)  # round number -> its Moment (see _moment)
        self._plan = plan  # what the sheet reads of its edition (race slots, error names)
        self.goals: tuple = ()  # the public goals drawn (their ids): see set_goals
        self.goal_points: list[dict] | None = None  # at game end, per seat: goal id -> its points

    def set_goals(self, goals) -> None:
        """The public goals drawn in this game (ids of the edition's goals deck): scored at game end by the
        program made for them, each on the `goals` line (edition/goals.py)."""
        self.goals = tuple(goals)
        self._program = program(self.edition, self.goals)
        self._facts = None

    def option_values(self, seat: int):
        """The seat's `options` (None: the edition's defaults, as scopes.sheet_so_far reads None)."""
        return self.options[seat] if self.options is not None else None

    @property
    def round_index(self) -> int:
        return len(self.rounds[0])

    def _moment(self):
        round_number = len(self.rounds[0]) + 1
        at = self._moments.get(round_number)
        if at is None:  # one Moment a round of every game of the edition with as many players (it is frozen)
            at = self._moments[round_number] = scopes.moment(self.edition, len(self.players), round_number)
        return at

    @property
    def visited(self) -> list[list[Card]]:
        """The sites each seat has visited in the rounds scored, in deck order."""
        return [sorted(sites, key=_DECK_ORDER) for sites in self._seen]

    def _located(self, exc: DslRuntimeError, where: str) -> ScoringError:
        """A failure of the program while it scored `where` (the round and seat), at its expression."""
        expression = locate(self.edition, exc.node) if exc.node is not None else None
        what = self._plan.what.get(id(expression))
        return located(exc, expression, f"{where}, {what}" if what else where)

    def _round_facts(self, drafts: list[list[Card]]) -> RoundFacts:
        """What the choices and the scoring of a round both read, kept for the same round and drafts:
        the game asks for the choices, then scores."""
        key = (self.round_index, tuple(map(tuple, drafts)))  # a card hashes as itself
        facts = self._facts
        if facts is None or facts.key != key:
            seen = [self._seen[seat].union(map(_SITE, hand)) for seat, hand in enumerate(drafts)]
            tally = self._program.tally
            facts = self._facts = RoundFacts(key, seen, [tally(hand) for hand in drafts])
        return facts

    def round_choice_options(self, drafts: list[list[Card]]) -> list[list[list[str]]]:
        """For each seat, the icons it may pick for each choice category (in the edition's order) this round."""
        categories, options = self.edition.choice_categories, []
        # (loops, not nested comprehensions: a comprehension is a Python call, five a round, ~10K instructions a
        # random 4-player game's round by callgrind)
        for seat, inputs in enumerate(self._seat_inputs(drafts)):
            seat_options = []
            for category in categories:
                seat_options.append(self._options(seat, category, inputs))
            options.append(seat_options)
        return options

    def choice_options(self, seat: int, category: Category, drafts: list[list[Card]], visited=None) -> list[str]:
        """The icons this seat may pick for a choice category at the end of this round (visited: every
        seat's visited cards with these drafts, in deck order, if the caller has them)."""
        return self._options(seat, category, self._seat_inputs(drafts)[seat])

    def _seat_inputs(self, drafts: list[list[Card]], facts: RoundFacts | None = None) -> list[SeatInputs]:
        """Every seat's inputs of the program for this round (SeatInputs), made once for its choices and
        its points: its cards in the forms the program reads (its needs), its points of the round before.
        Each is made blank and set field by field: calling the class with keywords costs a dict and a
        lookup of each default (36K instructions a random 4-player game, bench/instructions.py)."""
        facts = facts or self._round_facts(drafts)
        if facts.inputs is None:
            at, needs = self._moment(), self._program.needs
            handed, tallies, seen = facts.visited_for(needs), facts.tallies, facts.seen
            facts.inputs = []
            for seat, hand in enumerate(drafts):
                inputs = _blank(SeatInputs)
                inputs.cards, inputs.tally, inputs.visited, inputs.seen = hand, tallies[seat], handed[seat], seen[seat]
                inputs.table = facts.table(drafts, seat) if needs.table else None
                inputs.previous = self.rounds[seat][-1] if self.rounds[seat] else _NO_POINTS
                inputs.players, inputs.round, inputs.rounds = at.players, at.round, at.rounds
                inputs.choices = inputs.used = None
                inputs.sheet = (scopes.sheet_so_far(self.edition, self.rounds, seat, self.option_values(seat))
                                if needs.sheet else None)
                facts.inputs.append(inputs)
        return facts.inputs

    def _options(self, seat: int, category: Category, inputs: SeatInputs) -> list[str]:
        """choice_options, from the seat's inputs of this round."""
        inputs.used = self.used_choices[seat][category.key]
        try:
            return self._program.allowed[category.key](inputs)
        except DslRuntimeError as exc:
            raise self._located(exc, f"round {inputs.round}, seat {self.players[seat]}") from None
        except RecursionError:
            raise _too_deep(f"round {inputs.round}, seat {self.players[seat]}") from None

    def check_choice(self, seat: int, category: Category, icon: str, drafts: list[list[Card]], visited=None):
        """None when the choice is legal, else the reason it is not (visited: see choice_options)."""
        if icon not in category.choice.family.icon_set:
            return f"'{icon}' is not one of {', '.join(category.choice.family.icons)}"
        if category.choice.once_per_game and icon in self.used_choices[seat][category.key]:
            return f"'{icon}' was already scored for {category.key} in an earlier round"
        if icon not in self.choice_options(seat, category, drafts, visited):
            rule = in_words(category.choice.requires.text, self.edition, category.title, {"choice": icon})
            return f"'{icon}' cannot be chosen for {category.title} this round: it may be chosen only when {rule}"
        return None

    def score_round(self, drafts: list[list[Card]], choices: list[dict], *, checked: bool = False) -> list[dict]:
        """Score one round; drafts[seat] are the cards in the order taken, choices[seat] key -> icon.
        checked: the choices were each one of the options the game offered (the Game's own), so they are
        not worked out again; a record from a table (`boom score`) is checked here (G601), each seat's
        before its points."""
        facts = self._round_facts(drafts)
        seats = self._seat_inputs(drafts, facts)
        at = self._moment()
        seat_round, needs = self._program.round, self._program.needs
        results, qualified, seat = [], [], 0
        try:
            for seat, inputs in enumerate(seats):
                if not checked:
                    self._check_choices(seat, drafts, choices)
                inputs.choices = choices[seat]
                points, qualifies = seat_round(inputs)
                results.append(points)
                qualified.append(qualifies)
        except DslRuntimeError as exc:
            raise self._located(exc, f"round {at.round}, seat {self.players[seat]}") from None
        except RecursionError:
            raise _too_deep(f"round {at.round}, seat {self.players[seat]}") from None
        choice_keys, times = self._plan.choice_keys, self._plan.choice_times
        for seat in range(len(drafts)):
            if choice_keys:
                seat_choices, used = choices[seat], self.used_choices[seat]
                for key in choice_keys:
                    icon = seat_choices.get(key)
                    if icon is None:
                        continue
                    if key in times:  # chosen N times: used up
                        chosen = self._chosen[seat]
                        chosen[key, icon] = count = chosen.get((key, icon), 0) + 1
                        if count < times[key]:
                            continue
                    used[key].add(icon)
        self._seen = list(facts.seen)
        self._run_races(results, qualified, at)
        for seat, seat_points in enumerate(results):
            self.rounds[seat].append(seat_points)
        if needs.end_table:
            self._last_drafts = [list(hand) for hand in drafts]
        self._sheet = None
        return results

    def _check_choices(self, seat: int, drafts, choices) -> None:
        """GameRuleError (G601) unless each of this seat's choices is one it may make this round."""
        for category in self.edition.choice_categories:
            icon = choices[seat].get(category.key)
            reason = self.check_choice(seat, category, icon, drafts) if icon is not None else None
            if reason:
                message = f"round {self.round_index + 1}, {self.players[seat]}: {reason}"
                raise GameRuleError(Diagnostic(None, message, "G601"))

    def _run_races(self, results, qualified, at):
        """qualified: for each seat, the indices (in race_slots order) of the race slots it qualifies for
        (those it won before are skipped); at: the round's Moment."""
        states = self._race_states
        taken: dict = {}
        for seat, slots in enumerate(qualified):
            for index in slots:
                if seat not in states[index].winners:
                    taken.setdefault(index, []).append(seat)
        for key in self._plan.race_keys:  # every seat's sheet has a line for each race, won or not
            for seat_points in results:
                seat_points.setdefault(key, 0)
        for index in sorted(taken):
            race, region = self._plan.race_pairs[index]
            state = states[index]
            state.places_given += 1
            award = self._award(index, at, state.places_given, len(taken[index]))
            for seat in taken[index]:
                state.winners.add(seat)
                results[seat][race.key] += award

    def _award(self, index: int, at, place: int, sharing: int):
        """What this place of the race slot pays this round to each of the `sharing` seats that take it: the
        same in every game of the edition with as many players, so worked out once (an expression that fails
        is not kept: it raises again, located)."""
        key = (index, place, at.round, sharing)
        award = self._awards.get(key)
        if award is None:
            race, region = self._plan.race_pairs[index]
            try:
                with aside():   # kept for the edition: charged to no bot's decision (dsl/meter.py)
                    award = self._program.award(race, region, place=place, players=at.players, round=at.round,
                                                rounds=at.rounds, sharing=sharing)
            except DslRuntimeError as exc:
                raise self._located(exc, f"round {at.round}") from None
            self._awards[key] = award
        return award

    def finish(self) -> None:
        self._sheet = None
        self.end_scores, self.goal_points = [], [] if self.goals else None
        at = self._moment()
        needs = self._program.needs
        reads = needs.end_reads  # what no game-end category reads is not worked out
        listed = self.visited if needs.end_visited or needs.end_table else None
        for seat, name in enumerate(self.players):
            others_ = others(self._last_drafts, seat, listed) if needs.end_table else None
            totals = self.round_totals(seat) if "round_totals" in reads else ()
            inputs = _blank(EndInputs)
            inputs.visited, inputs.seen = listed[seat] if needs.end_visited else self._seen[seat], self._seen[seat]
            inputs.players, inputs.rounds = at.players, at.rounds
            end_inputs(inputs, self.edition, reads, others_, totals, self.rounds[seat])
            inputs.sheet = (scopes.sheet_so_far(self.edition, self.rounds, seat, self.option_values(seat))
                            if reads & _SHEET_NAMES else None)
            try:
                points = self._program.end(inputs)
            except DslRuntimeError as exc:
                raise self._located(exc, f"game end, seat {name}") from None
            except RecursionError:
                raise _too_deep(f"game end, seat {name}") from None
            if self.goals:  # each goal drawn is a game-end category of the program: folded into one line
                drawn = {goal: points.pop(GOAL_PREFIX + goal) for goal in self.goals}
                points[GOALS_KEY] = sum(drawn.values())
                self.goal_points.append(drawn)
            self.end_scores.append(points)
        if self.holdings is not None:
            for points, held in zip(self.end_scores, self._held(), strict=True):
                points.update(held)

    def _held(self) -> list[dict]:
        """Every seat's holding lines as they stand (game/holdings.py)."""
        places = self.holdings
        captured = getattr(places, "captured", None) or [[] for _ in self.players]
        stocks = getattr(places, "stocks", None) or [{} for _ in self.players]
        what = self._plan.what
        return holding_points(self.edition, captured, stocks,
                              lambda expression, env, default: evaluate(expression, env,
                                                                        lambda: f"game end, {what[id(expression)]}"))

    def stocks(self, seat: int) -> dict:
        """The tokens this seat holds now, by stock (none without a bidding)."""
        stocks = getattr(self.holdings, "stocks", None)
        return dict(stocks[seat]) if stocks else {}

    def round_totals(self, seat: int) -> list[int]:
        """This seat's total of each round scored so far: the lines that count, races included."""
        keys = self.edition.counting_keys
        return [sum(points.get(key, 0) for key in keys) for points in self.rounds[seat]]

    def category_totals(self, seat: int) -> dict:
        totals = {key: 0 for key in self.edition.sheet_keys}
        for points in self.rounds[seat]:
            for key, value in points.items():
                totals[key] += value
        if self.end_scores:
            totals.update(self.end_scores[seat])
        elif self.holdings is not None:  # shown as they stand while the game runs
            totals.update(self._held()[seat])
        return totals

    def total(self, seat: int) -> int:
        return self.counted(self.category_totals(seat))

    def counted(self, totals: dict) -> int:
        """A seat's total from its category_totals: the lines that count."""
        return sum(totals[key] for key in self.edition.counting_keys)

    def ranking(self) -> Ranking:
        seats = range(len(self.players))
        totals = [self.category_totals(s) for s in seats]
        seat_totals = [self.counted(t) for t in totals]
        if self.holdings is not None:  # a stock's name breaks a tie by the tokens kept
            totals = [dict(self.stocks(s), **t) for s, t in zip(seats, totals, strict=True)]
        if self.edition.draft.teams:
            return rank_teams(
                seat_totals,
                totals,
                self.edition.tie_breaks,
                self.edition.lowest_first,
                self.edition.draft.members(len(self.players)),
            )
        return rank_seats(seat_totals, totals, self.edition.tie_breaks, self.edition.lowest_first)

    def winners(self) -> list[int]:
        return list(self.ranking().winners)

    def sheet(self) -> dict:
        """The score sheet as data: the shape `boom score --format json` prints (a fresh copy)."""
        if self._sheet is None or (self.holdings is not None and self.end_scores is None):
            self._sheet = sheet_data(self)  # (holdings move during the game: made afresh until it ends)
        return fresh_copy(self._sheet, self.edition)


def _too_deep(said: str) -> ScoringError:
    return ScoringError(Diagnostic(None, f"expression too deep to evaluate ({said})", "R502"))


_DECK_ORDER = attrgetter("index")
