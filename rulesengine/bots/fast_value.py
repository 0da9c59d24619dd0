"""evaluate._own_value as one generated Python function per edition.

A greedy game values some 8,000 hypothetical hands, each through a dozen compiled expressions
called one by one with their environment dicts, the choice icons and race regions looped over in
scoring_rules. Here every own round category, choice, race and game-end category of the edition is
generated (by the DSL's own code generator, from the checked trees) into the body of one function
whose game variables are its locals, and the counts over the seat's cards read one tally made once.
It adds the same numbers in the same order as _own_value, and an expression that fails on a hand
counts as the default _own_value gives it (0 points, not qualified), so a bot decides exactly as
before. An edition with anything the generator does not translate keeps _own_value.
"""

from __future__ import annotations

from .. import dsl
from ..edition.model import GAME_END
from ..edition.scopes import game_end_env, line_keys, moment, sheet_lines

_ROUND = frozenset({"cards", "throw", "catch", "visited", "players", "round", "rounds", "previous", "choice"})
_RACE = frozenset({"cards", "visited", "players", "round", "rounds", "region"})
_END = frozenset({"visited", "players", "rounds", "round_totals", "lines", "opponents", "left", "right"})
_END_FIXED = ("round_totals", "lines", "opponents", "left", "right")   # the same in every hand a bot values
_FIXED = {"g_cards": "T_cards", "g_visited": "T_visited"}   # counted once per call when read
_SETS = {"g_cards": "S_cards", "g_visited": "S_visited"}    # made a set once per call when read
_FAILED = (dsl.DslRuntimeError, ArithmeticError, KeyError, TypeError, ValueError, RecursionError)


def _reader(allowed: frozenset):
    def read(name: str) -> str:
        if name not in allowed:
            raise dsl.Unsupported(f"the game variable {name!r} here")
        return f"g_{name}"
    return read


class _Writer:
    """The body of the generated function, statement by statement."""

    def __init__(self, edition):
        self.edition = edition
        self.shared = dsl.Shared()
        self.lines: list[str] = []
        self.fixed_used: set = set()

    def emit(self, line: str, depth: int) -> None:
        self.lines.append("    " * depth + line)

    def constant(self, value) -> str:
        slots = self.shared.slots
        if id(value) not in slots:
            slots[id(value)] = len(self.shared.constants)
            self.shared.constants.append(value)
        return f"k{slots[id(value)]}"

    def value(self, target: str, expression, allowed: frozenset, default: str, depth: int) -> None:
        """target = the expression's value, or default where it fails (as evaluate._run)."""
        node, resolved, lookups = expression.tree
        source, tallies = dsl.inline(node, resolved, lookups, self.shared, _reader(allowed), _FIXED, _SETS)
        self.fixed_used.update(name for name in [*_FIXED.values(), *_SETS.values()] if name in source)
        self.emit("try:", depth)
        for cards, local in tallies.items():
            self.emit(f"{local} = _tally({cards})", depth + 1)
        self.emit(f"{target} = {source}", depth + 1)
        self.emit("except _FAILED:", depth)
        self.emit(f"{target} = {default}", depth + 1)


def _write(edition, own: tuple) -> _Writer:
    writer = _Writer(edition)
    emit, value = writer.emit, writer.value
    emit("value = 0", 2)
    for category in own:
        key = writer.constant(category.key)
        requires = category.choice.requires if category.choice else None
        if "previous" in category.score.variables | (requires.variables if requires else frozenset()):
            emit(f"g_previous = previous.get({key}, 0)", 2)
        if category.choice is None:
            value("p", category.score, _ROUND, "0", 2)
            emit("value += p", 2)
            continue
        choice = category.choice
        emit("best = 0", 2)
        emit(f"used_icons = used.get({key}, ())", 2)
        emit(f"for g_choice in {writer.constant(tuple(choice.family.icons))}:", 2)
        if choice.once_per_game:
            emit("if g_choice in used_icons:", 3)
            emit("continue", 4)
        if choice.requires is not None:
            value("ok", choice.requires, _ROUND, "False", 3)
            emit("if not ok:", 3)
            emit("continue", 4)
        value("p", category.score, _ROUND, "0", 3)
        emit("if p > best:", 3)
        emit("best = p", 4)
        emit("value += best", 2)
    for index, race in enumerate(edition.races):
        emit(f"for g_region, award in races[{index}]:", 2)
        value("ok", race.qualifies, _RACE, "False", 3)
        emit("if ok:", 3)
        emit("value += award", 4)
    emit("if end_before is not None:", 2)
    fixed = _end_constants(edition)
    for name in _END_FIXED:
        emit(f"g_{name} = {writer.constant(fixed[name])}", 3)
    emit("end = 0", 3)
    for category in edition.categories:
        if category.when == GAME_END and category.counts:
            value("p", category.score, _END, "0", 3)
            emit("end += p", 3)
    emit("value += end - end_before", 3)
    emit("return value", 2)
    return writer


def _end_constants(edition) -> dict:
    """What a bot's game-end environment holds besides visited, players and rounds (as
    scoring_rules.game_end_points builds it for evaluate._end_points: no other seats, no rounds)."""
    categories = [c for c in edition.categories if c.when == GAME_END]
    lines = sheet_lines(line_keys(edition), []) if any("lines" in c.score.variables for c in categories) else None
    return game_end_env(moment(edition, 0, 0), [], None, (), lines)


def own_value_function(edition, own: tuple):
    """f(cards, visited, previous, used, races, players, round, rounds, end_before) -> the value
    _own_value gives (races: for each race of the edition, the (region, award) still open to the
    seat; end_before: its game-end points before this round, or None when its visited cards do not
    change); None when the edition has something the generator does not translate."""
    if any(c.when == GAME_END and c.score is None for c in edition.categories):
        return None
    try:
        writer = _write(edition, own)
    except (dsl.Unsupported, TypeError, ValueError, RecursionError):
        return None
    prologue = [f"        {local} = _tally({name})" for name, local in _FIXED.items() if local in writer.fixed_used]
    prologue += [f"        {local} = frozenset({name})" for name, local in _SETS.items() if local in writer.fixed_used]
    source = "\n".join([
        f"def make({writer.shared.names()}):",
        "    def own_value(g_cards, g_visited, previous, used, races, g_players, g_round, g_rounds, end_before):",
        "        g_throw = g_cards[0]",
        "        g_catch = g_cards[-1]",
        *prologue,
        *writer.lines,
        "    return own_value",
        "",
    ])
    namespace = dict(dsl.HELPERS, _FAILED=_FAILED, frozenset=frozenset)
    try:
        exec(compile(source, "<own value>", "exec"), namespace)  # built from the checked trees only
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None
    return namespace["make"](*writer.shared.constants)
