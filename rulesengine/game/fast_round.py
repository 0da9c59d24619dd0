"""The score sheet's round, one seat at a time, as one generated function per edition.

scoring_rules.seat_round and race_winners run each round category, choice and race qualification
of a seat as its own call with its environment dict; a random-bot game spends a third of its time
there. The function here (game/generated.py) gives the same points and qualifications from the
same expressions. It never reports an error: where any expression raises, the sheet scores the
round again the slow way, which raises the located error (R501) as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import scoring_rules as rules
from .generated import RACE, ROUND, TABLE, Writer, generated, per_edition

_FUNCTIONS: dict = {}


def _write(edition) -> Writer:
    writer = Writer()
    emit, value = writer.emit, writer.value
    emit("points = {}", 2)
    for category in rules.round_categories(edition):
        key = writer.constant(category.key)
        if "previous" in category.score.variables:
            emit(f"g_previous = previous.get({key}, 0)", 2)
        if category.choice is None:
            value(f"points[{key}]", category.score, ROUND | TABLE, 2)
            continue
        emit(f"g_choice = choices.get({key})", 2)
        emit("if g_choice is None:", 2)
        emit(f"points[{key}] = 0", 3)
        emit("else:", 2)
        value(f"points[{key}]", category.score, ROUND | TABLE, 3)
    emit("qualified = []", 2)
    for race in edition.races:
        emit(f"for g_region in {writer.constant(tuple(edition.regions) if race.each else (None,))}:", 2)
        value("ok", race.qualifies, RACE, 3)
        emit("qualified.append(ok)", 3)
    emit("return points, qualified", 2)
    return writer


@dataclass(frozen=True)
class GeneratedRound:
    run: object            # see round_function
    reads_table: bool      # a round category reads the other seats' cards: run needs `table`


def round_function(edition) -> GeneratedRound | None:
    """run(cards, visited, previous, choices, table, players, round, rounds) -> (points by round
    category key as seat_round gives them, whether the seat qualifies for each race slot in
    race_slots order); table: (others, opponents, left, right) when a category reads them, else
    None. None when the edition has something the generator does not translate."""
    reads_table = any(c.score.variables & TABLE for c in rules.round_categories(edition))
    opening = ["g_throw = g_cards[0]", "g_catch = g_cards[-1]"]
    if reads_table:
        opening.append("g_others, g_opponents, g_left, g_right = table")
    run = per_edition(_FUNCTIONS, edition, None, lambda: generated(lambda: _write(edition).function(
        "seat_round", "g_cards, g_visited, previous, choices, table, g_players, g_round, g_rounds", opening)))
    return GeneratedRound(run, reads_table) if run is not None else None
