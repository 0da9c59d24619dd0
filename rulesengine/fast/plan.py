"""An edition as the batch simulator plays it: its deck as arrays and every expression as array code.

plan() makes it once per edition, or raises Unsupported saying what the batch does not play (the
engine then plays the edition, named by fallback(); greedy_fallback() says the same of greedy seats).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dsl.program import reads_of
from ..edition.model import GAME_END, ROUND
from ..edition.scopes import SHEET
from ..edition.steps import Catch, Choices, Deal, PickAndPass, Throw
from .arrays import compile_tree
from .cards import Unsupported, deck_arrays

# The array code has no step budget as it runs (dsl/meter.py): the batch plays an edition whose every expression
# takes at most this many steps at worst (the work budget's count; the shipped ones at most 854), the engine the rest
BATCH_WORK = 10_000


@dataclass(frozen=True)
class Plan:
    """An edition as the batch plays it: its deck as arrays and every expression as array code."""

    edition: object
    deck: object
    hand: int
    throw: bool                     # the first pick is a Throw (its decision's kind)
    rounds: tuple                   # (key, compiled score, choice category or None) of each round category
    requires: dict                  # key -> compiled requires of each choice category (None: none)
    races: tuple                    # (race key, region or None, qualifies, award) of each race slot
    ends: tuple                     # (key, compiled score) of each game-end category
    counting: frozenset             # the keys whose points add up to the total
    line_keys: tuple                # the round lines of a seat's sheet: round categories, then races


def plan(edition) -> Plan:
    """The edition's plan, made once and kept with the edition (Edition.kept); Unsupported (saying what) when
    the batch cannot play it."""
    found = edition.kept("batch plan", lambda: _plan_or_refusal(edition))
    if isinstance(found, Unsupported):
        raise found
    return found


def _plan_or_refusal(edition) -> Plan | Unsupported:
    try:
        return _make_plan(edition)
    except Unsupported as exc:
        return exc


def fallback(edition) -> str | None:
    """Why the batch does not play this edition (the engine plays it), or None when it does."""
    try:
        plan(edition)
    except Unsupported as exc:
        return str(exc)
    return None


# What the batch does not hand an expression: the score sheet so far in a round (issue #29), every seat's
# totals and places and its seat options at game end, and how many seats share a race's place. The engine
# plays those editions.
_NOT_HANDED = {ROUND: frozenset(v.name for v in SHEET), GAME_END: frozenset({"totals", "standing", "options"})}


def _reads_no_sheet_so_far(edition) -> None:
    """Unsupported when an expression reads what the batch does not hand it (_NOT_HANDED)."""
    for category in edition.categories:
        for expression in (category.score, category.choice and category.choice.requires):
            if expression is not None and expression.tree is not None:
                read = reads_of(expression).variables() & _NOT_HANDED.get(category.when, frozenset())
                if read:
                    raise Unsupported(f"the score sheet so far ({', '.join(sorted(read))}) in '{category.key}'")
    for race in edition.races:
        if race.award.tree is not None and "sharing" in reads_of(race.award).variables():
            raise Unsupported(f"'sharing' in the award of '{race.key}'")


def _within_batch_work(edition) -> None:
    """Unsupported when an expression may take more than BATCH_WORK steps: the engine plays it, metered."""
    from ..edition.guarantee import evaluation_steps

    steps = evaluation_steps(edition)
    for category in edition.categories:
        most = max(steps.get(id(e), 0) for e in (category.score, category.choice and category.choice.requires))
        if most > BATCH_WORK:
            raise Unsupported(f"'{category.key}' may take {most:,} steps an evaluation, more than the batch's "
                              f"{BATCH_WORK:,} (it has no step budget as it runs)")


def _make_plan(edition) -> Plan:
    if edition.runner != "compiled":   # the reference is the interpreter, asked for by name: the engine runs it
        raise Unsupported("the reference runner (the batch plays its own array code)")
    if edition.draft.ghosts:
        raise Unsupported("ghost hands (they draw from the game's generator as they go)")
    if edition.draft.teams:
        raise Unsupported("teams (ranked together)")
    steps = tuple(edition.round.steps)  # (a round of other blocks, the 2010 game's too, is refused below)
    kinds = tuple(type(step) for step in steps)
    if kinds not in ((Deal, Throw, PickAndPass, Catch, Choices), (Deal, Throw, PickAndPass, Catch)):
        raise Unsupported("a round other than the drafting round of deal, throw, pick_and_pass, catch, choices: "
                          + ", ".join(kind.__name__ for kind in kinds))
    if any(p > 1 for p in steps[2].picks):
        raise Unsupported("passes of several cards")
    if any(steps[2].discards):
        raise Unsupported("discards")
    if steps[2].pass_directions:
        raise Unsupported("directions pass by pass")
    if steps[0].by_round:
        raise Unsupported("hand sizes by round")
    if any(c.choice is not None and c.choice.times > 1 for c in edition.categories):
        raise Unsupported("choices allowed more than once a game")
    _reads_no_sheet_so_far(edition)
    _within_batch_work(edition)
    deck = deck_arrays(edition)
    rounds, requires = [], {}
    for category in edition.categories:
        if category.when != ROUND:
            continue
        score = compile_tree(category.score, deck, edition)
        rounds.append((category.key, score, category if category.choice is not None else None))
        if category.choice is not None:
            chosen = category.choice.requires
            requires[category.key] = compile_tree(chosen, deck, edition) if chosen is not None else None
    races = tuple((race.key, region, compile_tree(race.qualifies, deck, edition),
                   compile_tree(race.award, deck, edition))
                  for race in edition.races for region in (edition.regions if race.each else (None,)))
    ends = tuple((c.key, compile_tree(c.score, deck, edition)) for c in edition.categories if c.when == GAME_END)
    line_keys = tuple(key for key, _, _ in rounds) + tuple(dict.fromkeys(race.key for race in edition.races))
    return Plan(edition, deck, steps[0].cards, True, tuple(rounds), requires, races, ends,
                frozenset(edition.counting_keys), line_keys)


def greedy_fallback(edition) -> str | None:
    """Why the batch's greedy seats do not play this edition (the engine plays it), or None when they do."""
    from .greedy import greedy_plan

    try:
        greedy_plan(plan(edition))
    except Unsupported as exc:
        return str(exc)
    return None
