"""The information-set search bot ("ismcts"): a tree of this seat's own picks over sampled worlds, valued for the game.

Method: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012). Every iteration
samples one world consistent with the seat's view (determinize.from_view: its hand and Throw, every
face-up card, the hands it passed on, the cards undealt last round) and walks the tree in that
world. The tree holds only this seat's decisions; the other seats are modelled by the greedy policy
(the paper's "opponent model" reading of the seats it does not search), which is what they play in
the ladder's matches and is cheap to remember across worlds (playouts.RoundPlayouts). A node is
this seat's sequence of picks this round, not the hand it was handed: worlds differ in that hand,
so a child is a card, and the cards a world's hand offers are the node's available children. The
selection rule is UCB1 with the availability count in place of the parent's visits (the paper's
subset-armed bandit), so a card rarely in hand is not starved of trials. One node is added an
iteration; below it the seat plays the greedy policy too, to the end of the round.

The round's end is valued for the whole game, not for the round: each seat's total after the round
(the sheet so far, the round's categories and races, the game-end categories on its visited cards)
and the rounds still to come, whose points are modelled as independent draws of a spread fitted
once per edition and player count (the standard deviation of what a random hand adds to a seat:
_round_spread). The value is then the chance that this seat finishes ahead of every rival, a
normal approximation over those rounds (exact in the last round: a win, a shared win, or none).
Maximising it rather than a points margin is what the ladder measures: the share of games won.
It keeps no state between decisions; its randomness comes from decision_rng, so a game with an
iteration budget replays exactly. `think` (milliseconds a decision) stops the search at a deadline
instead, counted from the moment the decision is asked: not reproducible, so never the default.

Rounds of claims and bids (the 2010 game) have no drafting tree: there the bot is the claims search
(claims.search_answer) with this bot's budget as its rollouts; a discard is the greedy bot's. Strength: see the ladder
report in docs/bots.md (the figures, their dates and numbers of games).
"""

from __future__ import annotations

import math
import random
import time

from .. import collector
from ..dsl.meter import aside
from ..edition.model import Edition
from ..game.blocks import round_plan
from ..game.scoring import ScoreKeeper
from .allowance import SEARCH_STEPS, Allowance, Spent, steps_option
from .choices import planned_choice
from .evaluate import Standing, card_list, seat_value, standing_from_scores, standing_from_view
from .greedy import GreedyAgent, best_choice, decide_searching
from .playouts import RoundPlayouts
from .rivals import SampledRivals, card_worth
from .search import margin, win_share
from .seeding import STEP_SEEDS

DEFAULT_ITERATIONS = 400   # see docs/bots.md for its cost a pick and its strength
EXPLORATION = 0.7          # UCB1's constant, on values scaled to the range seen so far
_SQRT2 = math.sqrt(2.0)
PRIOR_SAMPLES, PRIOR_COMPLETIONS = 24, 6   # the prior's greedy estimate: the blend bot's worlds and orders
RIVALS = ("one-ply", "sampled", "drawn", "ranked")   # the other seats' model: the generated pick, or drawn (rivals.py)
FLOOR = 0.25   # the final choice with a prior: among the root's cards visited at least this share of the most visited


class IsmctsAgent:
    """Information-set Monte Carlo tree search over this seat's picks, valued by its chance to win the game."""

    kind = "ismcts"
    lazy_view = True  # reads a few entries of the view: play() works out only those

    def __init__(
        self,
        seed: int = 0,
        edition: Edition | None = None,
        *,
        iterations: int | None = DEFAULT_ITERATIONS,
        think: float | None = None,
        value: str = "win",
        exploration: float = EXPLORATION,
        seeding: int = STEP_SEEDS,
        steps: int | None = SEARCH_STEPS,
        prior: float = 0.0,
        final: float = 0.0,
        samples: int = PRIOR_SAMPLES,
        completions: int = PRIOR_COMPLETIONS,
        rivals: str = "one-ply",
        plan: bool = False,
    ):
        if edition is None:
            raise ValueError("the ismcts bot needs the edition")
        if rivals not in RIVALS:
            raise ValueError(f"unknown rivals {rivals!r} ({' or '.join(RIVALS)})")
        if iterations is None and think is None:
            raise ValueError("the ismcts bot needs a budget: iterations, think (ms) or both")
        if value not in ("win", "margin"):
            raise ValueError(f"unknown value {value!r} (win or margin)")
        self.seed, self.edition, self.seeding = seed, edition, seeding
        self.iterations = None if iterations is None else max(1, iterations)
        self.think = think
        self.value = value
        self.rivals = rivals   # how the other seats are modelled: the one-ply pick, or drawn (rivals.SampledRivals)
        self.exploration = exploration
        self.steps = steps_option(steps)   # evaluation steps a decision may spend (allowance.py); None: no limit
        self.asks = round_plan(edition).asks   # decision kind -> what its block declares answering it does
        self.greedy = GreedyAgent(seed, edition)   # a discard; a decision whose steps ran out
        # the greedy estimate as a prior (guided.py): its weight in the root's selection (progressive bias), and in
        # the final choice (points of the estimate beside the root's mean margin); 0 and 0: the plain ismcts bot
        self.prior, self.final = prior, final
        # a once-per-game choice at a round's end: planned over the rounds left (choices.py), or the greedy bot's
        self.choose = planned_choice if plan else best_choice
        self.expected = GreedyAgent(seed, edition, samples=samples, completions=completions, seeding=seeding) \
            if prior or final else None

    def decide(self, view: dict, decision):
        deadline = time.perf_counter() + self.think / 1000 if self.think is not None else None
        return decide_searching(self, view, decision, self.iterations or DEFAULT_ITERATIONS,
                                lambda v, d, rng: self.values(v, d, rng, deadline))

    def values(self, view: dict, decision, rng: random.Random, deadline: float | None = None) -> dict:
        """letter -> visits of that pick at the root of the tree (the bot plays the most visited; a tie
        goes to the higher mean value, added as a fraction below one visit); the greedy bot's gains if the
        decision's steps were spent before the first iteration was over."""
        edition, me = self.edition, view["seat"]
        standing = standing_from_view(edition, view)
        playouts = RoundPlayouts(edition, view, standing, Allowance(self.steps, deadline))
        if self.rivals != "one-ply" and playouts.pickers is not None and playouts.icons is None:
            playouts.rivals = SampledRivals(card_worth(edition, standing.players), rng, self.rivals)
        options = card_list(edition, decision.options)
        worth = _Worth(standing, me, self.value, self.win_points(standing) if self.final else None)
        expected = self.expected.gains(view, decision, rng) if self.expected is not None else None
        worth.bias = _bias(expected, options, self.prior) if self.prior else None
        root: dict = {}
        done = 0
        with collector.paused():   # the memos of the decision's picks: many tuples, no cycle (collector.py)
            while self.iterations is None or done < self.iterations:
                if deadline is not None and done and time.perf_counter() >= deadline:
                    break
                try:
                    self._iterate(root, playouts, options, me, worth, rng)
                except Spent:
                    break   # the decision has spent its steps: the iteration under way added no value to the tree
                done += 1
            playouts.memo.clear()
            playouts.known.clear()
        if not done:
            return expected if expected is not None else self.greedy.gains(view, decision, rng)
        if self.final:
            return _final(root, expected, self.final)
        return {
            card.letter: stats[0] + stats[1] / stats[0] / 2
            for card, stats in root.items() if stats[0]   # (a card first met in a dropped iteration has none)
        }

    def win_points(self, standing: Standing) -> float:
        """Points a win is worth beside the margin in the final choice's mean (the blend bot's WIN): in the game's
        last round only."""
        from .blend import WIN

        return WIN if standing.round == round_plan(self.edition).rounds else 0.0

    def _iterate(self, root: dict, playouts: RoundPlayouts, options: list, me: int, worth, rng) -> None:
        """One iteration: a sampled world, down the tree by UCB1 over the cards in hand, one node
        added, the greedy policy below it, and the value of the round's end added along the path."""
        play = playouts.sample(rng)
        node, path, available = root, [], options
        while not play.over:
            hand = play.hands[me]
            card = None   # below the tree: the greedy policy's
            if node is not None and len(hand) > 1:
                card, stats = self._select(node, available, worth, rng, node is root)
                path.append(stats)
                node = stats[3] if stats[0] else None   # a node seen for the first time: rollout below
            play.step(playouts.picks(play, me, card))
            available = play.hands[me]
        gains = playouts.gains(play)
        value = worth.scaled(gains)
        for stats in path:
            stats[0] += 1
            stats[1] += value
        if worth.points is not None and path:
            path[0][4] += worth.in_points(gains)

    def _select(self, node: dict, available: list, worth, rng: random.Random, root: bool = False) -> tuple:
        """UCB1 with availability counts among the cards this world offers; an untried card first (at the root
        with a prior, the untried card of the best greedy estimate). With a prior, the root's score adds its
        progressive bias: the weight times the card's greedy estimate scaled to [0, 1] over the root's options,
        over its visits + 1 (Chaslot et al. 2008), so it leads the first visits and fades as they grow."""
        bias = worth.bias if root else None
        untried = [card for card in available if card not in node]
        if untried:
            if bias is not None:
                card = max(untried, key=bias.__getitem__)
            else:
                card = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            for other in available:
                if other in node:
                    node[other][2] += 1
            stats = node[card] = [0, 0.0, 1, {}, 0.0]
            return card, stats
        best, best_score = None, -math.inf
        scale = worth.range()
        for card in available:
            stats = node[card]
            stats[2] += 1
            mean = stats[1] / stats[0]
            score = (mean - worth.low) / scale + self.exploration * math.sqrt(math.log(stats[2]) / stats[0])
            if bias is not None:
                score += bias[card] / (stats[0] + 1)
            if score > best_score:
                best, best_score = card, score
        return best, node[best]


def _bias(expected: dict, options: list, weight: float) -> dict:
    """card -> its progressive bias at the root: the weight times its greedy estimate scaled to [0, 1] over the
    options (the best 1, the worst 0; all 0 where the estimates are equal), the scale of the tree's values."""
    gains = [expected[card.letter] for card in options]
    low, high = min(gains), max(gains)
    spread = high - low
    return {card: weight * (gain - low) / spread if spread > 0 else 0.0 for card, gain in zip(options, gains,
                                                                                          strict=True)}


def _final(root: dict, expected: dict, weight: float) -> dict:
    """letter -> the final choice's score with a prior: the card's mean in points over its visits (the blend bot's
    rollout value, _Worth.in_points) plus the weight times its greedy estimate, for the cards visited at least
    FLOOR times as often as the most visited (a card seldom visited has a mean too noisy to trust)."""
    most = max(stats[0] for stats in root.values())
    return {card.letter: stats[4] / stats[0] + weight * expected[card.letter]
            for card, stats in root.items() if stats[0] and stats[0] >= FLOOR * most}


class _Worth:
    """What the end of a round is worth to the searching seat: its chance to win the game (value "win")
    or its gain less the rivals' mean gain (value "margin"); and the range of the values seen so far,
    which scales them for UCB1."""

    def __init__(self, standing: Standing, me: int, value: str, win_points: float | None = None):
        self.me, self.value = me, value
        self.standing = standing
        # the final choice's points (margin, and win_points a win beside it) or None: not counted
        self.points = win_points
        self.bias: dict | None = None   # card -> its progressive bias at the root (a prior), or None
        self.before = [past.total + past.end_points for past in standing.seats]
        rounds_left = standing.edition.rounds - standing.round
        spread = _round_spread(standing.edition, standing.players) * math.sqrt(2 * rounds_left)
        self.spread = spread if rounds_left > 0 else 0.0
        self.low, self.high = math.inf, -math.inf

    def scaled(self, gains: list) -> float:
        value = self.win(gains) if self.value == "win" else self.margin(gains)
        self.low, self.high = min(self.low, value), max(self.high, value)
        return value

    def range(self) -> float:
        return self.high - self.low if self.high > self.low else 1.0

    def in_points(self, gains: list) -> float:
        """The round's end as the blend bot values a rollout: the search bot's margin, plus points for a win in the
        game's last round (search.win_share), both in points of this round."""
        value = margin(self.standing, self.me, gains)
        return value + self.points * win_share(self.standing, self.me, gains) if self.points else value

    def margin(self, gains: list) -> float:
        me, n = self.me, len(gains)
        return gains[me] - sum(g for seat, g in enumerate(gains) if seat != me) / (n - 1)

    def win(self, gains: list) -> float:
        """The chance this seat ends ahead of each rival (independent normal differences over the rounds
        left); in the last round, 1 for a win, 1/k for a win shared by k, 0 otherwise."""
        totals = [before + gain for before, gain in zip(self.before, gains, strict=True)]
        mine = totals[self.me]
        if not self.spread:
            best = max(totals)
            return 1 / totals.count(best) if mine == best else 0.0
        chance = 1.0
        for seat, total in enumerate(totals):
            if seat != self.me:
                chance *= 0.5 * (1 + math.erf((mine - total) / (self.spread * _SQRT2)))
        return chance


def _round_spread(edition: Edition, players: int) -> float:
    """The standard deviation of what a round adds to a seat, over random hands of the first round (a fixed,
    seeded estimate, made once per edition and player count and kept with the edition: Edition.kept): the
    hand-fitted scale of the rounds to come."""
    return edition.kept(("round spread", players), _measure_spread, edition, players)


def _measure_spread(edition: Edition, players: int) -> float:
    with aside():   # remembered for the edition: charged to no decision (dsl/meter.py)
        standing = standing_from_scores(edition, ScoreKeeper(edition, [str(i) for i in range(players)]))
        rng = random.Random(f"spread/{edition.id}/{players}")
        values = []
        for _ in range(300):
            dealt = rng.sample(edition.cards, min(len(edition.cards), players * edition.hand_size))
            hand, rest = dealt[: edition.hand_size], dealt[edition.hand_size :]
            values.append(seat_value(standing, 0, hand, _table(standing, hand, rest)))
    mean = sum(values) / len(values)
    return max(1.0, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)))


def _table(standing: Standing, hand: list, rest: list):
    """The other seats' cards of a random round as seat_value reads them (only if a category does)."""
    if not standing.shared:
        return ()
    from ..game.round_facts import others

    size = len(hand)
    drafts = [hand] + [rest[i : i + size] for i in range(0, len(rest), size)]
    return others(drafts, 0)
