"""Public goals: a deck of goal cards declared in the edition (`goals:`), a few drawn at the game's start.

Each goal is a game-end scoring expression that every seat may score (the same scope as a game-end
category); the goals drawn are shown to every seat. In the edition they are a step of the round,
the first (PublicGoals, played by game/blocks/goals.py: it draws at setup and asks nothing), and one
line of the sheet, `goals` (when=GOALS, no expression of its own): the sum of the drawn goals' points.
The program scores the drawn goals as game-end categories of their own (goal_categories), each
keyed `goal:ID`, which the sheet folds into its `goals` line.

Only an edition that declares goals has the step, the line or any draw: every other edition's random
stream and games stay as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..dsl import NUMBER
from ..errors import suggest
from .model import GAME_END, GOALS, Category, Expression

GOALS_KEY = "goals"       # the sheet's line of the goals
GOALS_TITLE = "Public goals"
GOAL_PREFIX = "goal:"     # a drawn goal's key in the program's game-end points


@dataclass(frozen=True)
class Goal:
    id: str
    name: str
    description: str
    points: Expression

    @cached_property
    def category(self) -> Category:
        """The goal as a game-end category of the program (its key goal:ID)."""
        return Category(GOAL_PREFIX + self.id, self.name, GAME_END, self.points)


@dataclass(frozen=True)
class PublicGoals:
    """The goals deck and how many are drawn at the game's start: a step of the round that asks nothing."""

    draw: int
    cards: tuple  # Goal, in the order declared (the order the draw samples from)
    name = "goals"

    @cached_property
    def by_id(self) -> dict:
        return {goal.id: goal for goal in self.cards}

    def rules(self, edition) -> str:
        return (f"Public goals (once, before the first round): {self.draw} of the {len(self.cards)} goal cards are "
                "drawn at random and laid face up for everyone; each scores every player at the end of the game.")

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return 0

    def asks(self) -> tuple:
        return ()


def goals_of(edition) -> PublicGoals | None:
    """The edition's goals (its round's goals step), or None."""
    return edition.round.step(PublicGoals) if edition.round is not None else None


def scored_categories(edition) -> tuple:
    """The edition's categories, and every goal of its deck as a game-end category: what a game of it may
    evaluate (the per-game guarantee counts each goal, drawn or not)."""
    goals = goals_of(edition)
    return edition.categories + (tuple(goal.category for goal in goals.cards) if goals is not None else ())


def goal_line() -> Category:
    """The sheet's line of the goals: their points, added up at game end."""
    return Category(GOALS_KEY, GOALS_TITLE, GOALS, None)


def build_goals(builder, scope, symbol_table, keys: dict, flow: bool) -> PublicGoals | None:
    """The edition's `goals:` (the schema checked its shape), each goal's points an expression of the game-end
    scope; None without goals, or with an error (reported at its place: M360)."""
    spec = builder.data.get("goals")
    if not isinstance(spec, dict):
        return None
    if flow:
        builder.error(("goals",), "public goals score a drafting game's end: an edition with a `flow` of its own "
                      "has no game end they could score at", "M360", "remove `goals:`", key=True)
        return None
    if GOALS_KEY in keys:
        builder.error(keys[GOALS_KEY] + ("key",), f"the key '{GOALS_KEY}' is the line of the public goals",
                      "M360", "rename this category or race")
    entries = builder.entries_of(("goals", "cards"))
    if not entries:
        builder.error(("goals", "cards"), "the goals deck is empty: there is nothing to draw", "M360",
                      "add a goal: {id: ..., name: ..., points: <expression>}", key=True)
        return None
    draw = spec.get("draw", 1)
    if isinstance(draw, int) and draw > len(entries):
        builder.error(("goals", "draw"), f"{draw} goals are drawn from a deck of {len(entries)}", "M360",
                      f"draw at most {len(entries)}, or add goals")
    cards, seen, ok = [], {}, True
    for index, entry in entries:
        path = ("goals", "cards", index)
        goal_id = entry.get("id")
        if goal_id in seen:
            builder.error(path + ("id",), f"the goal id '{goal_id}' is used twice", "M360",
                          "every goal needs an id of its own (saves and logs name the goals drawn by it)")
            ok = False
        seen[goal_id] = path
        points = builder.expression(path + ("points",), scope, symbol_table, NUMBER)
        if points is None:
            ok = False
            continue
        cards.append(Goal(goal_id, entry.get("name", goal_id), entry.get("description", ""), points))
    if not ok or not isinstance(draw, int) or draw > len(entries):
        return None
    return PublicGoals(draw, tuple(cards))


def goal_problem(goals: PublicGoals, given) -> tuple[tuple, str] | None:
    """Why a list of drawn goals (a save's, a record's) is not a draw of this deck, and where in the list:
    () the list, (i,) its i-th id; or None."""
    if not isinstance(given, list) or not all(isinstance(g, str) for g in given):
        return (), "must be a list of goal ids"
    unknown = [index for index, goal in enumerate(given) if goal not in goals.by_id]
    if unknown:
        hint = suggest(given[unknown[0]], goals.by_id)
        return (unknown[0],), (f"'{given[unknown[0]]}' is not a goal of this edition (goals: "
                               f"{', '.join(goals.by_id)})" + (f"; {hint}" if hint else ""))
    if len(given) != goals.draw or len(set(given)) != len(given):
        return (), f"must name {goals.draw} different goals of the deck, not {len(given)}"
    return None


__all__ = ["GOALS_KEY", "GOAL_PREFIX", "Goal", "PublicGoals", "WithGoals", "build_goals", "goal_line", "goal_problem",
           "goals_of", "scored_categories"]


class WithGoals:
    """The edition as the program of a game with these goals drawn reads it (duck-typed, as the compiler
    and the reference interpreter read an edition): its categories and, after them, each goal drawn as a
    game-end category (Goal.category). Everything else is the edition's."""

    def __init__(self, edition, drawn: tuple):
        goals = goals_of(edition)
        self._edition = edition
        self.categories = edition.categories + tuple(goals.by_id[goal].category for goal in drawn)

    def __getattr__(self, name):
        return getattr(self._edition, name)
