"""What a round would be worth to a seat: the bots' and the terminal help's view of the score sheet.

Bots and the `?` help must judge hypothetical hands (a card not taken yet, a completion of the
round) with the edition's own compiled categories and races, so that a new edition or a house rule
needs no bot code. The rules of scoring are not written here: like the score sheet
(rulesengine.game.scoring.ScoreKeeper) this module calls rulesengine.game.scoring_rules, on a Standing,
a frozen snapshot of the public past (visited cards, previous round points, used choices, races
already won); it adds what only a bot needs (what a hand would add to the final total, and a memo)
and never changes a sheet. Every function below is pure.
It must never read a hand or a Throw the seat cannot see: callers pass only cards they know or
cards they sampled themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from operator import add

from ..dsl import card_mask
from ..edition.model import Card, Edition
from ..edition.scopes import Moment, moment, qualifies_env, round_env, table_env
from ..game import scoring_rules as rules
from ..game.generated import FAILED, TABLE, icon_counts, per_edition, reads
from ..game.scoring import ScoreKeeper
from .fast_value import (
    SEAT_BY_SEAT,
    own_order_function,
    own_value_function,
    shared_value_function,
)


def _run(expression, env: dict, default=0):  # the `run` of scoring_rules for hands that may never happen
    """The expression's value, or `default` when it cannot be evaluated on this hypothetical hand."""
    try:
        return expression.run(env)
    except FAILED:
        return default


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
    # scored, for a choice once per game): what the generated values go through
    choosable: dict = field(default_factory=dict)


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
    fast: object = None  # fast_value's generated _own_value for `own`, or None
    fast_order: object = None  # fast_value's generated own values of the options of one sampled order, or None
    fast_shared: object = None  # fast_value's generated value of `shared`, or None
    shared_reads: frozenset = frozenset()  # the game variables `shared` reads
    open_races: tuple = ()  # per seat, per race of the edition: the (region, award) it may still take
    order_shared: bool = False  # whether fast_order adds the shared categories too
    memo: dict = field(default_factory=dict, compare=False, repr=False)


MEMO_LIMIT = 50_000  # seat values kept per standing; past it the memo starts afresh


def _reads_others(category) -> bool:
    """Whether a category's points depend on the other seats' cards (races never see them)."""
    return bool(reads((category,)) & TABLE)


def _end_points(edition: Edition, at: Moment, visited: list) -> float:
    points = rules.game_end_points(edition, at, visited, _run)
    return sum(points[c.key] for c in edition.categories if c.counts and c.key in points)


def standing_from_scores(edition: Edition, scores: ScoreKeeper) -> Standing:
    """Snapshot a score keeper that has scored the finished rounds (and only those)."""
    n = len(scores.players)
    at = moment(edition, n, scores.round_index + 1)
    seats = []
    visited_by_seat = scores.visited   # in deck order, worked out from the sheet's sets: once for every seat
    for seat in range(n):
        visited = tuple(visited_by_seat[seat])
        previous = dict(scores.rounds[seat][-1]) if scores.rounds[seat] else {}
        used = {key: frozenset(icons) for key, icons in scores.used_choices[seat].items()}
        total = sum(scores.round_totals(seat))
        end_points = _end_points(edition, at, list(visited))
        choosable = {c.key: tuple(icon for icon in c.choice.family.icons
                                  if not (c.choice.once_per_game and icon in used.get(c.key, ())))
                     for c in edition.choice_categories}
        seats.append(SeatPast(visited, frozenset(visited), previous, used, end_points, total, choosable))
    races = []
    for race, region in rules.race_slots(edition):
        state = scores.races[(race.key, region.name if region else None)]
        next_award = rules.race_award(race, region, at, state.places_given + 1, _run)
        races.append(RaceSlot(race, region, state.places_given, frozenset(state.winners), next_award))
    rounds = rules.round_categories(edition)
    counting = tuple(c for c in rounds if c.counts)  # a line that is not added up is worth nothing to a seat
    own = tuple(c for c in counting if not _reads_others(c))
    shared = tuple(c for c in counting if _reads_others(c))
    open_races = tuple(
        tuple(
            tuple((slot.region, slot.next_award) for slot in races
                  if slot.race is race and seat not in slot.winners and slot.next_award)
            for race in edition.races
        )
        for seat in range(n)
    )
    by_order = _fast_order(edition, own, shared) if shared else None   # with the shared categories, if it can
    return Standing(edition, n, scores.round_index + 1, tuple(seats), tuple(races), own, shared, at, rounds,
                    _fast_function(edition, own), by_order or _fast_order(edition, own, ()),
                    _fast_shared(edition, shared), reads(shared), open_races, order_shared=by_order is not None)


_FAST: dict = {}


def _fast_function(edition: Edition, own: tuple):
    """fast_value's function for this edition's own categories, generated once per edition."""
    return per_edition(_FAST, edition, tuple(c.key for c in own), lambda: own_value_function(edition, own))


def _fast_order(edition: Edition, own: tuple, shared: tuple):
    """fast_value's values of the options of one sampled order, generated once per edition (with the
    shared categories, or None if they are read in a way it does not generate)."""
    key = ("order", *(c.key for c in own), "shared", *(c.key for c in shared))
    return per_edition(_FAST, edition, key, lambda: own_order_function(edition, own, shared))


def _fast_shared(edition: Edition, shared: tuple):
    """fast_value's function for the categories that read the other seats' cards, once per edition."""
    if not shared:
        return None
    return per_edition(_FAST, edition, ("shared", *(c.key for c in shared)), lambda: shared_value_function(shared))


_STANDINGS: dict = {}


def _round_key(played: dict) -> tuple:
    """A round of the view's history, told apart from any other exactly (its repr, in half the time)."""
    drafts, drafted = played["drafts"], played.keys() == _DRAFTED
    rest = played["choices"] if drafted else {k: v for k, v in played.items() if k != "drafts"}
    return tuple(drafts), tuple(map(tuple, drafts.values())), drafted, repr(rest)


_DRAFTED = {"drafts", "choices"}   # what a drafting round's history holds


def standing_from_view(edition: Edition, view: dict) -> Standing:
    """The standing a seat can work out from its view: the earlier rounds are public."""
    key = (id(edition), tuple(view["players"]), *map(_round_key, view["history"]))
    standing = _STANDINGS.get(key)
    if standing is None or standing.edition is not edition:
        scores = ScoreKeeper(edition, view["players"])
        for round_data in view["history"]:
            drafts = [[edition.card(x) for x in round_data["drafts"][name]] for name in view["players"]]
            scores.score_round(drafts, [dict(round_data["choices"].get(name, {})) for name in view["players"]])
        standing = standing_from_scores(edition, scores)
        if len(_STANDINGS) > 16:  # a memo of a pure function: it never changes a decision
            _STANDINGS.clear()
        _STANDINGS[key] = standing
    return standing


def visited_after(past: SeatPast, cards) -> list:
    """The seat's visited cards once this round's cards are added, in deck order."""
    return rules.visited_after(past.visited, past.visited_set, cards)


def choice_points(standing: Standing, seat: int, category, cards: list, others: list, visited=None) -> dict:
    """icon -> points for every icon this seat may still pick for a choice category with these cards."""
    past = standing.seats[seat]
    env = round_env(
        standing.at,
        cards,
        others,
        visited if visited is not None else visited_after(past, cards),
        past.previous.get(category.key, 0),
    )
    return dict(rules.icon_points(category, env, past.used.get(category.key, ()), _run))


def category_points(standing: Standing, seat: int, cards: list, others: list, choices: dict | None = None) -> dict:
    """key -> points of each round category for these cards; a choice category at the given icon
    (absent or None: no points) or, without `choices`, at its best icon."""
    past = standing.seats[seat]
    env = round_env(standing.at, cards, others, visited_after(past, cards))
    return rules.seat_round(standing.rounds, env, past.previous, past.used, _run, choices)


def race_points(standing: Standing, seat: int, cards: list, visited: list) -> dict:
    """key -> what this seat's races would pay if it alone qualified this round."""
    points = {}
    env = qualifies_env(standing.at, cards, visited)
    for slot in standing.races:
        if seat in slot.winners or not slot.next_award:
            continue
        if rules.qualifies(slot.race, slot.region, env, _run):
            points[slot.race.key] = points.get(slot.race.key, 0) + slot.next_award
    return points


def breakdown(standing: Standing, seat: int, cards: list, others: list) -> dict:
    """seat_value split by sheet key: round categories, races, and what game-end categories gain."""
    if not cards:
        return {}
    past = standing.seats[seat]
    visited = visited_after(past, cards)
    points = category_points(standing, seat, cards, others)
    for key, value in race_points(standing, seat, cards, visited).items():
        points[key] = points.get(key, 0) + value
    before = rules.game_end_points(standing.edition, standing.at, list(past.visited), _run)
    after = rules.game_end_points(standing.edition, standing.at, visited, _run)
    for key, value in after.items():
        points[key] = value - before[key]
    return points


def seat_value(standing: Standing, seat: int, cards: list, others: list) -> float:
    """All a round's cards would add to this seat's final total: categories (a choice at its best
    icon), races as if it alone qualified, and the gain of the game-end categories.
    The sum of breakdown(), faster: the bots call it hundreds of thousands of times a game, mostly
    on hands they have judged before (the same picks so far in another sampled world), so the
    standing remembers the part that depends on this seat's cards alone; only the categories that
    read `others` are worked out every time."""
    key = (seat, tuple(cards))  # a card hashes as itself: the same hand, the same key
    memo = standing.memo
    value = memo.get(key)
    if value is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        value = memo[key] = _own_value(standing, seat, cards)
    if standing.shared:
        value += _shared_value(standing, seat, cards, others)
    return value


def _shared_value(standing: Standing, seat: int, cards: list, others) -> float:
    """What the categories that read the other seats' cards (standing.shared) add to seat_value."""
    past = standing.seats[seat]
    reads = standing.shared_reads
    visited = visited_after(past, cards) if "visited" in reads or standing.fast_shared is None else None
    if standing.fast_shared is not None:
        at = standing.at
        if reads & SEAT_BY_SEAT:
            seats = table_env(others)
            table = (others, seats["opponents"], seats["left"], seats["right"])
        else:
            table = (others, None, None, None)
        return standing.fast_shared(cards, visited, past.previous, past.choosable, table, at.players, at.round,
                                    at.rounds)
    env = round_env(standing.at, cards, others, visited)
    value = 0
    for category in standing.shared:
        value += rules.category_points(category, env, past.previous, past.used, _run)
    return value


@dataclass(frozen=True)
class HandValues:
    """How the greedy bot values the hands it judges for one seat (see hand_values)."""

    one: Callable     # (cards, others) -> seat_value(standing, seat, cards, others)
    # (first, options, rest) -> (sums, heads, dealt) -> sums[i] += one(hand, the cards of dealt not in hand)
    # for each option i and head, the hand first + [option] + head[:rest], or for an option in head
    # first + [option] + the rest of head; None without the generated value
    order: Callable | None = None


def hand_values(standing: Standing, seat: int) -> HandValues:
    """seat_value for the greedy bot's hands, with what does not change from hand to hand looked up
    once. It does not use the memo: the greedy bot's hands seldom repeat (6% of them), and looking
    each up cost more than it saved. `others` is read only when some category reads it. `order`
    values the options of one sampled order of the cards in hands, hands one card apart or the same
    cards in another order, from the counts and visited cards of what they share, worked out once."""
    if standing.fast is None or standing.fast_order is None:
        return HandValues(lambda cards, others: seat_value(standing, seat, cards, others))
    fast, by_order, at, past = standing.fast, standing.fast_order, standing.at, standing.seats[seat]
    previous, choosable, races, end_points = past.previous, past.choosable, standing.open_races[seat], past.end_points
    before, seen = past.visited, past.visited_set
    size = len(before)
    players, round_number, rounds = at.players, at.round, at.rounds
    shared = standing.shared

    def one(cards, others):
        visited = rules.visited_after(before, seen, cards)
        found = fast(cards, visited, previous, choosable, races, players, round_number, rounds,
                     end_points if len(visited) != size else None, None)
        return found + _shared_value(standing, seat, cards, others) if shared else found

    def order(first: list, options: list, rest: int) -> Callable:
        """(sums, heads, dealt) -> sums plus, option by option, its value in every order that starts with
        one of heads, in a world where dealt were dealt: what is the same in every order of a decision bound once."""
        visited = rules.visited_after(before, seen, first)
        tally = icon_counts(standing.edition, first)
        valued = partial(by_order, first, options, rest, tally, visited, frozenset(visited), card_mask(visited),
                         previous, choosable, races, players, round_number, rounds, end_points, size, {})
        if not shared:
            return valued
        if standing.order_shared:
            def with_dealt(sums: list, heads: list, dealt) -> None:
                valued(sums, heads, dealt, set(dealt), icon_counts(standing.edition, dealt))
            return with_dealt

        def with_shared(sums: list, heads: list, dealt) -> None:
            for head in heads:
                values = [0] * len(options)
                valued(values, (head,), dealt)
                _add_shared(values, first, options, head, rest, dealt)
                sums[:] = map(add, sums, values)
        return with_shared

    def _add_shared(values: list, first: list, options: list, head: list, rest: int, dealt) -> None:
        """What the categories that read the other seats' cards (what was dealt, less the hand, in the
        order dealt) add to each option's value, where fast_order does not add them: they read those
        cards as a list, or seat by seat, so the counts fast_order would give them save nothing."""
        usual = head[:rest]
        for index, card in enumerate(options):
            hand = first + [card] + ([c for c in head if c is not card] if card in head else usual)
            mine = set(hand)
            values[index] += _shared_value(standing, seat, hand, [c for c in dealt if c not in mine])

    return HandValues(one, order)


def _own_value(standing: Standing, seat: int, cards: list) -> float:
    """seat_value without the categories that read `others` (which is then left unset)."""
    past = standing.seats[seat]
    visited = visited_after(past, cards)
    if standing.fast is not None:
        at = standing.at
        end_before = past.end_points if len(visited) != len(past.visited) else None
        return standing.fast(cards, visited, past.previous, past.choosable, standing.open_races[seat],
                             at.players, at.round, at.rounds, end_before, None)
    env = round_env(standing.at, cards, None, visited)
    value = 0
    for category in standing.own:
        value += rules.category_points(category, env, past.previous, past.used, _run)
    env = qualifies_env(standing.at, cards, visited)
    for slot in standing.races:
        if seat in slot.winners or not slot.next_award:
            continue
        if rules.qualifies(slot.race, slot.region, env, _run):
            value += slot.next_award
    if len(visited) != len(past.visited):
        value += _end_points(standing.edition, standing.at, visited) - past.end_points
    return value


def round_gains(standing: Standing, drafts: list) -> list:
    """round_values with every choice at its best icon, through seat_value (its memo and generated
    value): a race's next place goes to every seat that qualifies, as the sheet shares it, which is
    what seat_value gives each seat alone."""
    if not standing.shared:
        return [seat_value(standing, seat, cards, ()) for seat, cards in enumerate(drafts)]
    visited = [visited_after(standing.seats[s], drafts[s]) for s in range(standing.players)]
    return [seat_value(standing, seat, cards, rules.others(drafts, seat, visited)) for seat, cards in enumerate(drafts)]


def round_values(standing: Standing, drafts: list, choices: list | None = None) -> list:
    """Every seat's gain from a finished round, races shared as the score sheet shares them;
    choice categories at the given icons (choices[seat]: key -> icon), else at their best."""
    n = standing.players
    visited = [visited_after(standing.seats[s], drafts[s]) for s in range(n)]
    values = []
    for seat in range(n):
        points = category_points(
            standing, seat, drafts[seat], rules.others(drafts, seat, visited), choices[seat] if choices else None
        )
        value = sum(points[c.key] for c in standing.rounds if c.counts)
        if len(visited[seat]) != len(standing.seats[seat].visited):
            value += _end_points(standing.edition, standing.at, visited[seat]) - standing.seats[seat].end_points
        values.append(value)
    slots = [(slot.race, slot.region, slot.winners) for slot in standing.races]
    taken = rules.race_winners(slots, standing.at, drafts, visited, [_run] * n)
    for slot, seats in zip(standing.races, taken, strict=True):
        for seat in seats:
            values[seat] += slot.next_award
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
