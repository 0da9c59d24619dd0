"""The score sheet: turns each round's drafted cards and choices into points, races and a winner.

Shared by the engine (games played here) and the score pad (games played on a real table), so a
record scored twice gives the same sheet. It knows no edition: every rule comes from the Edition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from ..dsl import DslRuntimeError
from ..edition import scopes
from ..edition.in_words import in_words
from ..edition.model import Card, Category, Edition, Expression
from ..errors import Diagnostic, GameRuleError
from . import scoring_rules as rules
from . import teams
from .fast_round import round_function
from .generated import TABLE, icon_counts, per_edition, zero_counts
from .ranking import Ranking, rank_seats, rank_teams
from .scoring_rules import race_slots

_AWARDS: dict = {}  # per edition and player count: see ScoreKeeper._award
_MOMENTS: dict = {}  # per edition and player count: round number -> its Moment (see ScoreKeeper._moment)
_SITE = attrgetter("site")  # a copy of a card is visited as the card it copies (`copies:`)


class ScoringError(GameRuleError):
    """An expression failed while a game was being scored (e.g. a missing table row)."""


def evaluate(expression: Expression, env: dict, situation):
    """expression's value in env, or a located ScoringError saying the situation: a string, or a function
    giving it (the sheet's, so that its words are put together only for an error)."""
    try:
        return expression.run(env)
    except DslRuntimeError as exc:
        node = exc.node
        span = expression.locate(node.start, node.end) if (node is not None and expression.locate) else None
        said = situation() if callable(situation) else situation
        error = ScoringError(Diagnostic(span, f"{exc.message} ({said})", "R501"))
        raise error.quoting(expression.texts or {}) from None
    except RecursionError:
        said = situation() if callable(situation) else situation
        raise ScoringError(Diagnostic(None, f"expression too deep to evaluate ({said})", "R502")) from None


@dataclass(frozen=True)
class SheetPlan:
    """What every ScoreKeeper of an edition reads of it, worked out once per edition (see _plan)."""

    race_pairs: list      # (race, region) of each race slot, in sheet order (scoring_rules.race_slots)
    race_names: list      # (race key, region name or None) of each race slot: how ScoreKeeper.races names it
    race_keys: list       # every race's key once, in order: a line on every seat's sheet
    what: dict            # id of an expression -> what an error names it by
    end_reads: frozenset  # every variable the game-end categories read (scoring_rules.game_end_reads)
    choice_keys: tuple    # the key of every choice category, in order


_PLANS: dict = {}


def _plan(edition: Edition) -> SheetPlan:
    def make():
        pairs = race_slots(edition)
        what = {id(c.score): c.key for c in edition.categories}
        what.update({id(c.choice.requires): f"{c.key} requires" for c in edition.choice_categories
                     if c.choice.requires})
        what.update({id(expression): race.key for race in edition.races for expression in (race.qualifies, race.award)})
        return SheetPlan(pairs, [(race.key, region.name if region else None) for race, region in pairs],
                         list(dict.fromkeys(race.key for race in edition.races)), what, rules.game_end_reads(edition),
                         tuple(c.key for c in edition.choice_categories))
    return per_edition(_PLANS, edition, None, make)


def _table(drafts, visited, seat: int, seat_cards: list | None = None) -> tuple:
    """What the generated round reads of the other seats' cards: (others, opponents, left, right)."""
    others = rules.others(drafts, seat, visited, seat_cards)
    seats = scopes.table_env(others)
    return others, seats["opponents"], seats["left"], seats["right"]


@dataclass
class RaceState:
    places_given: int = 0
    winners: set = field(default_factory=set)


@dataclass
class RoundFacts:
    """A round's drafts as the sheet saw them, and what it worked out from them (see ScoreKeeper._round_facts)."""

    key: tuple            # (round index, every seat's cards as a tuple)
    seen: list            # every seat's visited sites once its cards of the round are added, as frozensets
    tallies: list | None  # every seat's icon counts (generated.icon_counts), for the generated round; None without one
    _visited: list | None = None
    _tables: dict = field(default_factory=dict)   # seat -> its table (see table)
    _seat_cards: list | None = None                # every seat's SeatCards, for the tables

    @property
    def visited(self) -> list:
        """seen, each in deck order: worked out when first read (a generated round seldom reads the lists)."""
        if self._visited is None:
            self._visited = [sorted(sites, key=rules.deck_order) for sites in self.seen]
        return self._visited

    def table(self, drafts, seat: int) -> tuple:
        """What the generated round reads of the other seats' cards, (others, opponents, left, right):
        made once a seat and round, for its choices and its points (the expressions only read it)."""
        table = self._tables.get(seat)
        if table is None:
            if self._seat_cards is None:
                self._seat_cards = rules.all_seat_cards(drafts, self.visited)
            table = self._tables[seat] = _table(drafts, self.visited, seat, self._seat_cards)
        return table

    def visited_for(self, generated) -> list:
        """What the generated round is handed as each seat's visited cards: the lists where an expression
        reads them as such, else the sets (a tally or a set of them is all it makes)."""
        return self.visited if generated.reads_visited else self.seen


class ScoreKeeper:
    """Keeps every seat's score sheet across the rounds of one game."""

    def __init__(self, edition: Edition, players: list[str]):
        self.edition = edition
        self.players = list(players)
        n = len(players)
        self._seen: list[frozenset] = [frozenset()] * n  # the sites each seat has visited
        self.rounds: list[list[dict]] = [[] for _ in range(n)]  # seat -> round -> key -> points
        self.used_choices: list[dict] = [{c.key: set() for c in edition.choice_categories} for _ in range(n)]
        plan = _plan(edition)
        self.races = {name: RaceState() for name in plan.race_names}
        self.end_scores: list[dict] | None = None
        # the cards of the last round scored, where a game-end category reads the other seats' (others)
        self._last_drafts: list[list[Card]] = [[] for _ in range(n)]
        self._sheet: dict | None = None
        self._facts: RoundFacts | None = None  # see _round_facts
        self._generated = round_function(edition)  # the edition's round as one generated function, or None
        self._zeros = zero_counts(edition) if self._generated is not None else None  # its tallies start from it
        self._race_states = [self.races[name] for name in plan.race_names]
        self._awards = per_edition(_AWARDS, edition, n, dict)  # (race slot, place, round) -> pay (see _award)
        self._moments = per_edition(_MOMENTS, edition, n, dict)
        self._plan = plan  # what the sheet reads of its edition (race slots, error names, game-end reads)

    @property
    def round_index(self) -> int:
        return len(self.rounds[0])

    def _moment(self):
        round_number = len(self.rounds[0]) + 1
        at = self._moments.get(round_number)
        if at is None:  # one Moment a round of every game of the edition with as many players (it is frozen)
            at = self._moments[round_number] = scopes.moment(self.edition, len(self.players), round_number)
        return at

    def _env(self, seat: int, drafts: list[list[Card]], visited: list[list[Card]], previous=0) -> dict:
        """visited: every seat's visited cards once this round's are added."""
        return scopes.requires_env(
            self._moment(), drafts[seat], rules.others(drafts, seat, visited), visited[seat], previous
        )

    def _previous(self, seat: int) -> dict:
        return self.rounds[seat][-1] if self.rounds[seat] else {}

    @property
    def visited(self) -> list[list[Card]]:
        """The sites each seat has visited in the rounds scored, in deck order."""
        return [sorted(sites, key=rules.deck_order) for sites in self._seen]

    def _run(self, seat: int):
        """How this seat's expressions run this round (see _runner)."""
        return self._runner(f"round {self.round_index + 1}, seat {self.players[seat]}")

    def _runner(self, where: str):
        """How the sheet runs an expression: a failure stops the game with a located error saying
        where (round, seat) and what (the category or race) was being scored."""
        what = self._plan.what
        return lambda expression, env, default: evaluate(expression, env,
                                                         lambda: f"{where}, {what[id(expression)]}")

    def visited_with(self, drafts: list[list[Card]]) -> list[list[Card]]:
        """Every seat's visited cards once these drafts are added (work it out once for all of a round's choices)."""
        return self._round_facts(drafts).visited

    def _round_facts(self, drafts: list[list[Card]]) -> RoundFacts:
        """What the choices and the scoring of a round both read, kept for the same round and drafts:
        the game asks for the choices, then scores."""
        key = (self.round_index, tuple(map(tuple, drafts)))  # a card hashes as itself
        facts = self._facts
        if facts is None or facts.key != key:
            seen = [self._seen[seat].union(map(_SITE, hand)) for seat, hand in enumerate(drafts)]
            zeros = self._zeros
            tallies = [icon_counts(self.edition, hand, zeros) for hand in drafts] if zeros is not None else None
            facts = self._facts = RoundFacts(key, seen, tallies)
        return facts

    def round_choice_options(self, drafts: list[list[Card]]) -> list[list[list[str]]]:
        """For each seat, the icons it may pick for each choice category (in the edition's order) this round."""
        facts, at, categories = self._round_facts(drafts), self._moment(), self.edition.choice_categories
        options = []
        for seat in range(len(drafts)):  # (loops: a comprehension's frame costs more than the rest)
            seat_options = []
            for category in categories:
                seat_options.append(self._options(seat, category, drafts, None, facts, at))
            options.append(seat_options)
        return options

    def choice_options(self, seat: int, category: Category, drafts: list[list[Card]], visited=None) -> list[str]:
        """The icons this seat may pick for a choice category at the end of this round (visited: visited_with(drafts),
        when the caller has it)."""
        if visited is None:
            return self._options(seat, category, drafts, None, self._round_facts(drafts))
        return self._options(seat, category, drafts, visited, None)

    def _options(self, seat: int, category: Category, drafts, visited, facts: RoundFacts | None, at=None) -> list[str]:
        """choice_options; facts: the round's (its counts read once for the choices and the scoring), if
        known, and then visited is None; at: the round's Moment, if known."""
        previous = self._previous(seat).get(category.key, 0)
        generated = self._generated
        allowed = generated.allowed.get(category.key) if generated is not None else None
        if allowed is not None:
            at = at or self._moment()
            if facts is not None:
                handed, tally, seen = facts.visited_for(generated)[seat], facts.tallies[seat], facts.seen[seat]
            else:
                handed, tally, seen = visited[seat], None, None
            if not generated.reads_table:
                table = None
            else:
                table = facts.table(drafts, seat) if facts is not None else _table(drafts, visited, seat)
            try:
                return allowed(drafts[seat], handed, previous, self.used_choices[seat][category.key], table,
                               at.players, at.round, at.rounds, tally, seen)
            except Exception:  # noqa: BLE001 - worked out again the slow way, which locates the failure
                pass
        env = self._env(seat, drafts, visited if visited is not None else facts.visited, previous)
        return rules.allowed_icons(category, env, self.used_choices[seat][category.key], self._run(seat))

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
        not worked out again; a record from a table (`boom score`) is checked here (G601)."""
        facts = self._round_facts(drafts)
        at = self._moment()
        fast = self._fast_round(drafts, facts, choices, at)  # pure: an illegal choice is refused below all the same
        if fast is not None:
            results, qualified = fast
            for seat in () if checked else range(len(drafts)):
                self._check_choices(seat, drafts, choices, facts.visited)
        else:
            results, qualified = [], None
            categories = rules.round_categories(self.edition)
            for seat in range(len(drafts)):  # a seat's illegal choice is told before a later seat's failure
                if not checked:
                    self._check_choices(seat, drafts, choices, facts.visited)
                env = self._env(seat, drafts, facts.visited)
                results.append(rules.seat_round(
                    categories, env, self._previous(seat), self.used_choices[seat], self._run(seat), choices[seat]
                ))
        choice_keys = self._plan.choice_keys
        for seat in range(len(drafts)):
            if choice_keys:
                seat_choices, used = choices[seat], self.used_choices[seat]
                for key in choice_keys:
                    icon = seat_choices.get(key)
                    if icon is not None:
                        used[key].add(icon)
        self._seen = list(facts.seen)
        self._run_races(drafts, facts, results, qualified, at)
        for seat, seat_points in enumerate(results):
            self.rounds[seat].append(seat_points)
        if self._plan.end_reads & TABLE:
            self._last_drafts = [list(hand) for hand in drafts]
        self._sheet = None
        return results

    def _check_choices(self, seat: int, drafts, choices, visited) -> None:
        """GameRuleError (G601) unless each of this seat's choices is one it may make this round."""
        for category in self.edition.choice_categories:
            icon = choices[seat].get(category.key)
            reason = self.check_choice(seat, category, icon, drafts, visited) if icon is not None else None
            if reason:
                message = f"round {self.round_index + 1}, {self.players[seat]}: {reason}"
                raise GameRuleError(Diagnostic(None, message, "G601"))

    def _fast_round(self, drafts, facts: RoundFacts, choices, at):
        """Every seat's round points and race qualifications from the edition's generated round
        (game/fast_round.py); None when it has none or an expression raised (the slow way reports it)."""
        generated = self._generated
        if generated is None:
            return None
        visited, seen, tallies, run = facts.visited_for(generated), facts.seen, facts.tallies, generated.run
        players, round_number, rounds = at.players, at.round, at.rounds
        results, qualified = [], []
        try:
            for seat, cards in enumerate(drafts):
                table = facts.table(drafts, seat) if generated.reads_table else None
                points, qualifies = run(cards, visited[seat], self._previous(seat), choices[seat], table,
                                        players, round_number, rounds, tallies[seat], seen[seat])
                results.append(points)
                qualified.append(qualifies)
        except Exception:  # noqa: BLE001 - any failure is scored again the slow way, which locates it
            return None
        return results, qualified

    def _run_races(self, drafts, facts: RoundFacts, results, qualified, at):
        """qualified: for each seat, the indices (in race_slots order) of the race slots it qualifies
        for (None: work it out here, from the round's facts); at: the round's Moment."""
        states = self._race_states
        if qualified is None:
            slots = [(race, region, state.winners) for (race, region), state in zip(self._plan.race_pairs, states,
                                                                                    strict=True)]
            runs = [self._run(seat) for seat in range(len(self.players))]
            visited = facts.visited
            taken = {index: seats for index, seats in enumerate(rules.race_winners(slots, at, drafts, visited, runs))
                     if seats}
        else:
            taken = {}
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
            award = self._award(index, at, state.places_given)
            for seat in taken[index]:
                state.winners.add(seat)
                results[seat][race.key] += award

    def _award(self, index: int, at, place: int):
        """What this place of the race slot pays this round: the same in every game of the edition with
        as many players, so worked out once (an expression that fails is not kept: it raises again, located)."""
        key = (index, place, at.round)
        award = self._awards.get(key)
        if award is None:
            race, region = self._plan.race_pairs[index]
            award = self._awards[key] = rules.race_award(race, region, at, place, self._runner(f"round {at.round}"))
        return award

    def finish(self) -> None:
        self._sheet = None
        self.end_scores = []
        at = self._moment()
        reads = self._plan.end_reads  # what no game-end category reads is not worked out
        generated = self._generated
        end = generated.end if generated is not None else None
        # the sets, unless something reads the lists in deck order (see GeneratedRound.end_reads_visited)
        visited = self.visited if end is None or generated.end_reads_visited or reads & TABLE else self._seen
        for seat, name in enumerate(self.players):
            others = rules.others(self._last_drafts, seat, visited) if reads & TABLE else None
            totals = self.round_totals(seat) if "round_totals" in reads else ()
            points = None
            if end is not None:
                try:
                    points = end(visited[seat], at.players, at.rounds, *rules.game_end_inputs(
                        self.edition, reads, others, totals, self.rounds[seat]))
                except Exception:  # noqa: BLE001 - worked out again the slow way, which locates the failure
                    pass
            if points is None:
                run = self._runner(f"game end, seat {name}")
                listed = sorted(visited[seat], key=rules.deck_order)
                points = rules.game_end_points(self.edition, at, listed, run, others, totals, self.rounds[seat])
            self.end_scores.append(points)

    def round_totals(self, seat: int) -> list[int]:
        """This seat's total of each round scored so far: the lines that count, races included."""
        keys = self.edition.counting_keys
        return [sum(points.get(key, 0) for key in keys) for points in self.rounds[seat]]

    def category_totals(self, seat: int) -> dict:
        totals = {key: 0 for key in self.edition.sheet_keys}
        for points in self.rounds[seat]:
            for key, value in points.items():
                totals[key] += value
        for key, value in (self.end_scores[seat] if self.end_scores else {}).items():
            totals[key] = value
        return totals

    def total(self, seat: int) -> int:
        return self._counted(self.category_totals(seat))

    def _counted(self, totals: dict) -> int:
        """A seat's total from its category_totals: the lines that count."""
        return sum(totals[key] for key in self.edition.counting_keys)

    def ranking(self) -> Ranking:
        seats = range(len(self.players))
        totals = [self.category_totals(s) for s in seats]
        seat_totals = [self._counted(t) for t in totals]
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
        if self._sheet is None:
            self._sheet = self._make_sheet()
        sheet = {
            "players": [
                dict(p, categories=dict(p["categories"]), rounds=[dict(r) for r in p["rounds"]])
                for p in self._sheet["players"]
            ],
            "winners": list(self._sheet["winners"]),
            "ranking": [dict(place) for place in self._sheet["ranking"]],
            "decided_by": dict(self._sheet["decided_by"]) if self._sheet["decided_by"] else None,
        }
        if self.edition.draft.teams:
            sheet["teams"] = teams.team_lines(self.edition, sheet["players"])
        return sheet

    def _make_sheet(self) -> dict:
        players = []
        for seat, name in enumerate(self.players):
            totals = self.category_totals(seat)
            players.append(
                {
                    "name": name,
                    "total": self._counted(totals),
                    "categories": totals,
                    "rounds": [dict(points) for points in self.rounds[seat]],
                }
            )
        if self.end_scores is None:
            return {"players": players, "winners": [], "ranking": [], "decided_by": None}
        ranking = self.ranking()
        decider = ranking.decided_by
        titles = {c.key: c.title for c in self.edition.categories} | {r.key: r.title for r in self.edition.races}
        names = list(self.players)
        if self.edition.draft.teams:  # the ranking's places are teams
            names = [
                " & ".join(self.players[seat] for seat in team)
                for team in self.edition.draft.members(len(self.players))
            ]
        return {
            "players": players,
            "winners": [self.players[seat] for seat in ranking.winners],
            "ranking": [{"rank": p.rank, "name": names[p.seat], "shared": p.shared} for p in ranking.places],
            "decided_by": None
            if decider is None
            else {
                "key": decider.key,
                "title": titles.get(decider.key, decider.key),
                "winner": decider.winner,
                "runner_up": decider.runner_up,
            },
        }
