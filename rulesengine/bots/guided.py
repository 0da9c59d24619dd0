"""The guided bot: the ismcts bot's tree with the blend bot's greedy estimate as its prior at the root.

The two searching bots are strong where the other is weak (docs/bots.md, the ladder of 2026-11-27): at two
players the ismcts bot beats the blend bot (62.3% of 600 paired games), against three greedy bots in 4-player
Australia the blend bot wins 47.5% of 3,012 and the ismcts bot 39.3% of 300. The blend's strength is the greedy
bot's low-noise expected gain (24 worlds of 6 orders: greedy.GreedyAgent.gains), which values a partial set by
what it may become. This bot gives that estimate to the ismcts bot's tree (ismcts.IsmctsAgent, `prior` and
`final`) twice, as Chaslot, Winands, van den Herik, Uiterwijk and Bouzy ("Progressive strategies for Monte-Carlo
tree search", New Mathematics and Natural Computation 4(3), 2008) give a heuristic to a tree:
- progressive bias in the root's selection: UCB1's score plus the weight times the card's estimate (scaled to
  [0, 1] over the options) over its visits + 1, and the untried card of the best estimate tried first; it leads
  the first iterations and fades as the visits grow;
- the final choice: the card with the best mean of the blend's rollout value (the margin over the rivals, and
  30 points for a win in the last round: _Worth.in_points) plus the estimate in points, among the cards visited
  at least a quarter as often as the most visited (a mean of a few visits is too noisy to trust).
Its once-per-game choices at a round's end (Australia's activities) are planned over the rounds left
(choices.planned_choice), not thresholded by the greedy bot's fixed reserve: on the ladder's 600 games of seed 50
against three greedy bots that alone gained +2.8 +- 3.1 points, and on fresh seeds the bot won 50.8% (48.6-52.9%) of
2,000 games against three greedy bots in 4-player Australia (docs/bots.md, 2026-11-28; file format 6).
Everything else is the ismcts bot's: its worlds, its tree of this seat's picks, the other seats modelled by the
greedy policy, the round's end valued by the chance to win the game, the step budget, `think`.
Strength and cost: see docs/bots.md (the figures, their dates and numbers of games).
"""

from __future__ import annotations

from ..edition.model import Edition
from .allowance import SEARCH_STEPS
from .ismcts import PRIOR_COMPLETIONS, PRIOR_SAMPLES, IsmctsAgent
from .seeding import PLANNED_CHOICES

ITERATIONS = 200   # its iterations a decision by default (docs/bots.md: its cost a pick and its strength)
PRIOR = 1.0        # the progressive bias's weight, in the tree's scaled values (the best estimate's bias at no visit)
FINAL = 1.0        # the estimate's weight in the final choice, in points beside the mean margin


class GuidedAgent(IsmctsAgent):
    """Information-set MCTS over this seat's picks with the greedy estimate as its prior (module docstring)."""

    kind = "guided"

    def __init__(
        self,
        seed: int = 0,
        edition: Edition | None = None,
        *,
        iterations: int | None = ITERATIONS,
        think: float | None = None,
        prior: float = PRIOR,
        final: float = FINAL,
        samples: int = PRIOR_SAMPLES,
        completions: int = PRIOR_COMPLETIONS,
        seeding: int = PLANNED_CHOICES,
        steps: int | None = SEARCH_STEPS,
        rivals: str = "one-ply",
        plan: bool | None = None,
    ):
        if edition is None:
            raise ValueError("the guided bot needs the edition")
        super().__init__(seed, edition, iterations=iterations, think=think, seeding=seeding, steps=steps, prior=prior,
                         final=final, samples=samples, completions=completions, rivals=rivals,
                         plan=seeding >= PLANNED_CHOICES if plan is None else plan)
