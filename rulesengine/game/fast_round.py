"""The score sheet's round, one seat at a time, as one generated function per edition.

scoring_rules.seat_round and race_winners run each round category, choice and race qualification
of a seat as its own call with its environment dict; a random-bot game spends a third of its time
there. The function here (game/generated.py) gives the same points and qualifications from the
same expressions. It never reports an error: where any expression raises, the sheet scores the
round again the slow way, which raises the located error (R501) as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from .. import dsl
from . import scoring_rules as rules
from .generated import END, RACE, ROUND, TABLE, Writer, every_icon, generated, icon_counts, per_edition, reads

_FUNCTIONS: dict = {}
_READS_VISITED = re.compile(r"\bg_visited\b")   # a statement that reads the visited cards themselves


def _full(edition) -> dsl.Full:
    """The seat's tally holds every icon (icon_counts): a count reads it by index."""
    return dsl.Full(frozenset({"T_cards"}), every_icon(edition), frozenset({"g_choice"}))


def _write(edition) -> Writer:
    writer = Writer(full=_full(edition))
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
    slot = 0
    for race in edition.races:
        regions = tuple(edition.regions) if race.each else (None,)
        emit(f"for slot, g_region in {writer.constant(tuple(enumerate(regions, slot)))}:", 2)
        value("ok", race.qualifies, RACE, 3)
        emit("if ok:", 3)
        emit("qualified.append(slot)", 4)
        slot += len(regions)
    emit("return points, qualified", 2)
    return writer


def _write_allowed(edition, category) -> Writer:
    """allowed_icons of one choice category: the icons, in family order, the seat may pick."""
    writer = Writer(full=_full(edition))
    emit = writer.emit
    emit("allowed = []", 2)
    emit(f"for g_choice in {writer.constant(tuple(category.choice.family.icons))}:", 2)
    if category.choice.once_per_game:
        emit("if g_choice in used:", 3)
        emit("continue", 4)
    if category.choice.requires is not None:
        writer.value("ok", category.choice.requires, ROUND | TABLE, 3)
        emit("if not ok:", 3)
        emit("continue", 4)
    emit("allowed.append(g_choice)", 3)
    emit("return allowed", 2)
    return writer


def _write_end(edition) -> Writer:
    """Every game-end category's points of one seat, as scoring_rules.game_end_points gives them (the
    length of the visited cards read from their set: each site is in them once)."""
    writer = Writer(lengths={"g_visited": "S_visited"})
    writer.emit("points = {}", 2)
    for category in rules.game_end_categories(edition):
        writer.value(f"points[{writer.constant(category.key)}]", category.score, END, 2)
    writer.emit("return points", 2)
    return writer


def reads_table(edition) -> bool:
    """Whether a round category or a choice's requires reads the other seats' cards."""
    return bool((reads(rules.round_categories(edition)) | reads(edition.choice_categories)) & TABLE)


@dataclass(frozen=True)
class GeneratedRound:
    run: object            # see round_function
    allowed: dict          # choice category key -> its allowed icons (see round_function)
    reads_table: bool      # a round category or a requires reads the other seats' cards: they need `table`
    end: object = None     # see round_function
    reads_visited: bool = True  # a statement reads the visited cards as a list (not only counted or as a set)
    end_reads_visited: bool = True  # the same for end


_PARAMETERS = "g_cards, g_visited, {}, table, g_players, g_round, g_rounds, tally, seen"
_END_PARAMETERS = "g_visited, g_players, g_rounds, g_round_totals, g_lines, g_opponents, g_left, g_right"


def _generate(edition) -> GeneratedRound | None:
    table = reads_table(edition)
    opening = ["g_throw = g_cards[0]", "g_catch = g_cards[-1]"]
    if table:
        opening.append("g_others, g_opponents, g_left, g_right = table")
    given = {"tallied": {"g_cards": "tally"}, "set_given": {"g_visited": "seen"}, "counter": "_counts",
             "helpers": {"_counts": partial(icon_counts, edition)}}
    statements: list = []   # of every round function made: whether one reads the visited cards as a list
    ending: list = []       # the same of the game end's

    def function(writer: Writer, name: str, parameters: str, written: list, first=opening, **options):
        written.extend(writer.lines)
        return writer.function(name, parameters, first, **options)

    run = generated(lambda: function(_write(edition), "seat_round", _PARAMETERS.format("previous, choices"),
                                     statements, **given))
    allowed = {}
    for category in edition.choice_categories:
        made = generated(lambda c=category: function(_write_allowed(edition, c), "allowed_icons",
                                                     _PARAMETERS.format("g_previous, used"), statements, **given))
        if made is not None:
            allowed[category.key] = made
    end = None
    if all(c.score is not None for c in rules.game_end_categories(edition)):
        end = generated(lambda: function(_write_end(edition), "game_end", _END_PARAMETERS, ending, (),
                                         helpers={"len": len}))
    reads_visited = any(_READS_VISITED.search(line) for line in statements)
    end_reads_visited = any(_READS_VISITED.search(line) for line in ending)
    return GeneratedRound(run, allowed, table, end, reads_visited, end_reads_visited) if run is not None else None


def round_function(edition) -> GeneratedRound | None:
    """The edition's generated round, made once; None when it has something the generator does not
    translate. run(cards, visited, previous, choices, table, players, round, rounds, tally, seen) -> (points
    by round category key as seat_round gives them, the index in race_slots of each race slot the
    seat qualifies for, in that order: seldom more than one); allowed[key](cards, visited, previous
    points of that category, icons used, table, players, round, rounds, tally, seen) -> the icons
    allowed_icons gives; table: (others, opponents, left, right) when reads_table, else None; tally:
    icon -> how often it is printed on cards, with every icon (generated.icon_counts), or None to count
    them here; seen: the visited cards as a frozenset, or None to make it here; visited: the visited
    cards in deck order, or where reads_visited is False, those of seen (the functions then only count
    them or make a set of them); end's visited, the same where end_reads_visited is False;
    end(visited, players, rounds, round_totals, lines, opponents, left, right) -> the points of
    each game-end category, as game_end_points gives them (what no category reads may be None), or
    None when the generator does not translate one of them."""
    return per_edition(_FUNCTIONS, edition, None, lambda: _generate(edition))
