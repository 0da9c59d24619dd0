"""The blocks of a round as the game plays them: one module per block, one registry for every round.

An edition's round is its blocks (edition.round.steps: declared under `flow:`, or the default deal,
throw, pick_and_pass, catch, choices), made afresh for each game from their steps and played in
order by the Game (game/state.py). Each block (blocks/base.py) keeps its own state and says:
  start(game) -> bool      begin; True when it is over at once (it needs no decision)
  pending(game) -> list    the decisions it waits for now (pending() of the Game)
  decision_of(game, seat, category) -> Decision | None   this seat's first pending decision
  apply(game, seat, answer, category) -> bool      answer it (Game.apply checked it); True when over
  quick                    True when Game.apply may check a pick against the seat's hand alone and hand
                           the card to the block's place(game, seat, card) -> bool (True when over), with
                           no decision looked up (the hot path: one card a pass)
and declares its places, view, events, history and record (base.py). Blocks that ask nothing need
only start. When the last block is over the round ends.

A new kind of block is one module here, its entry in REGISTRY, and its step in edition/steps.py (its
parameters and words) checked by edition/flow.py. Round options (edition.draft: teams, ghost hands)
are read by the blocks they concern. No block names an edition; every random draw goes through
game.rng in the order the published round makes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...edition.goals import PublicGoals
from ...edition.steps import (
    Bidding,
    Catch,
    Choices,
    Claim,
    Deal,
    Mulligan,
    PickAndPass,
    Reveal,
    SecretChoice,
    Throw,
)
from .base import OWN, PUBLIC, Block
from .bidding import BiddingBlock
from .choices import ChoicesBlock
from .claim import ClaimBlock
from .deal import DealBlock
from .goals import GoalsBlock
from .mulligan import MulliganBlock
from .picking import CatchBlock, PickAndPassBlock, ThrowBlock
from .reveal import RevealBlock
from .secret_choice import SecretChoiceBlock

REGISTRY = {
    PublicGoals: GoalsBlock,
    Deal: DealBlock,
    Mulligan: MulliganBlock,
    Throw: ThrowBlock,
    PickAndPass: PickAndPassBlock,
    Catch: CatchBlock,
    Choices: ChoicesBlock,
    Reveal: RevealBlock,
    SecretChoice: SecretChoiceBlock,
    Bidding: BiddingBlock,
    Claim: ClaimBlock,
}

# what the game itself tells, whatever its blocks
GAME_EVENTS = {"round_start": PUBLIC, "decision": OWN, "round_scored": PUBLIC, "game_over": PUBLIC}


@dataclass(frozen=True)
class Plan:
    """What every game of an edition reads of its round's blocks, worked out once per edition."""

    made: tuple          # (block class, step) in order
    places: tuple        # every place the blocks make
    view: tuple          # (key, index of the block, its view_<key> function) in order
    entries: dict        # view key -> the keys of each of its entries
    events: dict         # event type -> PUBLIC or OWN
    asks: dict           # decision kind -> its words (edition.steps.Asked)
    record: tuple        # the sections of the game's record, in order (Block.record)
    repeats: bool        # some block asks a seat the same question twice in a round
    scores_rounds: bool  # the round makes the cards taken (`drafts`), scored at its end
    holds: bool          # the round makes what seats hold (`captured`, `stocks`): the sheet's holding lines
    index: dict          # a block's name -> its place in the round
    hooks: dict          # setup, begin_round, end_round, finish -> the blocks that need theirs (Block.hooked)
    rounds: int | None   # the rounds of a game, or None when its deck ends it



def round_plan(edition) -> Plan:
    """The plan of the edition's round, made once and kept with the edition (every game and bot asks for it)."""
    return edition.kept("round plan", _make_plan, edition)


def _make_plan(edition) -> Plan:
    made = tuple((REGISTRY[type(step)], step) for step in edition.round.steps)
    view, entries, events, asks = [], {}, dict(GAME_EVENTS), {}
    for index, (cls, step) in enumerate(made):
        view += [(key, index, getattr(cls, f"view_{key}")) for key in cls.view]
        entries.update(cls.entries_of(step))
        events.update(cls.events)
        asks.update((asked.kind, asked) for asked in step.asks())
    places = tuple(place for cls, _ in made for place in cls.places)
    names = {place.name for place in places}
    record = tuple(key for cls, _ in made for key in cls.record)
    hooks = {hook: tuple(i for i, (cls, step) in enumerate(made) if cls.hooked(hook, step, i))
             for hook in ("setup", "begin_round", "end_round", "finish")}
    return Plan(made, places, tuple(view), entries, events, asks, record, any(cls.repeats for cls, _ in made),
                "drafts" in names, bool(names & {"captured", "stocks"}),
                {step.name: i for i, (_, step) in enumerate(made)}, hooks, edition.round.rounds)


def round_words(edition) -> dict:
    """The round as a client draws it: its blocks' names in order, and each kind of decision in its words
    (what the `joined` message carries to the web page)."""
    asks = round_plan(edition).asks
    words = {"blocks": [step.name for step in edition.round.steps],
             "asks": {kind: {"title": a.title, "answer": a.answer, "options": dict(a.options), "points": a.points,
                             "said": a.said} for kind, a in asks.items()}}
    # a drafting round's secret choice declares a round-end choice: the page recalls last round's, by its title
    declared = [step for step in edition.round.steps if step.name == "secret_choice" and step.declares]
    if declared:
        key = declared[0].key
        words["declared"] = {"key": key, "title": next(c.title for c in edition.choice_categories if c.key == key)}
    return words


def decisions_made(edition, view) -> int:
    """How many decisions the view's seat has made this round, as its own view shows them (each block's
    made(view)): what tells a seat's decision from its next of the same kind, whenever the others answered."""
    return sum(cls.made(view) for cls, _ in round_plan(edition).made)


def make_blocks(plan: Plan) -> tuple:
    """This game's blocks, fresh: each keeps its own state."""
    return tuple(cls(step) for cls, step in plan.made)


__all__ = ["GAME_EVENTS", "OWN", "PUBLIC", "REGISTRY", "Block", "Plan", "decisions_made", "make_blocks", "round_plan",
           "round_words"]
