"""What every score sheet of an edition reads of it (race slots, the names errors give), worked out once.

ScoreKeeper is made at every game, and the bots make many; what it reads of its edition does not change
from game to game, so it is kept on the edition (Edition.kept), not worked out again.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..edition.goals import goals_of
from ..edition.model import Edition
from .round_facts import race_slots


@dataclass(frozen=True)
class SheetPlan:
    """What every ScoreKeeper of an edition reads of it (see sheet_plan)."""

    race_pairs: list      # (race, region) of each race slot, in sheet order (round_facts.race_slots)
    race_names: list      # (race key, region name or None) of each race slot: how ScoreKeeper.races names it
    race_keys: list       # every race's key once, in order: a line on every seat's sheet
    what: dict            # id of an expression -> what an error names it by
    choice_keys: tuple    # the key of every choice category, in order
    choice_times: dict    # key -> N, for a choice whose icons may each be chosen N > 1 times a game


def sheet_plan(edition: Edition) -> SheetPlan:
    return edition.kept("sheet plan", _make_plan, edition)


def _make_plan(edition: Edition) -> SheetPlan:
    pairs = race_slots(edition)
    what = {id(c.score): c.key for c in edition.categories}
    what.update({id(c.choice.requires): f"{c.key} requires" for c in edition.choice_categories
                 if c.choice.requires})
    what.update({id(expression): race.key for race in edition.races for expression in (race.qualifies, race.award)})
    goals = goals_of(edition)
    what.update({id(goal.points): f"goal {goal.id}" for goal in goals.cards} if goals else {})
    return SheetPlan(pairs, [(race.key, region.name if region else None) for race, region in pairs],
                     list(dict.fromkeys(race.key for race in edition.races)), what,
                     tuple(c.key for c in edition.choice_categories),
                     {c.key: c.choice.times for c in edition.choice_categories if c.choice.times > 1})
