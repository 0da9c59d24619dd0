"""The greedy bot: each decision maximises this seat's expected gain this round, nothing more.

It reads the edition's compiled categories, races and game-end categories through evaluate.py, so
it plays any edition or variant without edition-specific code. A pick is judged by completing the
round at random from the cards still in play (sampled consistently with the seat's view by
determinize.from_view) and averaging what the full round would add to the seat's total.
It keeps no state between decisions: all randomness comes from agents.decision_rng.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..dsl.meter import METER, aside
from ..edition.guarantee import DECISION_WORK, GREEDY_COMPLETIONS, GREEDY_SAMPLES
from ..edition.model import Edition
from ..edition.steps import BID, CLAIM, DECLARE, DISCARD, REDRAW, SCORE
from ..game.blocks import round_plan
from ..game.scoring import ScoreKeeper
from ..game.shuffling import shuffler
from . import claims
from .determinize import sampled_rounds
from .evaluate import (
    Standing,
    card_list,
    choice_points,
    face_up_cards,
    hand_values,
    standing_from_scores,
    standing_from_view,
)
from .mulligan import mulligan_answer
from .seeding import STEP_SEEDS, decision_rng

# the steps one decision may charge (dsl/meter.py) before it stops sampling worlds: what the edition's guarantee
# allows a decision, so it is reached only where an evaluation costs more than the work budget said
DECISION_STEPS = DECISION_WORK


@dataclass(frozen=True)
class Sample:
    """One guess at the cards of this round: those still in hands, and all dealt this round."""

    in_hands: tuple
    dealt: tuple


def sample_rounds(edition: Edition, view: dict, rng: random.Random, count: int) -> list[Sample]:
    """`count` guesses at the hidden cards of this round, consistent with what the seat has seen."""
    return [Sample(in_hands, dealt) for in_hands, dealt in sampled_rounds(edition, view, rng, count)]


def expected_gains(
    standing: Standing, seat: int, drafts: list, options: list, samples: list, rng: random.Random, completions: int = 1
) -> dict:
    """option -> mean gain of the round if the seat takes it now and the rest of its cards at random.

    Every option is completed with the same random orders (common random numbers), so the
    comparison between options is much less noisy than each value."""
    rest = cards_kept(standing.edition, standing.round - 1) - len(drafts) - 1
    count = 0
    values = hand_values(standing, seat)
    by_order, charges = values.order(drafts, options, rest), values.charges
    sums = [0.0] * len(options)  # option by option, as totals
    start = METER.spent if charges else 0   # (a thread's meter read costs 0.13% of a greedy game: only if charged)
    for sample in samples:
        shuffled = shuffler(rng, len(sample.in_hands))
        heads = []
        for _ in range(completions):
            order = list(sample.in_hands)
            shuffled(order)
            heads.append(order[: rest + 1])
        count += completions
        by_order(sums, heads, sample.dealt)   # the orders of a world valued in one call, added in the same order
        if charges and METER.spent - start > DECISION_STEPS:
            break   # the decision has spent its steps (an evaluation costlier than its edition's guarantee said)
    return {card: total / max(count, 1) for card, total in zip(options, sums, strict=True)}


def cards_kept(edition: Edition, round_index: int) -> int:
    """How many cards a seat keeps in this round (0-based): the hand dealt, less what the round discards."""
    return edition.round.kept(round_index)


def choice_reserve(standing: Standing, category) -> float:
    """What keeping a once-per-game icon for a later round is worth: nothing in the last round."""
    if not category.choice.once_per_game or standing.round >= standing.edition.rounds:
        return 0.0
    return typical_points(standing.edition, category, standing.players)


def typical_points(edition: Edition, category, players: int) -> float:
    """The mean of the best legal icon's points over random hands: a fixed, seeded estimate, worked out
    once per edition, category and player count."""
    typical = edition.kept("typical choice points", dict)
    key = (category.key, players)
    if key not in typical:
        total, rounds = 0.0, random_choice_points(edition, category, players, "typical", 200)
        for points in rounds:
            positive = sorted((p for p in points.values() if p > 0), reverse=True)
            total += sum(positive) / len(positive) if positive else 0.0
        typical[key] = total / len(rounds)
    return typical[key]


def random_choice_points(edition: Edition, category, players: int, purpose: str, hands: int) -> list:
    """icon -> points of every legal icon of a choice category, for seat 0 of `hands` seeded random first-round
    deals (the generator named by `purpose`, the edition, the category and the player count): the random rounds
    the reserve (typical_points) and the planned choices (choices.py) estimate a round by. Charged to no decision."""
    with aside():   # remembered for the edition by the callers (dsl/meter.py)
        standing = standing_from_scores(edition, ScoreKeeper(edition, [str(i) for i in range(players)]))
        rng = random.Random(f"{purpose}/{edition.id}/{category.key}/{players}")
        rounds = []
        for _ in range(hands):
            dealt = rng.sample(edition.cards, min(len(edition.cards), players * edition.hand_size))
            rounds.append(choice_points(standing, 0, category, dealt[: edition.hand_size], dealt[edition.hand_size :]))
    return rounds


def best_choice(edition: Edition, view: dict, decision):
    """The icon that scores most now, net of what keeping it for a later round is worth; or None."""
    standing = standing_from_view(edition, view)
    seat = view["seat"]
    category = next(c for c in edition.choice_categories if c.key == decision.category)
    points = choice_points(standing, seat, category, *face_up_cards(edition, view))
    reserve = choice_reserve(standing, category)
    best, best_value = None, 0.0
    for icon in decision.options:
        if icon is None or icon not in points or points[icon] <= 0:
            continue
        value = points[icon] - reserve
        if best is None or value > best_value:
            best, best_value = icon, value
    if best is None or best_value < 0:
        return None
    return best


def decide_by_value(agent, view: dict, decision, values, effect: str) -> object:
    """How the greedy and search bots answer: a choice as best_choice takes it, a single option at
    once, else the option with the highest value(view, decision, rng) among those it valued; a discard,
    the card whose taking is worth least to the seat (effect: what the decision's block declares answering
    it does, which the caller has read)."""
    if effect == SCORE:   # an agent may plan its choices (choices.planned_choice); else the best now, net of a reserve
        return getattr(agent, "choose", best_choice)(agent.edition, view, decision)
    if len(decision.options) == 1:
        return decision.options[0]
    valued = values(view, decision, decision_rng(agent.seed, view, decision, agent.seeding, agent.edition))
    best = min if effect == DISCARD else max
    return best((letter for letter in decision.options if letter in valued), key=lambda letter: valued[letter])


def decide_searching(agent, view: dict, decision, budget: int, values) -> object:
    """How the searching bots (search, blend, ismcts, guided) answer: a mulligan, as mulligan.py answers it; a claim,
    bid or declaration by claims.search_answer with the bot's `budget` (rollouts or iterations); a discard as the
    greedy bot discards (`agent.greedy`: a card leaving the hand is what every rollout would take anyway); any
    other decision by `values` (decide_by_value). One dispatch, so a new effect is taught to all of them at once."""
    effect = agent.asks[decision.kind].effect
    if effect == REDRAW:
        return mulligan_answer(agent.edition, view, decision)
    if effect in (CLAIM, BID, DECLARE):
        rng = decision_rng(agent.seed, view, decision, agent.seeding, agent.edition)
        return claims.search_answer(agent.edition, view, decision, rng, budget, agent.steps)
    if effect == DISCARD:
        return decide_by_value(agent, view, decision, agent.greedy.gains, effect)
    return decide_by_value(agent, view, decision, values, effect)


def my_drafts(edition: Edition, view: dict) -> list:
    """The cards this seat has taken this round, Throw first."""
    throw = view.get("throw")
    return ([edition.card(throw)] if throw else []) + face_up_cards(edition, view)[0]


class GreedyAgent:
    """Maximises this seat's expected round gain over random completions of its round."""

    kind = "greedy"
    lazy_view = True  # reads a few entries of the view: play() works out only those

    def __init__(
        self,
        seed: int = 0,
        edition: Edition | None = None,
        *,
        samples: int = 6,
        completions: int = 3,
        seeding: int = STEP_SEEDS,
    ):
        if edition is None:
            raise ValueError("the greedy bot needs the edition")
        self.seed = seed
        self.seeding = seeding
        self.edition = edition
        self.samples = samples
        self.completions = completions
        self.asks = round_plan(edition).asks   # decision kind -> what its block declares answering it does

    def decide(self, view: dict, decision):
        effect = self.asks[decision.kind].effect
        if effect == REDRAW:
            return mulligan_answer(self.edition, view, decision)
        if effect in (CLAIM, BID, DECLARE):
            rng = decision_rng(self.seed, view, decision, self.seeding, self.edition)
            return claims.greedy_answer(self.edition, view, decision, rng)
        return decide_by_value(self, view, decision, self.gains, effect)

    def gains(self, view: dict, decision, rng: random.Random) -> dict:
        """letter -> expected gain of taking that card now (what the `?` help calls 'expected')."""
        edition = self.edition
        standing = standing_from_view(edition, view)
        worlds, completions = self.samples, self.completions
        allowed = edition.guarantee
        if allowed is not None and (allowed.samples, allowed.completions) != (GREEDY_SAMPLES, GREEDY_COMPLETIONS):
            # an edition whose one evaluation is expensive (its guarantee lowered the greedy bot's worlds): no more
            # worlds a decision than that; elsewhere a bot that asks for more (the blend bot's 24 x 6) gets them
            worlds, completions = min(worlds, allowed.samples), min(completions, allowed.completions)
        samples = sample_rounds(edition, view, rng, worlds)
        options = card_list(edition, decision.options)
        gains = expected_gains(standing, view["seat"], my_drafts(edition, view), options, samples, rng, completions)
        return {card.letter: gain for card, gain in gains.items()}
