"""Name and type checking of a parsed expression, before any game is played.

Reports every problem it finds (unknown names and symbols, wrong arity, wrong types, numbers too
large) with the offsets of the offending part, and records how each name and symbol resolved for
the compiler. Functions are checked from their declarations in builtins.py; given the edition's
bounds, a well-typed expression is then held to the work budget (budget.py). It never evaluates
game data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import suggest
from .ast import Visitor
from .budget import MAX_NUMBER, MAX_WORK, Bounds, worst_case
from .builtins import ATTRIBUTES, REGISTRY
from .signatures import IconsOf, ItemOf
from .types import (
    ANY,
    BOOL,
    ERROR,
    FAMILY,
    NUMBER,
    IconOfFamilies,
    IconType,
    LinesType,
    ListType,
    OptionsType,
    Scope,
    compatible,
    unify,
)


@dataclass(frozen=True)
class Problem:
    message: str
    start: int
    end: int
    code: str
    hint: str | None = None


@dataclass
class Checked:
    type: object
    resolved: dict = field(default_factory=dict)  # id(node) -> constant value
    problems: list = field(default_factory=list)
    node: object = None  # the parsed expression (None: it did not parse)
    text: str = ""


@dataclass(frozen=True)
class Symbols:
    """The quoted names an edition defines: text -> (type, value)."""

    table: dict
    families: dict  # family key -> Family (with .valued)
    lenient: bool = False  # part of the edition is broken: an unknown name may be one of its names, so stay quiet


def join(a, b):
    """unify(a, b), remembering which families an icon of mixed families can come from."""
    common = unify(a, b)
    if isinstance(common, ListType) and isinstance(a, ListType) and isinstance(b, ListType):
        item = join(a.item, b.item)
        return common if item is None else ListType(item)
    if isinstance(common, IconType) and common.family is None and isinstance(a, IconType) and isinstance(b, IconType):
        families = _families(a) | _families(b)
        if None not in families:
            return IconOfFamilies(None, frozenset(families))
    return common


def _families(icon: IconType) -> set:
    return set(icon.families) if isinstance(icon, IconOfFamilies) else {icon.family}


MAX_NESTED_LOOPS = 3  # with lists of at most a few dozen cards or icons, evaluation stays well under a million steps
ARITHMETIC = {"+", "-", "*", "//", "%"}
ORDERING = {"<", "<=", ">", ">="}
EQUALITY = {"==", "!="}


class Checker(Visitor):
    def __init__(self, scope: Scope, symbols: Symbols):
        self.scope = scope
        self.symbols = symbols
        self.result = Checked(ERROR)
        self.locals: list[tuple[str, object]] = []
        self.loops = 0

    def problem(self, node, message, code, hint=None, start=None, end=None):
        self.result.problems.append(
            Problem(message, node.start if start is None else start, node.end if end is None else end, code, hint)
        )

    def run(self, node) -> Checked:
        self.result.type = self.visit(node)
        return self.result

    def visit_Number(self, node):
        if node.value > MAX_NUMBER:
            digits = str(node.value)
            shown = digits if len(digits) <= 20 else f"{digits[:8]}... ({len(digits)} digits)"
            self.problem(
                node, f"the number {shown} is too large: numbers in expressions are at most {MAX_NUMBER:,}", "D211"
            )
        return NUMBER

    def visit_Bool(self, node):
        return BOOL

    def visit_Symbol(self, node):
        entry = self.symbols.table.get(node.text)
        if entry is None and self.symbols.lenient:
            return ERROR
        if entry is None:
            bare = node.text in self.scope.variables or node.text in self.scope.constants
            hint = (
                f"names of families, tables, card sets and variables are written without quotes: {node.text}"
                if bare
                else None
            )
            self.problem(
                node,
                f"unknown name '{node.text}'",
                "D201",
                hint
                or suggest(node.text, self.symbols.table)
                or "quoted names are icons, regions and card letters of this edition",
            )
            return ERROR
        type_, value = entry
        self.result.resolved[id(node)] = value
        return type_

    def visit_Name(self, node):
        for name, type_ in reversed(self.locals):
            if name == node.name:
                return type_
        if node.name in self.scope.variables:
            return self.scope.variables[node.name]
        if node.name in self.scope.constants:
            type_, value = self.scope.constants[node.name]
            self.result.resolved[id(node)] = value
            return type_
        if node.name in self.scope.unavailable:
            self.problem(node, f"'{node.name}' cannot be used here", "D203", self.scope.unavailable[node.name])
            return ERROR
        if node.name in self.symbols.table:
            self.problem(
                node,
                f"unknown name '{node.name}'",
                "D202",
                f"quote it to mean the {self.symbols.table[node.name][0]}: '{node.name}'",
            )
            return ERROR
        if self.symbols.lenient:
            return ERROR
        known = [n for n, _ in self.locals] + list(self.scope.variables) + list(self.scope.constants)
        self.problem(node, f"unknown name '{node.name}'", "D202", suggest(node.name, known) or known_names(known))
        return ERROR

    def visit_Attribute(self, node):
        target = self.visit(node.target)
        if target == ERROR:
            return ERROR
        if target == ANY:  # an item of the empty list `[]`: never evaluated (found by fuzzing)
            types = {fields[node.name] for fields in ATTRIBUTES.values() if node.name in fields}
            if not types:
                names = sorted({name for fields in ATTRIBUTES.values() for name in fields})
                self.problem(
                    node,
                    f"nothing has an attribute '{node.name}'",
                    "D204",
                    suggest(node.name, names) or f"attributes: {', '.join(names)}",
                )
                return ERROR
            return types.pop() if len(types) == 1 else ANY
        if isinstance(target, LinesType):
            if node.name in target.keys:
                return ListType(NUMBER)
            lines = ", ".join(target.keys) or "none"
            self.problem(node, f"the sheet has no round line '{node.name}'", "D204",
                         suggest(node.name, target.keys) or f"its round lines: {lines}")
            return ERROR
        if isinstance(target, OptionsType):
            if target.keys is None or node.name in target.keys:   # None: the declaration was cut (a schema error)
                return NUMBER
            known = ", ".join(target.keys) or "none"
            self.problem(node, f"no seat option '{node.name}'", "D204",
                         suggest(node.name, target.keys) or f"the edition's seat options: {known}")
            return ERROR
        fields = ATTRIBUTES.get(target)
        if not fields:
            self.problem(node, f"a {target} has no attribute '{node.name}'", "D204")
            return ERROR
        if node.name not in fields:
            self.problem(
                node,
                f"a {target} has no attribute '{node.name}'",
                "D204",
                suggest(node.name, fields) or f"it has: {', '.join(fields)}",
            )
            return ERROR
        return fields[node.name]

    def visit_Unary(self, node):
        operand = self.visit(node.operand)
        want = NUMBER if node.op == "-" else BOOL
        if not compatible(want, operand):
            self.problem(node.operand, f"'{node.op}' needs a {want}, got {operand}", "D205")
        return want

    def visit_Binary(self, node):
        left = self.visit(node.left)
        right = self.visit(node.right)
        op = node.op
        if op in ARITHMETIC or op in ORDERING:
            for side, type_ in ((node.left, left), (node.right, right)):
                if not compatible(NUMBER, type_):
                    self.problem(
                        side,
                        f"'{op}' needs numbers, got {type_}",
                        "D205",
                        "count(...), len(...) or .number give numbers"
                        if isinstance(type_, (ListType, IconType))
                        else None,
                    )
            return NUMBER if op in ARITHMETIC else BOOL
        if op in EQUALITY:
            if unify(left, right) is None:
                self.problem(node, f"cannot compare {left} with {right}", "D205")
            return BOOL
        if op in ("and", "or"):
            for side, type_ in ((node.left, left), (node.right, right)):
                if not compatible(BOOL, type_):
                    self.problem(side, f"'{op}' needs true/false values, got {type_}", "D205")
            return BOOL
        # in / not in
        if right != ERROR and not isinstance(right, ListType) and right != ANY:
            self.problem(node.right, f"'{op}' needs a list on its right, got {right}", "D205")
        elif isinstance(right, ListType) and not compatible(right.item, left):
            self.problem(node.left, f"looking for a {left} in a {right}", "D205")
        return BOOL

    def visit_If(self, node):
        condition = self.visit(node.condition)
        if not compatible(BOOL, condition):
            self.problem(node.condition, f"the condition of 'if' must be true/false, got {condition}", "D205")
        then, otherwise = self.visit(node.then), self.visit(node.otherwise)
        common = join(then, otherwise)
        if common is None:
            self.problem(node, f"the branches of 'if' differ: {then} and {otherwise}", "D205")
            return ERROR
        return common

    def visit_Let(self, node):
        value = self.visit(node.value)
        self.locals.append((node.name, value))
        try:
            return self.visit(node.body)
        finally:
            self.locals.pop()

    def visit_Comprehension(self, node):
        """The list it goes through is built once, at the depth of the comprehension itself; only its
        `if` and its items run once per item, so only they count as nested (a chain of lists built
        from lists adds work, it does not multiply it)."""
        source = self.visit(node.source)
        self.loops += 1
        try:
            if self.loops > MAX_NESTED_LOOPS:
                self.problem(
                    node,
                    f"more than {MAX_NESTED_LOOPS} lists built one inside another",
                    "D209",
                    "each nested '[... for ...]' multiplies the work; use 'let' to build a list once",
                )
            return self._comprehension(node, source)
        finally:
            self.loops -= 1

    def _comprehension(self, node, source):
        item = ERROR
        if isinstance(source, ListType):
            item = source.item
        elif source not in (ERROR, ANY):
            self.problem(node.source, f"'for' needs a list to go through, got {source}", "D205")
        self.locals.append((node.name, item))
        try:
            if node.condition is not None:
                condition = self.visit(node.condition)
                if not compatible(BOOL, condition):
                    self.problem(node.condition, f"the 'if' of a list must be true/false, got {condition}", "D205")
            return ListType(self.visit(node.element))
        finally:
            self.locals.pop()

    def visit_ListLiteral(self, node):
        item = ANY
        for child in node.items:
            type_ = self.visit(child)
            common = join(item, type_)
            if common is None:
                self.problem(child, f"a list holds items of one type: {item} and {type_}", "D205")
            else:
                item = common
        return ListType(item)

    def visit_Call(self, node):
        entry = REGISTRY.get(node.function)
        arg_types = [self.visit(arg) for arg in node.args]
        if entry is None:
            self.problem(
                node,
                f"unknown function '{node.function}'",
                "D206",
                suggest(node.function, REGISTRY) or f"functions: {', '.join(sorted(REGISTRY))}",
                end=node.name_end,
            )
            return ERROR
        count = len(arg_types)
        if not entry.min_args <= count <= entry.max_args:
            wanted = (
                str(entry.min_args) if entry.min_args == entry.max_args else f"{entry.min_args} to {entry.max_args}"
            )
            self.problem(
                node,
                f"'{node.function}' takes {wanted} argument{'s' if wanted != '1' else ''}, got {count}",
                "D207",
                entry.summary,
            )
            if isinstance(entry.result, ItemOf):
                return ERROR
            return NUMBER if isinstance(entry.result, IconsOf) else entry.result
        for index, got in enumerate(arg_types):
            if got == ERROR:  # already reported where it arose
                continue
            message = entry.param(index, count).problem(got, self.symbols.families, arg_types)
            if message:
                self.problem(
                    node.args[index], f"argument {index + 1} of '{node.function}': {message}", "D205", entry.summary
                )
        if isinstance(entry.result, IconsOf):
            index = entry.result.index
            family = self.result.resolved.get(id(node.args[index])) if arg_types[index] == FAMILY else None
            return ListType(IconType(family.key) if family else ERROR)  # no family: already reported
        if isinstance(entry.result, ItemOf):
            items = arg_types[entry.result.index]
            return items.item if isinstance(items, ListType) else ERROR if items != ANY else ANY
        return entry.result


def check(node, scope: Scope, symbols: Symbols, bounds: Bounds | None = None) -> Checked:
    """Names and types; then, given the edition's bounds and when all is well, the work budget."""
    checked = Checker(scope, symbols).run(node)
    if bounds is not None and not checked.problems:
        work, where = worst_case(node, bounds, scope.variables, checked.resolved)
        if where is not None:
            message = f"this can take {work:,} steps to evaluate, more than the budget of {MAX_WORK:,}"
            hint = (
                "'[... for x in list]' does its work once per item of the list: go through a shorter list, "
                "or build a list once with 'let', outside the loop"
            )
            checked.problems.append(Problem(message, where.start, where.end, "D210", hint))
    return checked


def known_names(names) -> str:
    """The hint for an unknown name nothing is close to: the names this expression may use."""
    unique = list(dict.fromkeys(names))
    if not unique:
        return "this expression may use no name"
    return f"names here: {', '.join(unique)}"
