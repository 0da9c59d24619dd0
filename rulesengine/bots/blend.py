"""The blend bot: the search bot's rollouts over every option, plus the greedy bot's expectation, low-noise.

Two estimates of what a pick is worth, each blind where the other sees:
- the search bot's (flat Monte Carlo over sampled worlds, greedy rollouts to the end of the round:
  search.SearchAgent.values) models the other seats: which cards they take before a hand comes back,
  which come back, the Catch. But after its pick the seat plays the one-card greedy model too, which
  never starts a pair or a set: a first Koala is worth only what chance makes of it.
- the greedy bot's (greedy.GreedyAgent.gains: the round completed at random from the cards in hands)
  values a partial set by what it may become, but takes every card in play as equally likely to reach it.
The bot plays the best sum of the two, both in points of this round (the search's is the margin over
the rivals: search.margin). The literature's name for it is progressive bias (Chaslot, Winands, van den
Herik, Uiterwijk and Bouzy, "Progressive strategies for Monte-Carlo tree search", New Mathematics and
Natural Computation 4(3), 2008): a heuristic value added to the search's own. In a flat search each
option gets the same budget, so the bias does not fade with visits: a fixed sum. The worlds are
determinized as for the search bot (Cowling, Powley and Whitehouse's determinization: every card the
seat has seen kept, determinize.from_view), and every option is searched (no width), measured better.

Why the greedy estimate is taken with 24 worlds of 6 orders (the greedy bot takes 6 of 3): its noise
costs wins. Measured against three greedy bots in 4-player Australia, 400 games each (2026-11-26):
the greedy bot with 24 x 6 won 32.2% (27.9-37.0%), with 1 x 1 2.0% (1.0-3.9%), with 100 x 10 33.1%
(28.7-37.9%): less noise, up to the greedy model's own limit. The search bot alone: 34.2% (29.8-39.0%)
of 400. The blend: see docs/bots.md (the figures, their dates and numbers of games).
In the game's last round a rollout is worth its margin plus 30 points times the seat's share of the win
(search.win_share: the sheet so far, the game-end categories and the round's gains of that world): the
ladder counts wins, not points, and in the last round a world says exactly who wins. Monte Carlo tree search
usually rewards a play-out by the game's result (loss, draw, win); Pepels, Tak, Lanctot and Winands
("Quality-based rewards for Monte-Carlo tree search simulations", ECAI 2014) add to it a domain assessment of
the play-out's end, which tells apart the moves whose results are alike: here the margin is that
assessment, and the win is weighed beside it. Earlier rounds keep the margin alone: a normal approximation
of the chance to win over the rounds left (as the ismcts bot values a round) added in the third round too was
no better in a screening (docs/bots.md).
It keeps no state between decisions; its randomness comes from decision_rng (the search's worlds first,
then the greedy's, from one generator), so a game with a rollout budget replays exactly; a time budget
(`seconds`, --think) is the whole decision's (the greedy estimate first, then the search to the deadline),
and is not reproducible.
"""

from __future__ import annotations

import random
import time

from ..edition.model import Edition
from .allowance import SEARCH_STEPS
from .evaluate import reads_the_table
from .greedy import GreedyAgent
from .registry import DEFAULT_ROLLOUTS
from .search import SearchAgent
from .seeding import STEP_SEEDS

SAMPLES, COMPLETIONS = 24, 6   # the greedy estimate's worlds and orders a world (see the docstring)
# its rollouts where none is asked: the search bot's 160, or 100 in an edition whose every evaluation reads the other
# seats' cards (Europe: 69.1 ms a pick at 160, over the 50 ms a pick the issue allows; see edition_rollouts)
TABLE_ROLLOUTS = 100
EDITION = "edition"   # rollouts=EDITION: edition_rollouts(edition)
WIN = 30.0   # points a win is worth in the last round beside the margin (search.win_share; docs/bots.md)


def edition_rollouts(edition: Edition) -> int:
    """The blend's rollouts for this edition: in Europe a rollout costs about 2.4 times Australia's (its National
    Treasures read the other seats' cards, worked out again for every hand: evaluate.seat_value), so the same
    160 rollouts took 69.1 ms of CPU a pick against 28.9 (2026-11-27); 100 bring it near Australia's time."""
    return TABLE_ROLLOUTS if reads_the_table(edition) else DEFAULT_ROLLOUTS


class BlendAgent(SearchAgent):
    """The search bot's margin over every option plus the greedy bot's expected gain, in points."""

    kind = "blend"

    def __init__(
        self,
        seed: int = 0,
        edition: Edition | None = None,
        *,
        rollouts: int | str | None = EDITION,
        seconds: float | None = None,
        samples: int = SAMPLES,
        completions: int = COMPLETIONS,
        seeding: int = STEP_SEEDS,
        steps: int | None = SEARCH_STEPS,
        win: float = WIN,
    ):
        if edition is None:
            raise ValueError("the blend bot needs the edition")
        if rollouts == EDITION:
            rollouts = edition_rollouts(edition)
        super().__init__(seed, edition, rollouts=rollouts, seconds=seconds, width=None, seeding=seeding, steps=steps,
                         win=win)
        self.expected = GreedyAgent(seed, edition, samples=samples, completions=completions, seeding=seeding)

    def values(self, view: dict, decision, rng: random.Random) -> dict:
        """letter -> the search's mean margin plus the greedy expectation of this round's gain; the greedy
        expectation alone if the decision's steps were spent before the search played out one world.
        With a time budget the greedy estimate comes first and the search stops at the decision's deadline
        (the search first would end the pick a greedy estimate late); a rollout budget keeps the seeded order."""
        if self.seconds is not None:
            deadline = time.perf_counter() + self.seconds
            expected = self.expected.gains(view, decision, rng)
            searched = self.searched(view, decision, rng, deadline)
        else:
            searched = self.searched(view, decision, rng)
            expected = self.expected.gains(view, decision, rng)
        if not searched:
            return expected
        return {letter: expected[letter] + margin for letter, margin in searched.items()}
