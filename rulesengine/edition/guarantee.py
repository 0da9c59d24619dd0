"""The per-game guarantee: from an edition's declared sizes, the worst case of a whole game, refused
beyond its limits, so that an edition that validates also plays in bounded time and memory.

The work budget (dsl/budget.py) bounds one evaluation of one expression. A game evaluates them many
times: the greedy bot values a hand (every round category, at every icon of a choice, every race's
`qualifies`, every game-end line) for each option of each decision in every sampled world. This
module multiplies those out, from the edition alone:

    value of one hand   V = sum of the steps of what a hand's value evaluates (budget.worst_case)
    a greedy decision     samples x completions x options x V
    a greedy game         rounds x seats x (every decision of a round) + the score sheet + estimates

and refuses an edition whose greedy game could take more than MAX_GAME_WORK steps (about a minute
on one core) or more than MAX_GAME_DECISIONS decisions (what a save holds), with the figures in the
message. A round's decisions are what its blocks declare they may ask (each step's most_decisions in
edition/steps.py: a pick for every card of a hand but the Catch, a choice per choice category, every
token of the table thrown once and a stop per seat in a bidding), times the rounds of a game (`end:
{rounds: N}`, or at most 2 x deck + 1 for a round that turns cards up until its deck is empty).
When one decision would take more than DECISION_WORK steps, the greedy bot samples fewer
worlds (`samples`, `completions` here); no shipped edition comes near. It also bounds every number
an expression can give, round after round (a category reading its `previous` points, game-end lines
reading round totals), and refuses one above MAX_NUMBER at its place. See docs/limits.md.
It only counts: it never plays a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dsl import IconType
from ..dsl.budget import MAX_NUMBER, largest_number, worst_case
from ..errors import Diagnostic
from .goals import scored_categories
from .model import ROUND, Edition, Expression
from .scopes import AWARD, FLOW_END, GAME_END, QUALIFIES, REQUIRES, ROUND_CATEGORY, UNTIL
from .steps import Bidding, Deal, PickAndPass, Reveal, SecretChoice

MAX_GAME_WORK = 300_000_000   # evaluation steps of a greedy game at worst: about a minute on one core
MAX_GAME_DECISIONS = 20_000   # decisions of a game: a save holds 4 nodes a decision (SAVE_MAX_NODES)
DECISION_WORK = 5_000_000     # steps of one greedy decision at worst (about a second); beyond, fewer samples
STEPS_PER_SECOND = 5_000_000  # one core, the closures (bench/expressions.py): to say the figures in time
GREEDY_SAMPLES, GREEDY_COMPLETIONS = 6, 3  # the greedy bot's worlds and orders per world (bots/greedy.py)
TYPICAL_TRIALS = 200          # random hands behind a once-per-game choice's worth (bots/greedy.py)


@dataclass(frozen=True)
class Guarantee:
    """The worst case of one game of an edition, as validated."""

    decisions: int            # decisions of one game at most
    value_work: int           # steps to value one hand for a bot
    samples: int              # the greedy bot's sampled worlds per decision
    completions: int          # its random orders of the round per world
    decision_work: int        # steps of one greedy decision at worst
    game_work: int            # steps of a whole game of greedy seats at worst

    @property
    def seconds(self) -> float:
        return self.game_work / STEPS_PER_SECOND


def _scope(key: str, edition: Edition, region: bool = False, choice=None) -> dict:
    scope = {"round": ROUND_CATEGORY, "game_end": GAME_END, "requires": REQUIRES, "qualifies": QUALIFIES,
             "award": AWARD, "until": UNTIL, "flow_end": FLOW_END}[key]
    extra = dict.fromkeys(edition.stocks, None) if key == "flow_end" else None
    return scope.checker_scope({}, choice=choice, region=region, extra=extra).variables


class _Edition:
    """One edition's expressions and what evaluating each costs."""

    def __init__(self, edition: Edition, bounds):
        self.edition, self.bounds = edition, bounds
        self.problems: list[Diagnostic] = []
        self.costliest: tuple = (0, None)  # (steps a hand's value spends in it, expression)

    def work(self, expression: Expression | None, scope: dict, times: int = 0) -> int:
        """One evaluation's steps at worst; times: how often valuing a hand evaluates it (to name the costliest)."""
        if expression is None or expression.tree is None:
            return 0
        node, resolved, _ = expression.tree
        steps = worst_case(node, self.bounds, scope, resolved)[0]
        if steps * times > self.costliest[0]:
            self.costliest = (steps * times, expression)
        return steps

    def where(self, expression: Expression):
        """The span of a whole expression."""
        node = expression.tree[0]
        return expression.locate(node.start, node.end) if expression.locate is not None else None

    def largest(self, expression: Expression | None, scope: dict, numbers: dict, when: str = "") -> int:
        """The largest number expression gives with these variables; a problem where it passes MAX_NUMBER."""
        if expression is None or expression.tree is None:
            return 0
        node, resolved, _ = expression.tree
        value, where = largest_number(node, self.bounds, scope, resolved, numbers)
        if where is not None and expression.locate is not None:
            self.problems.append(Diagnostic(
                expression.locate(where.start, where.end),
                f"this can reach {value:,}{when}, more than {MAX_NUMBER:,}, the largest number a game keeps",
                "D212",
                hint="a sum of large numbers, or points that grow round after round from `previous`",
            ))
            return MAX_NUMBER
        return value


def guarantee(edition: Edition, bounds, where) -> tuple[Guarantee, list[Diagnostic]]:
    """The edition's guarantee, and a problem for every limit it is over. where(path) -> the span of a
    key of the edition, to place a problem about the whole game."""
    counted = _Edition(edition, bounds)
    _numbers(counted)
    found = _drafting(counted) if drafts(edition) else _flow(counted)
    problems = counted.problems
    bidding = edition.round.step(Bidding)
    path = ("stocks", bidding.stock) if bidding is not None else ("rounds",)   # what makes a game long
    if found.decisions > MAX_GAME_DECISIONS:
        problems.append(Diagnostic(
            where(path),
            f"a game of this edition can take up to {found.decisions:,} decisions, more than the limit of "
            f"{MAX_GAME_DECISIONS:,} (a saved game holds them all)",
            "M350",
            hint="fewer rounds, players, cards a hand or tokens a seat (docs/limits.md, the per-game guarantee)",
        ))
    if found.game_work > MAX_GAME_WORK:
        spent, costliest = counted.costliest
        here = where(path) if bidding is not None or costliest is None else counted.where(costliest)
        share = f", {spent:,} of them here" if bidding is None and costliest is not None else ""
        problems.append(Diagnostic(
            here,
            f"a game of greedy bots can take up to {found.game_work:,} evaluation steps (about "
            f"{_duration(found.seconds)} on one core), more than the limit of {MAX_GAME_WORK:,} (about a minute)",
            "M351",
            hint=f"valuing one hand takes up to {found.value_work:,} steps{share}; cheaper categories, fewer of "
            "them, or fewer rounds, players or cards a hand (docs/limits.md, the per-game guarantee)",
        ))
    return found, problems


def evaluation_steps(edition: Edition) -> dict:
    """id(expression) -> the steps of one evaluation of it at worst, for every expression of the edition
    (what the guarantee multiplies; a test counts a game's evaluations with it)."""
    counted, out = _Edition(edition, edition.language.bounds), {}
    regions = {"region": True}
    for category in scored_categories(edition):
        kind = ("round" if category.when == ROUND else "game_end") if drafts(edition) else "flow_end"
        out[id(category.score)] = counted.work(category.score, _scope(kind, edition))
        if category.choice is not None and category.choice.requires is not None:
            requires = category.choice.requires
            out[id(requires)] = counted.work(requires, _scope("requires", edition, choice=IconType(None)))
    for race in edition.races:
        out[id(race.qualifies)] = counted.work(race.qualifies, _scope("qualifies", edition, **regions))
        out[id(race.award)] = counted.work(race.award, _scope("award", edition, **regions))
    reveal = edition.round.step(Reveal)
    if reveal is not None:
        out[id(reveal.until)] = counted.work(reveal.until, _scope("until", edition))
    return out


def drafts(edition: Edition) -> bool:
    """A round of drafting (its picks scored each round) rather than one that claims from a circle (scored
    from what seats hold at game end): the two cost models below."""
    return edition.round.step(PickAndPass) is not None


def rounds_of(edition: Edition) -> int:
    """The most rounds of a game: `end: {rounds: N}`, or a round that turns a card of the deck up, or takes
    back the circle's cards taken the round before, until the deck is empty: at most 2 x deck + 1."""
    flow = edition.round
    return flow.rounds if flow.rounds is not None else 2 * len(edition.cards) + 1


def decisions_a_round(edition: Edition) -> int:
    """The most decisions one round asks the table: what each of its blocks declares (edition/steps.py)."""
    deal = edition.round.step(Deal)
    hand = deal.cards if deal is not None else 0
    return sum(step.most_decisions(edition, edition.players_max, hand) for step in edition.round.steps)


def _duration(seconds: float) -> str:
    for unit, size in (("days", 86_400), ("hours", 3_600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:,.0f} seconds"


def _icons(category) -> int:
    return len(category.choice.family.icons) if category.choice is not None else 1


def _drafting(counted: _Edition) -> Guarantee:
    edition = counted.edition
    players, rounds, hand = edition.players_max, rounds_of(edition), edition.round.step(Deal).cards
    regions = len(edition.regions)
    own = {"round": _scope("round", edition), "game_end": _scope("game_end", edition),
           "requires": _scope("requires", edition, choice=IconType(None)),
           "qualifies": _scope("qualifies", edition, region=True), "award": _scope("award", edition, region=True)}
    value = 0   # one hand: what seat_value evaluates
    choices = 0  # one round's choices of one seat: every icon of every choice category
    for category in scored_categories(edition):
        if category.when == ROUND:
            icons = _icons(category)
            each = counted.work(category.score, own["round"], icons)
            each += counted.work(category.choice.requires if category.choice else None, own["requires"], icons)
            value += each * icons
            choices += each * icons if category.choice is not None else 0
        else:
            value += counted.work(category.score, own["game_end"], 1)
    awards = 0
    for race in edition.races:
        times = regions if race.each == "region" else 1
        value += counted.work(race.qualifies, own["qualifies"], times) * times
        awards += counted.work(race.award, own["award"]) * times
    sheet_round = players * value + awards  # the score sheet's round, every seat
    typical = TYPICAL_TRIALS * choices      # once per choice category and game
    samples, completions = GREEDY_SAMPLES, GREEDY_COMPLETIONS
    per_world = max(hand * value, 1)
    if samples * completions * per_world > DECISION_WORK:   # fewer worlds, so a decision stays within
        allowed = max(1, DECISION_WORK // per_world)
        completions = min(completions, allowed)
        samples = max(1, min(samples, allowed // completions))
    picks = hand * (hand + 1) // 2    # options over one round's picks of one seat
    seat_round = samples * completions * picks * value + choices
    # every round: each seat's decisions, the sheet, and a standing worked out again from the sheet so far
    game = rounds * players * seat_round + rounds * sheet_round + rounds * (rounds + 1) // 2 * sheet_round + typical
    decision = samples * completions * hand * value
    return Guarantee(rounds * decisions_a_round(edition), value, samples, completions, decision, game)


def _flow(counted: _Edition) -> Guarantee:
    """A flow's round: reveal, secret choice, bidding, claim. A round takes a card from the deck, or
    the circle's cards taken the round before, so a game has at most 2 x deck + 1 rounds; a bidding
    round at most every token of every seat thrown once, and each seat's stop."""
    edition, bounds = counted.edition, counted.bounds
    players, deck = edition.players_max, len(edition.cards)
    rounds = rounds_of(edition)
    bidding, secret = edition.round.step(Bidding), edition.round.step(SecretChoice)
    tokens = edition.stocks.get(bidding.stock, 0) if bidding is not None else 0
    icons = len(secret.family.icons) if secret is not None else 1
    end = _scope("flow_end", edition)
    majority = deck * bounds.icons_per_card
    margin = players * (sum(counted.work(c.score, end) for c in edition.categories) + majority)
    reveal_step = edition.round.step(Reveal)
    until = reveal_step.until if reveal_step is not None else None
    reveal = (deck + rounds) * counted.work(until, _scope("until", edition))
    decision = (icons + 1) * margin
    # a round: every seat's secret choice weighs each icon (and the margin without it); the table's bids, every
    # token thrown once and a stop a seat (players x (tokens + 1): Bidding.most_decisions), weigh two margins each
    game = rounds * players * ((icons + 1) + 2 * (tokens + 1)) * margin + reveal
    return Guarantee(rounds * decisions_a_round(edition), margin, GREEDY_SAMPLES, GREEDY_COMPLETIONS, decision, game)


def _numbers(counted: _Edition) -> None:
    """Bound every number of every expression, round after round; a problem where one passes MAX_NUMBER."""
    edition = counted.edition
    players, rounds = edition.players_max, max(rounds_of(edition), 1)
    regions = len(edition.regions)
    game = {"players": players, "round": rounds, "rounds": rounds, "place": max(players, rounds), "standing": players,
            "sharing": players, **{f"options.{option.key}": max(abs(option.minimum), abs(option.maximum))
                                   for option in edition.seat_options}}
    if not drafts(edition):
        tokens = players * max(edition.stocks.values(), default=0)   # every token in one seat's hands
        end = _scope("flow_end", edition)
        for category in edition.categories:
            counted.largest(category.score, end, dict(game, **dict.fromkeys(edition.stocks, tokens)))
        reveal = edition.round.step(Reveal)
        counted.largest(reveal.until if reveal is not None else None, _scope("until", edition), game)
        return
    round_categories = [c for c in edition.categories if c.when == ROUND]
    requires = _scope("requires", edition, choice=IconType(None))
    for category in round_categories:
        counted.largest(category.choice.requires if category.choice else None, requires, dict(game, previous=0))
    scope, award = _scope("round", edition), _scope("award", edition, region=True)
    for race in edition.races:
        counted.largest(race.qualifies, _scope("qualifies", edition, region=True), game)
    races = {race.key: counted.largest(race.award, award, game) * (regions if race.each == "region" else 1)
             for race in edition.races}
    # round after round: `previous` is a line's points the round before, the sheet so far (round_totals, totals,
    # lines.KEY) what the rounds before gave at most; a problem once, where a number first passes MAX_NUMBER
    most = dict.fromkeys((c.key for c in round_categories), 0) | races
    best_round, so_far = 0, 0
    for number in range(1, rounds + 1):
        if counted.problems:
            return
        sheet = dict(game, round_totals=best_round, totals=so_far, **{f"lines.{key}": v for key, v in most.items()})
        points = {c.key: counted.largest(c.score, scope, dict(sheet, previous=most[c.key]),
                                         f" in round {number}" if number > 1 else "") for c in round_categories}
        this_round = min(sum(points[c.key] for c in round_categories if c.counts) + sum(races.values()), MAX_NUMBER)
        grown = any(points[key] > most[key] for key in points)
        most.update((key, max(most[key], value)) for key, value in points.items())
        best_round, so_far = max(best_round, this_round), min(so_far + this_round, MAX_NUMBER)
        if not grown and not _reads_sheet(round_categories):   # the same from now on
            break
    if counted.problems:
        return
    at_end = dict(game, round_totals=best_round, totals=so_far, **{f"lines.{key}": v for key, v in most.items()})
    for category in scored_categories(edition):
        if category.when != ROUND:
            counted.largest(category.score, _scope("game_end", edition), at_end)


def _reads_sheet(categories) -> bool:
    """Some of these read the sheet so far, which grows every round."""
    sheet = {"round_totals", "totals", "lines", "standing"}
    return any(c.score is not None and sheet & set(c.score.variables) for c in categories)
