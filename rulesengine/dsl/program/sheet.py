"""The score sheet's part of an edition's program: a seat's round and races, its choices, its game end.

Each is one generated function of keyword-only inputs (their names declared in edition/scopes.py and
handed in as `inputs`), every round category, race or game-end category of the edition a statement
of it. An expression that fails raises DslRuntimeError carrying its node: the sheet locates it
(file:line:col of the expression); nothing here catches it.

What each function must be handed, and in what form (the visited cards in deck order, or only
their set), is worked out from the statements' trees (reads.py) and said in Needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import names
from .expression import Shared
from .helpers import Full, every_icon
from .reads import COUNT, LENGTH, SET, merged, reads_of
from .writer import Writer

ROUND, GAME_END = "round", "game_end"
TABLE = frozenset({"others", "opponents", "left", "right"})   # the other seats' cards
# The forms of the seat's cards and visited cards the sheet's functions hold: the tally of the cards
# (handed, with every icon: Full), the visited cards' set (handed), a tally of them and a set of the
# cards made when read.
_TALLIES = {"cards": names.TALLY["cards"], "visited": names.TALLY["visited"]}
_SETS = {"cards": names.SET["cards"], "visited": names.SET["visited"]}
_LENGTHS = {"visited": names.SET["visited"]}
_HELD = frozenset({COUNT, SET, LENGTH})


def _forms() -> dict:
    """The forms of the game values a sheet function makes when some statement reads them."""
    return {names.TALLY["cards"]: ("inputs.tally", None), names.SET["visited"]: ("inputs.seen", None),
            names.TALLY["visited"]: (f"_tally({names.VISITED})", "visited"),
            names.SET["cards"]: (f"frozenset({names.CARDS})", "cards")}


# game variable -> how the function reads it from its one argument, `inputs` (scopes.SeatInputs, EndInputs)
_ROUND_BINDINGS = {"cards": "inputs.cards", "throw": "inputs.cards[0]", "catch": "inputs.cards[-1]",
                   "visited": "inputs.visited", "players": "inputs.players", "round": "inputs.round",
                   "rounds": "inputs.rounds", "others": "inputs.table[0]", "opponents": "inputs.table[1]",
                   "left": "inputs.table[2]", "right": "inputs.table[3]"}
_END_BINDINGS = {name: f"inputs.{name}" for name in ("visited", "players", "rounds", "round_totals", "lines",
                                                     "opponents", "left", "right")}


def _from_sheet(bindings: dict, sheet: frozenset) -> dict:
    """bindings, and each variable of the sheet so far it lacks read from the `sheet` input by name."""
    return {**{name: f"inputs.sheet.{name}" for name in sorted(sheet)}, **bindings}


@dataclass(frozen=True)
class Needs:
    """What the sheet must hand its functions: visited: the visited cards as a list in deck order (else
    their set is enough: nothing reads them but as counted, as a set or by their number); table: the
    other seats' cards (`table`); end_visited, end_table: the same for the game end; end_reads: every
    game variable a game-end category reads; sheet: whether a round reads the sheet so far."""

    visited: bool
    table: bool
    end_visited: bool
    end_table: bool
    end_reads: frozenset
    sheet: bool = False   # a round's expressions read the sheet so far (the `sheet` input: scopes.SheetSoFar)


@dataclass(frozen=True)
class Sheet:
    """The sheet's generated functions (see compile_sheet)."""

    round: object
    allowed: dict
    end: object
    needs: Needs


def round_categories(rules) -> tuple:
    return tuple(c for c in rules.categories if c.when == ROUND)


def end_categories(rules) -> tuple:
    return tuple(c for c in rules.categories if c.when == GAME_END)


def _writer(rules, variables: frozenset, **options) -> Writer:
    full = Full(frozenset({names.TALLY["cards"]}), every_icon(rules), frozenset({"choice"}))
    return Writer(rules, variables, tallies=_TALLIES, sets=_SETS, lengths=_LENGTHS, full=full, **options)


def write_round(rules, variables: dict, caught: bool = False):
    """round(inputs) -> (key -> points of each round category for one seat (a choice category at the
    icon of `choices`, 0 without one), every race slot it qualifies for, in order: the sheet skips those it
    took before).
    caught: a failing category scores 0 and a failing qualification does not qualify (a bot's)."""
    writer = _writer(rules, variables["round"], caught=caught)
    emit = writer.emit
    emit("points = {}", 2)
    if any(c.choice is not None for c in round_categories(rules)):
        emit("choices = inputs.choices", 2)
    if any("previous" in reads_of(c.score).variables() for c in round_categories(rules)):
        emit("previous = inputs.previous", 2)
    for category in round_categories(rules):
        key = writer.constant(category.key)
        if "previous" in reads_of(category.score).variables():
            emit(f"{names.PREVIOUS} = previous.get({key}, 0)", 2)
        if category.choice is None:
            writer.value(f"points[{key}]", category.score, 2, "0" if caught else None)
            continue
        emit(f"{names.CHOICE} = choices.get({key})", 2)
        emit(f"if {names.CHOICE} is None:", 2)
        emit(f"points[{key}] = 0", 3)
        emit("else:", 2)
        writer.value(f"points[{key}]", category.score, 3, "0" if caught else None)
    emit("qualified = []", 2)
    slot = 0
    for race in rules.races:
        regions = tuple(rules.regions) if race.each else (None,)
        emit(f"for slot, {names.REGION} in {writer.constant(tuple(enumerate(regions, slot)))}:", 2)
        writer.value("ok", race.qualifies, 3, "False" if caught else None, variables=variables["qualifies"])
        emit("if ok:", 3)
        emit("qualified.append(slot)", 4)
        slot += len(regions)
    emit("return points, qualified", 2)
    return writer.function("seat_round", "inputs", _from_sheet(_ROUND_BINDINGS, variables["sheet"]), _forms())


def write_choice(rules, category, variables: frozenset, points: bool = False, sheet: frozenset = frozenset()):
    """choice(inputs) -> the icons of the category, in family order, the seat may pick (not in `used`
    when once per game, meeting `requires`); points: icon -> its points instead, failures caught
    (a bot judging its options); sheet: the variables read from the `sheet` input."""
    writer = _writer(rules, variables, caught=points)
    emit = writer.emit
    expressions = [category.score] if points else []
    expressions += [category.choice.requires] if category.choice.requires is not None else []
    if any("previous" in reads_of(e).variables() for e in expressions):
        emit(f"{names.PREVIOUS} = inputs.previous.get({writer.constant(category.key)}, 0)", 2)
    emit("found = {}" if points else "allowed = []", 2)
    if category.choice.once_per_game:
        emit("used = inputs.used", 2)
    emit(f"for {names.CHOICE} in {writer.constant(tuple(category.choice.family.icons))}:", 2)
    if category.choice.once_per_game:
        emit(f"if {names.CHOICE} in used:", 3)
        emit("continue", 4)
    if category.choice.requires is not None:
        writer.value("ok", category.choice.requires, 3, "False" if points else None)
        emit("if not ok:", 3)
        emit("continue", 4)
    if points:
        writer.value(f"found[{names.CHOICE}]", category.score, 3, "0")
        emit("return found", 2)
    else:
        emit(f"allowed.append({names.CHOICE})", 3)
        emit("return allowed", 2)
    return writer.function("choice", "inputs", _from_sheet(_ROUND_BINDINGS, sheet), _forms())


def write_end(rules, variables: frozenset, caught: bool = False, sheet: frozenset = frozenset()):
    """end(inputs) -> key -> points of each game-end category for one seat (caught: 0 where one fails;
    sheet: the variables read from the `sheet` input where the inputs do not hold them by name)."""
    writer = _writer(rules, variables, caught=caught)
    writer.emit("points = {}", 2)
    for category in end_categories(rules):
        writer.value(f"points[{writer.constant(category.key)}]", category.score, 2, "0" if caught else None)
    writer.emit("return points", 2)
    return writer.function("game_end", "inputs", _from_sheet(_END_BINDINGS, sheet), _forms())


def needs(rules, sheet: frozenset = frozenset()) -> Needs:
    """What the sheet's functions read, from their trees (sheet: the variables of the sheet so far)."""
    rounds = [c.score for c in round_categories(rules)] + [r.qualifies for r in rules.races] + \
        [c.choice.requires for c in rules.categories if c.choice is not None and c.choice.requires is not None]
    playing = merged(reads_of(e) for e in rounds)
    ending = merged(reads_of(c.score) for c in end_categories(rules))
    return Needs(playing.reads_value("visited", _HELD), bool(playing.variables() & TABLE),
                 ending.reads_value("visited", _HELD), bool(ending.variables() & TABLE), ending.variables(),
                 bool(playing.variables() & sheet))


def compile_sheet(rules, scopes) -> Sheet:
    """The sheet's functions of an edition (rules: the edition, duck-typed; scopes: the variables each
    kind of expression sees, as scopes.program_scopes gives them). Each takes one argument, `inputs`,
    that holds its inputs by the names edition/scopes.py declares (PROGRAM_INPUTS: SeatInputs for the
    round and the choices, EndInputs for the game end)."""
    sheet = scopes["sheet"]
    allowed = {c.key: write_choice(rules, c, scopes["requires"], sheet=sheet) for c in rules.categories
               if c.choice is not None}
    end = write_end(rules, scopes["game_end"], sheet=sheet)
    return Sheet(write_round(rules, scopes), allowed, end, needs(rules, sheet))


__all__ = ["Shared", "Sheet", "Needs", "compile_sheet"]
