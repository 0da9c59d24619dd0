"""The `goals` block: the public goals drawn at the game's start (edition/goals.py), shown to everyone.

It is the first block of the round of an edition that declares `goals:` (and of no other edition, so
no other game draws anything more). At setup it draws the goals from the game's generator, before the
first deal, and hands them to the score sheet, which scores each at game end; a game given its goals
(a save's, a record's, a bot's sampled world: Game(goals=...)) still draws, so that every later draw
is the same, and then keeps the goals it was given. It asks nothing and hides nothing: every seat's
view, and a spectator's, lists the goals drawn (view["goals"]); the record names them.
"""

from __future__ import annotations

from ..places import ALL, Place
from .base import Block

GOAL_ENTRIES = ("id", "name", "description")


class GoalsBlock(Block):
    places = (Place("goals", ALL, per_seat=False, cards=False, words="the public goals drawn, face up"),)
    view = ("goals",)
    public = ("goals",)
    entries = {"goals": GOAL_ENTRIES}
    record = ("goals",)

    def setup(self, game) -> None:
        deck = self.step.cards
        drawn = [goal.id for goal in game.rng.sample(deck, self.step.draw)]
        if game.given_goals is not None:
            drawn = list(game.given_goals)
        game.places.goals = drawn
        game.scores.set_goals(drawn)

    def add_record(self, game, record: dict) -> None:
        record["goals"] = list(game.places.goals)

    def view_goals(self, game, seat: int) -> list:
        by_id = self.step.by_id
        return [{"id": goal, "name": by_id[goal].name, "description": by_id[goal].description}
                for goal in game.places.goals]
