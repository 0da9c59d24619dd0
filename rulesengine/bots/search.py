"""The search bot: information-set Monte Carlo over the cards this seat cannot see.

For a draft or Throw decision it samples worlds consistent with its view (determinize.from_view:
the other Throws, the hands that have not reached it, the undealt cards), plays each option out to
the end of the round in every sampled world with greedy (or random) bots at every seat, and takes
the option with the best mean value: its own gain less its rivals' (see margin). Only the greedy
bot's few favourite options are searched (`width`), so the budget goes where it can matter.
Every option meets the same worlds and the same rollout randomness, so options are compared on
equal terms. The worlds and rollouts are a backend's (backend.py): by default array lanes (lanes.py: every world
and option of a decision at once in numpy) where the edition, the install and the budget allow, else compiled, the
engine's parts as their oracle, the same numbers every way; rollouts_used says what played the last decision's.
Choices at round end are taken as the greedy bot takes them: every card is face up by then.
It keeps no state between decisions; its randomness comes from decision_rng, so a game with a
rollout budget replays exactly (a time budget does not: how far it gets depends on the machine).
"""

from __future__ import annotations

import random
import time

from ..edition.model import Edition
from ..game.blocks import round_plan
from .allowance import SEARCH_STEPS, Allowance, Spent, steps_option
from .backend import BACKENDS
from .evaluate import Standing, card_list, standing_from_view
from .greedy import GreedyAgent, decide_searching
from .registry import DEFAULT_ROLLOUTS
from .seeding import STEP_SEEDS


def margin(standing: Standing, seat: int, gains: list, rivals: str = "auto") -> float:
    """What the search maximises: this seat's gain from the round, less some of its rivals' gains.

    "none": its own gain; "max": its total less the strongest rival's; "auto": its gain less the
    rivals' mean gain over (players - 1), which is the full margin with two players and little more
    than its own gain with four (measured: denying three rivals rarely pays, denying one does)."""
    n = len(gains)
    if rivals == "none" or n == 1:
        return gains[seat]
    others = [g for s, g in enumerate(gains) if s != seat]
    if rivals == "max":
        totals = [past.total + past.end_points + gain for past, gain in zip(standing.seats, gains, strict=True)]
        return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return gains[seat] - sum(others) / (n - 1) / (n - 1)


def win_share(standing: Standing, seat: int, gains: list) -> float:
    """In the game's last round, this seat's share of the win once the round's gains are added to the
    sheet so far and the game-end categories (1, 1/k for a win shared by k, else 0); 0 in an earlier round
    or in a game whose number of rounds is not fixed. (A tie broken by the edition's rule counts shared.)"""
    if standing.round != round_plan(standing.edition).rounds:
        return 0.0
    totals = [past.total + past.end_points + gain for past, gain in zip(standing.seats, gains, strict=True)]
    best = max(totals)
    return 1 / totals.count(best) if totals[seat] == best else 0.0


class SearchAgent:
    """Flat Monte Carlo over determinised worlds with greedy rollouts to the end of the round."""

    kind = "search"
    lazy_view = True  # reads a few entries of the view: play() works out only those

    def __init__(
        self,
        seed: int = 0,
        edition: Edition | None = None,
        *,
        rollouts: int | None = DEFAULT_ROLLOUTS,
        seconds: float | None = None,
        policy: str = "greedy",
        completions: int = 0,
        rivals: str = "auto",
        width: int | None = 4,
        seeding: int = STEP_SEEDS,
        steps: int | None = SEARCH_STEPS,
        win: float = 0.0,
        rollouts_by: str = "lanes",
    ):
        if edition is None:
            raise ValueError("the search bot needs the edition")
        if rollouts_by not in BACKENDS:
            raise ValueError(f"unknown rollout backend {rollouts_by!r} ({' or '.join(BACKENDS)})")
        if rivals not in ("auto", "none", "max"):
            raise ValueError(f"unknown rivals {rivals!r} (auto, none or max)")
        if policy not in ("greedy", "random"):
            raise ValueError(f"unknown rollout policy {policy!r} (greedy or random)")
        self.seed = seed
        self.seeding = seeding
        self.edition = edition
        if rollouts is None and seconds is None:
            raise ValueError("the search bot needs a budget: rollouts, seconds or both")
        self.rollouts = None if rollouts is None else max(1, rollouts)
        self.seconds = seconds
        self.policy = policy
        self.completions = completions
        self.rivals = rivals
        self.width = width
        self.rollouts_by = rollouts_by   # backend.py: "lanes" (or "compiled" where none), "compiled", or "engine" (the
        # oracle): the same numbers
        self.rollouts_used = None   # what played the last decision's rollouts: its backend's `by` (lanes: or why not)
        self.steps = steps_option(steps)   # evaluation steps a decision may spend (allowance.py); None: no limit
        self.win = win   # points a win in the last round is worth beside the margin (win_share); 0: none
        self.asks = round_plan(edition).asks   # decision kind -> what its block declares answering it does
        self.greedy = GreedyAgent(seed, edition)   # a discard; a decision whose steps ran out
        self.favourites = GreedyAgent(seed, edition, samples=2, completions=3)   # which `width` options are searched

    def decide(self, view: dict, decision):
        return decide_searching(self, view, decision, self.rollouts or DEFAULT_ROLLOUTS, self.values)

    def values(self, view: dict, decision, rng: random.Random) -> dict:
        """letter -> mean margin after the round over the sampled worlds, for the options searched; the
        greedy bot's gains if the decision's steps were spent before one world was played out."""
        searched = self.searched(view, decision, rng)
        return searched or self.greedy.gains(view, decision, rng)

    def searched(self, view: dict, decision, rng: random.Random, deadline: float | None = None) -> dict:
        """letter -> mean margin after the round over the sampled worlds, for the options searched:
        with more options than `width`, only the greedy bot's `width` favourites get the budget. Empty if
        the decision's steps (`steps`) were spent before the first world was played out with every option.
        deadline: the time.perf_counter() it stops at (by default `seconds` from now), checked at every pick: the
        world under way when it passes is dropped (allowance.py)."""
        if deadline is None and self.seconds is not None:
            deadline = time.perf_counter() + self.seconds  # before any work
        allowance = Allowance(self.steps, deadline)
        edition, seat = self.edition, view["seat"]
        standing = standing_from_view(edition, view)
        options = card_list(edition, decision.options)
        if self.width and len(options) > self.width:
            gains = self.favourites.gains(view, decision, rng)
            options = sorted(options, key=lambda card: -gains[card.letter])[: self.width]
        totals = dict.fromkeys(options, 0.0)
        win = self.win if self.win and standing.round == round_plan(edition).rounds else 0.0
        by = self.rollouts_by
        if by == "lanes" and deadline is not None:
            # the lanes play a decision's worlds at once, not one by one to a deadline; nor are they made (numpy's
            # import and the lanes' compiling put a first pick with --think 50 at 345 ms)
            by = "compiled"
        backend = BACKENDS[by](edition, view, standing, allowance, self.policy, self.completions)
        worlds = max(1, self.rollouts // len(options)) if self.rollouts is not None else None
        played = 0
        at_once = worlds is not None and deadline is None and backend.all_at_once   # the worlds drawn first, alike
        if by == self.rollouts_by:
            self.rollouts_used = backend.by
        else:
            self.rollouts_used = "compiled (a time budget: the worlds played one by one)"
        with backend.playing():
            if at_once:
                try:
                    every = backend.play_all(rng, worlds, seat, options)
                except Spent:
                    every = []   # (spent before the first world's first pick, as the loop below stops)
                for gains_list in every:
                    margins = [self.worth(standing, seat, win, gains) for gains in gains_list]
                    for card, value in zip(options, margins, strict=True):
                        totals[card] += value
                    played += 1
                worlds = played
            while worlds is None or played < worlds:
                if deadline is not None and played and time.perf_counter() >= deadline:
                    break
                world = backend.world(rng)
                rollout_seed = rng.randrange(2**31)
                try:
                    margins = [self.worth(standing, seat, win, gains)
                               for gains in backend.play(world, seat, options, rollout_seed)]
                except Spent:
                    break   # the decision has spent its steps: the world under way is dropped
                for card, value in zip(options, margins, strict=True):
                    totals[card] += value
                played += 1
        return {card.letter: total / played for card, total in totals.items()} if played else {}

    def worth(self, standing: Standing, seat: int, win: float, gains: list) -> float:
        """What one rollout's end of round is worth: the margin, plus `win` points times this seat's share of
        the win (win is 0 before the game's last round)."""
        value = margin(standing, seat, gains, self.rivals)
        return value + win * win_share(standing, seat, gains) if win else value
