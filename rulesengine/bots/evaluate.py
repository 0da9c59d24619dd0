"""What a round would be worth to a seat: the bots' and the terminal help's view of the score sheet.

Bots and the `?` help must judge hypothetical hands (a card not taken yet, a completion of the
round) with the edition's own scoring, so that a new edition or a house rule needs no bot code.
No rule of scoring is written here: like the score sheet, this module calls the edition's program
(rulesengine.game.program), on a Standing, a frozen snapshot of the public past (visited cards,
previous round points, used choices, races already won); it adds what only a bot needs (what a
hand would add to the final total, a memo) and never changes a sheet. Every function is pure.
It must never read a hand or a Throw the seat cannot see: callers pass only cards they know or
cards they sampled themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..dsl import FAILED
from ..dsl.meter import METER, aside
from ..dsl.program import category_reads
from ..dsl.program import visited_after as _visited_after
from ..edition.goals import GOAL_PREFIX, GOALS_KEY
from ..edition.model import Card, Edition
from ..edition.scopes import Moment, SeatInputs, moment, sheet_so_far, table_env
from ..edition.seat_options import seat_values
from ..edition.steps import SecretChoice
from ..game.program import TABLE, program
from ..game.round_facts import others as round_others
from ..game.round_facts import race_slots
from ..game.scoring import ScoreKeeper


@dataclass(frozen=True)
class SeatPast:
    """One seat's public past: what earlier rounds left on its sheet."""

    visited: tuple  # cards visited in earlier rounds, in deck order
    visited_set: frozenset
    previous: dict  # category key -> points of the previous round
    used: dict  # choice category key -> frozenset of icons already scored
    end_points: float  # game-end categories on `visited` as it stands
    total: int  # the sheet total so far (round categories and races)
    # choice category key -> the icons it may still choose, in the family's order (not those already
    # scored, for a choice once per game)
    choosable: dict = field(default_factory=dict)
    sheet: object = None  # its score sheet so far as expressions read it (scopes.SheetSoFar), None if none does


@dataclass(frozen=True)
class RaceSlot:
    """One race (or one region's race): its next place, who has won it, what the next place pays."""

    race: object
    region: object
    places_given: int
    winners: frozenset
    next_award: float


@dataclass(frozen=True)
class Standing:
    """The public state of the score sheet at the start of a round, for every seat."""

    edition: Edition
    players: int
    round: int  # 1-based number of the round being played
    seats: tuple
    races: tuple
    own: tuple = ()  # the round categories that read only this seat's cards
    shared: tuple = ()  # those that read `others` too (see seat_value)
    at: Moment | None = None  # what the expressions of this round see of the game
    rounds: tuple = ()  # every round category, in sheet order
    values: tuple = ()  # per seat, its program.SeatValue: what hands are worth to it
    shared_reads: frozenset = frozenset()  # the game variables `shared` reads
    open_races: tuple = ()  # per seat, per race of the edition: the (region, award) it may still take
    goals: tuple = ()  # the public goals drawn (ids): the program scores them at game end (edition/goals.py)
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    costs: dict = field(default_factory=dict, compare=False, repr=False)  # memo key -> the steps it charged, if any


MEMO_LIMIT = 50_000  # seat values kept per standing; past it the memo starts afresh


def _award(scoring, race, region, at: Moment, place: int):
    """What the next place of a race pays, or 0 where its award cannot be worked out."""
    try:
        return scoring.award(race, region, place=place, players=at.players, round=at.round, rounds=at.rounds)
    except FAILED:
        return 0


def standing_from_scores(edition: Edition, scores: ScoreKeeper) -> Standing:
    """Snapshot a score keeper that has scored the finished rounds (and only those)."""
    scoring = program(edition, scores.goals)
    n = len(scores.players)
    at = moment(edition, n, scores.round_index + 1)
    seats = []
    visited_by_seat = scores.visited   # in deck order, worked out from the sheet's sets: once for every seat
    for seat in range(n):
        visited = tuple(visited_by_seat[seat])
        previous = dict(scores.rounds[seat][-1]) if scores.rounds[seat] else {}
        used = {key: frozenset(icons) for key, icons in scores.used_choices[seat].items()}
        total = sum(scores.round_totals(seat))
        end_points = scoring.end_points(list(visited), at.players, at.rounds)
        choosable = {c.key: tuple(icon for icon in c.choice.family.icons
                                  if not (c.choice.once_per_game and icon in used.get(c.key, ())))
                     for c in edition.choice_categories}
        sheet = sheet_so_far(edition, scores.rounds, seat, scores.option_values(seat)) if scoring.needs.sheet else None
        seats.append(SeatPast(visited, frozenset(visited), previous, used, end_points, total, choosable, sheet))
    races = []
    for race, region in race_slots(edition):
        state = scores.races[(race.key, region.name if region else None)]
        next_award = _award(scoring, race, region, at, state.places_given + 1)
        races.append(RaceSlot(race, region, state.places_given, frozenset(state.winners), next_award))
    rounds, own, shared, shared_reads = edition.kept("bots' categories", lambda: _categories(edition))
    open_races = tuple(
        tuple(
            tuple((slot.region, slot.next_award) for slot in races
                  if slot.race is race and seat not in slot.winners and slot.next_award)
            for race in edition.races
        )
        for seat in range(n)
    )
    standing = Standing(edition, n, scores.round_index + 1, tuple(seats), tuple(races), own, shared, at, rounds, (),
                        shared_reads, open_races, goals=scores.goals)
    return replace(standing, values=tuple(_seat_value(standing, seat, past) for seat, past in enumerate(seats)))


def _seat_value(standing: Standing, seat: int, past: SeatPast):
    """The program's value of hands for this seat (program.SeatValue) at this standing."""
    at = standing.at
    return program(standing.edition, standing.goals).seat_value(
        standing.own, standing.shared, previous=past.previous, choosable=past.choosable,
        races=standing.open_races[seat], players=at.players, round=at.round, rounds=at.rounds,
        end_points=past.end_points, size=len(past.visited), before=past.visited, seen=past.visited_set,
        sheet=past.sheet)


def declared(standing: Standing, seat: int, key: str, icon: str) -> Standing:
    """The standing with this seat's choice of `key` declared (a secret choice before the deal): the
    round's value of its hands counts that icon only. The other seats' declarations are hidden from it,
    so theirs stay open."""
    past = standing.seats[seat]
    past = replace(past, choosable={**past.choosable, key: (icon,)})
    seats = standing.seats[:seat] + (past,) + standing.seats[seat + 1:]
    values = standing.values[:seat] + (_seat_value(standing, seat, past),) + standing.values[seat + 1:]
    return replace(standing, seats=seats, values=values, memo={}, costs={})


def reads_the_table(edition: Edition) -> bool:
    """Whether some round category that counts reads the other seats' cards (Europe's National Treasures):
    every evaluation of a hand then works out that part again (seat_value), at about twice the cost."""
    return bool(edition.kept("bots' categories", lambda: _categories(edition))[2])


def _categories(edition: Edition) -> tuple:
    """The round categories; of those that count, the seat's own (they read only its cards) and the shared
    (they read the other seats' too), from their trees; and what the shared ones read."""
    rounds = tuple(c for c in edition.categories if c.when == "round")
    counting = tuple(c for c in rounds if c.counts)  # a line that is not added up is worth nothing to a seat
    own = tuple(c for c in counting if not category_reads((c,)) & TABLE)
    shared = tuple(c for c in counting if category_reads((c,)) & TABLE)
    return rounds, own, shared, category_reads(shared)


def _round_key(played: dict) -> tuple:
    """A round of the view's history, told apart from any other exactly (its repr, in half the time)."""
    drafts, drafted = played["drafts"], played.keys() == _DRAFTED
    rest = played["choices"] if drafted else {k: v for k, v in played.items() if k != "drafts"}
    return tuple(drafts), tuple(map(tuple, drafts.values())), drafted, repr(rest)


_DRAFTED = {"drafts", "choices"}   # what a drafting round's history holds


def standing_from_view(edition: Edition, view: dict) -> Standing:
    """The standing a seat can work out from its view: the earlier rounds are public."""
    standings = edition.kept("standings", dict)   # a memo of a pure function: it never changes a decision
    given = view.get("seat_options")   # public: as the table set them (an edition that declares some)
    goals = tuple(goal["id"] for goal in view.get("goals", ()))   # public (an edition with goals)
    key = (tuple(view["players"]), given and repr(given), goals, *map(_round_key, view["history"]))
    standing = standings.get(key)
    if standing is None:
        with aside():   # remembered for the edition: charged to no decision (dsl/meter.py)
            options = seat_values(edition, view["players"], given) if given else None
            scores = ScoreKeeper(edition, view["players"], options)
            if goals:
                scores.set_goals(goals)
            for round_data in view["history"]:
                drafts = [[edition.card(x) for x in round_data["drafts"][name]] for name in view["players"]]
                scores.score_round(drafts, [dict(round_data["choices"].get(name, {})) for name in view["players"]])
            standing = standing_from_scores(edition, scores)
        if len(standings) > 16:
            standings.clear()
        standings[key] = standing
    secret = view.get("secret")
    if secret is not None:   # this seat declared its round-end choice in secret: its hands are worth that icon's
        step = edition.round.step(SecretChoice)
        if step.declares:
            mine = (key, view["seat"], secret)
            found = standings.get(mine)
            if found is None:
                found = standings[mine] = declared(standing, view["seat"], step.key, secret)
            return found
    return standing


def visited_after(past: SeatPast, cards) -> list:
    """The seat's visited cards once this round's cards are added, in deck order."""
    return _visited_after(past.visited, past.visited_set, cards)


def _table(others) -> tuple:
    """The program's `table` input from the other seats' cards (one list, or a round's Others)."""
    seats = table_env(others)
    return others, seats["opponents"], seats["left"], seats["right"]


def choice_points(standing: Standing, seat: int, category, cards: list, others: list, visited=None) -> dict:
    """icon -> points for every icon this seat may still pick for a choice category with these cards."""
    past, at, scoring = standing.seats[seat], standing.at, program(standing.edition, standing.goals)
    visited = visited if visited is not None else visited_after(past, cards)
    return scoring.choice_points[category.key](SeatInputs(
        cards=cards, tally=scoring.tally(cards), visited=visited, seen=frozenset(visited), table=_table(others),
        previous=past.previous, used=past.used.get(category.key, ()), players=at.players, round=at.round,
        rounds=at.rounds, sheet=past.sheet))


def category_points(standing: Standing, seat: int, cards: list, others: list, choices: dict | None = None) -> dict:
    """key -> points of each round category for these cards; a choice category at the given icon
    (absent or None: no points) or, without `choices`, at its best icon."""
    past, at = standing.seats[seat], standing.at
    return program(standing.edition, standing.goals).judged_round(
        cards=cards, visited=visited_after(past, cards), table=_table(others), previous=past.previous, used=past.used,
        choices=choices, players=at.players, round=at.round, rounds=at.rounds, sheet=past.sheet)


def race_points(standing: Standing, seat: int, cards: list, visited: list) -> dict:
    """key -> what this seat's races would pay if it alone qualified this round."""
    won = _won(standing, seat, lambda slot: not slot.next_award)
    at, points = standing.at, {}
    qualified = program(standing.edition, standing.goals).judged_races(
        cards=cards, visited=visited, won=won, players=at.players,
                                                       round=at.round, rounds=at.rounds,
                                                       sheet=standing.seats[seat].sheet)
    for index in qualified:
        slot = standing.races[index]
        points[slot.race.key] = points.get(slot.race.key, 0) + slot.next_award
    return points


def _won(standing: Standing, seat: int, closed=lambda slot: False) -> frozenset:
    """The race slots this seat has won (and those `closed` says it cannot take either)."""
    return frozenset(index for index, slot in enumerate(standing.races) if seat in slot.winners or closed(slot))


def breakdown(standing: Standing, seat: int, cards: list, others: list) -> dict:
    """seat_value split by sheet key: round categories, races, and what game-end categories gain."""
    if not cards:
        return {}
    past, at, scoring = standing.seats[seat], standing.at, program(standing.edition, standing.goals)
    visited = visited_after(past, cards)
    points = category_points(standing, seat, cards, others)
    for key, value in race_points(standing, seat, cards, visited).items():
        points[key] = points.get(key, 0) + value
    before = scoring.judged_end(list(past.visited), at.players, at.rounds)
    after = scoring.judged_end(visited, at.players, at.rounds)
    for key, value in after.items():   # each public goal drawn on the sheet's one line of them
        line = GOALS_KEY if key.startswith(GOAL_PREFIX) else key
        points[line] = points.get(line, 0) + value - before[key]
    return points


def seat_value(standing: Standing, seat: int, cards: list, others: list) -> float:
    """All a round's cards would add to this seat's final total: categories (a choice at its best
    icon), races as if it alone qualified, and the gain of the game-end categories.
    The sum of breakdown(), faster: the bots call it hundreds of thousands of times a game, mostly
    on hands they have judged before (the same picks so far in another sampled world), so the
    standing remembers the part that depends on this seat's cards alone; only the categories that
    read `others` are worked out every time. A remembered hand charges the meter's `spent` (dsl/meter.py)
    the steps working it out charged, so that a searching bot's decision spends the same steps whether an
    earlier decision filled the memo or not (its step budget: allowance.py)."""
    key = (seat, tuple(cards))  # a card hashes as itself: the same hand, the same key
    memo = standing.memo
    value = memo.get(key)
    if value is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
            standing.costs.clear()
        before = METER.spent
        value = memo[key] = own_value(standing, seat, cards)
        if METER.spent != before:
            standing.costs[key] = METER.spent - before
    elif standing.costs:   # a hand remembered charges what working it out charged (see below)
        METER.spent += standing.costs.get(key, 0)
    if standing.shared:
        value += _shared_value(standing, seat, cards, others)
    return value


def own_value(standing: Standing, seat: int, cards: list) -> float:
    """seat_value without the categories that read the other seats' cards."""
    return standing.values[seat].own(cards, visited_after(standing.seats[seat], cards))


def _shared_value(standing: Standing, seat: int, cards: list, others) -> float:
    """What the categories that read the other seats' cards (standing.shared) add to seat_value."""
    visited = visited_after(standing.seats[seat], cards) if "visited" in standing.shared_reads else None
    return standing.values[seat].shared(cards, visited, others)


@dataclass(frozen=True)
class HandValues:
    """How the greedy bot values the hands it judges for one seat (see hand_values)."""

    one: Callable     # (cards, others) -> seat_value(standing, seat, cards, others)
    # (first, options, rest) -> (sums, heads, dealt) -> sums[i] += one(hand, the cards of dealt not in hand)
    # for each option i and head, the hand first + [option] + head[:rest], or for an option in head
    # first + [option] + the rest of head
    order: Callable
    charges: bool     # whether order's functions may charge the step meter (SeatValue.charges)


def hand_values(standing: Standing, seat: int) -> HandValues:
    """seat_value for the greedy bot's hands, with what does not change from hand to hand looked up
    once. It does not use the memo: the greedy bot's hands seldom repeat (6% of them), and looking
    each up cost more than it saved. `others` is read only when some category reads it. `order`
    values the options of one sampled order of the cards in hands, hands one card apart or the same
    cards in another order, from the counts and visited cards of what they share, worked out once."""
    values, past = standing.values[seat], standing.seats[seat]
    before, seen, own = past.visited, past.visited_set, values.own
    shared = standing.shared

    def one(cards, others):
        found = own(cards, _visited_after(before, seen, cards))
        return found + _shared_value(standing, seat, cards, others) if shared else found

    return HandValues(one, values.order, values.charges)


def round_gains(standing: Standing, drafts: list) -> list:
    """round_values with every choice at its best icon, through seat_value (its memo and generated
    value): a race's next place goes to every seat that qualifies, as the sheet shares it, which is
    what seat_value gives each seat alone."""
    if not standing.shared:
        return [seat_value(standing, seat, cards, ()) for seat, cards in enumerate(drafts)]
    visited = [visited_after(standing.seats[s], drafts[s]) for s in range(standing.players)]
    return [seat_value(standing, seat, cards, round_others(drafts, seat, visited))
            for seat, cards in enumerate(drafts)]


def round_values(standing: Standing, drafts: list, choices: list | None = None) -> list:
    """Every seat's gain from a finished round, races shared as the score sheet shares them;
    choice categories at the given icons (choices[seat]: key -> icon), else at their best."""
    scoring, at = program(standing.edition, standing.goals), standing.at
    visited = [visited_after(standing.seats[s], drafts[s]) for s in range(standing.players)]
    values = []
    for seat in range(standing.players):
        points = category_points(standing, seat, drafts[seat], round_others(drafts, seat, visited),
                                 choices[seat] if choices else None)
        value = sum(points[c.key] for c in standing.rounds if c.counts)
        if len(visited[seat]) != len(standing.seats[seat].visited):
            value += scoring.end_points(visited[seat], at.players, at.rounds) - standing.seats[seat].end_points
        for index in scoring.judged_races(cards=drafts[seat], visited=visited[seat], won=_won(standing, seat),
                                          players=at.players, round=at.round, rounds=at.rounds,
                                          sheet=standing.seats[seat].sheet):
            value += standing.races[index].next_award
        values.append(value)
    return values


def card_list(edition: Edition, letters) -> list[Card]:
    card = edition.by_letter.get  # edition.card, without a Python call a letter
    return [card(x) for x in letters]


def face_up_cards(edition: Edition, view: dict) -> tuple[list, list]:
    """The cards this seat has face up, and those every other seat has face up (the `others`)."""
    seat = view["seat"]
    mine = card_list(edition, view["table"][seat]["face_up"])
    return mine, [
        c for other, table in enumerate(view["table"]) if other != seat for c in card_list(edition, table["face_up"])
    ]
