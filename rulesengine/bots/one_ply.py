"""The 1-ply greedy bot ("greedy1"): the card that most raises what this seat's cards of the round are worth now.

The ladder's rung between the random and the greedy bot: it looks one pick ahead and no further
(no completion of the round, no sampled world), judging the cards it has taken plus one more with
the edition's own scoring (evaluate.seat_value: categories, races, the game-end gain). A Throw is
judged alone, as its Catch is not known. Choices at round end are the greedy bot's. Deterministic:
a tie goes to the first option.
"""

from __future__ import annotations

from ..edition.model import Edition
from ..edition.steps import BID, CLAIM, DECLARE, DISCARD, REDRAW
from ..game.blocks import round_plan
from ..game.round_facts import others
from .evaluate import card_list, seat_value, standing_from_view
from .greedy import GreedyAgent, decide_by_value, my_drafts
from .seeding import STEP_SEEDS

# the effects it answers as the greedy bot does, by the greedy bot's own dispatch: a mulligan, a claim, a bid,
# a declaration, and a discard (the card added is not the card kept)
GREEDY_EFFECTS = (REDRAW, CLAIM, BID, DECLARE, DISCARD)


class OnePlyAgent:
    """The pick that adds most to this seat's cards of the round as they stand."""

    kind = "greedy1"
    lazy_view = True

    def __init__(self, seed: int = 0, edition: Edition | None = None, *, seeding: int = STEP_SEEDS):
        if edition is None:
            raise ValueError("the greedy1 bot needs the edition")
        self.seed, self.edition, self.seeding = seed, edition, seeding
        self.greedy = GreedyAgent(seed, edition, seeding=seeding)   # answers all but its picks (GREEDY_EFFECTS)

    def decide(self, view: dict, decision):
        effect = round_plan(self.edition).asks[decision.kind].effect  # what its block declares answering does
        if effect in GREEDY_EFFECTS:
            return self.greedy.decide(view, decision)
        return decide_by_value(self, view, decision, self.values, effect)

    def values(self, view: dict, decision, rng) -> dict:
        """letter -> what this seat's cards of the round would be worth with that card added."""
        edition, seat = self.edition, view["seat"]
        standing = standing_from_view(edition, view)
        taken = my_drafts(edition, view)
        table = others([card_list(edition, seen["face_up"]) for seen in view["table"]], seat) if standing.shared else ()
        return {card.letter: seat_value(standing, seat, taken + [card], table)
                for card in card_list(edition, decision.options)}
