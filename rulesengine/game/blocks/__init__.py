"""The drafting round's blocks as the game plays them: one small class per block an edition declares.

The Game (game/state.py) holds the round's state (hands, drafts, picks, choices, phase) and plays
the edition's drafting blocks (edition.drafting.steps: declared under `flow:`, or the default
deal, throw, pick_and_pass, catch, choices) in order, through this registry. Each block says:
  start(game) -> bool      begin; True when it is over at once (it needs no decision)
  pending(game) -> list    the decisions it waits for now (pending() of the Game)
  decision_of(game, seat, category) -> Decision | None   this seat's first pending decision
  apply(game, seat, answer, category) -> bool      answer it (Game.apply checked it); True when over
  quick                    True when Game.apply may check a pick against the seat's hand alone and hand
                           the card to the block's place(game, seat, card) -> bool (True when over), with
                           no decision looked up (the hot path: one card a pass)
Blocks that ask nothing need only start. When the last block is over the round is scored.

Round options (edition.draft, edition/draft.py: teams, and what a house rule adds, such as ghost
seats or a mulligan) are read by the blocks they concern: a new option goes there, and a new
kind of step is a new block class here plus its declaration in edition/flow.py. No block names an
edition; every random draw goes through game.rng in the order the published round makes them.
"""

from __future__ import annotations

from ...edition.flow import Catch, Choices, Deal, Mulligan, PickAndPass, Throw
from .choices import ChoicesBlock
from .deal import DealBlock
from .mulligan import MulliganBlock
from .picking import CatchBlock, PickAndPassBlock, ThrowBlock

REGISTRY = {
    Deal: DealBlock,
    Mulligan: MulliganBlock,
    Throw: ThrowBlock,
    PickAndPass: PickAndPassBlock,
    Catch: CatchBlock,
    Choices: ChoicesBlock,
}


def round_blocks(edition) -> tuple:
    """The blocks of one drafting round of this edition, ready to play: they hold no game state, so
    every game of the edition shares them."""
    return edition.kept("round blocks", lambda: tuple(REGISTRY[type(step)](step) for step in edition.drafting.steps))
