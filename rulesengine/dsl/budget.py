"""The worst case of one evaluation of a checked expression, so that an edition that validates also
plays: its work (steps) within MAX_WORK, and the numbers it can give.

The edition gives the largest size of every list an expression can meet (Bounds) and the largest
number every game variable can hold (numbers); the builtins give how their work grows (their cost
class). A step is one node evaluated or one list item gone through; comparing two values costs
their whole size, nested lists and seats included (Python compares a list of lists item by item,
so twelve `let`s of lists of lists cost 28^12 steps to compare, not 28). Numbers: a literal above
MAX_NUMBER is refused, a product above it fails when played (R501), and largest_number bounds every
sum and difference from the numbers it is given (edition/guarantee.py refuses one above
MAX_NUMBER). This module only counts; it never evaluates game data. See docs/limits.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from .ast import Name, Visitor, children
from .builtins import ICONS, ITEMS, MAP, ONE, REGISTRY, RESULT
from .signatures import A_FAMILY, IconsOf, ItemOf
from .types import SEAT, LinesType, ListType, OptionsType

MAX_WORK = 100_000        # steps of one evaluation; the shipped editions need at most 300
MAX_NUMBER = 10**15       # far beyond any score; keeps repeated squaring from growing numbers without end


@dataclass(frozen=True)
class Bounds:
    """The largest size of every list an edition can give an expression, and the largest numbers."""

    deck: int                                        # cards in the deck: no list of cards is longer
    variables: dict = field(default_factory=dict)    # game variable -> its largest length (cards, others, visited,
    #                                                  opponents, round_totals, lines)
    region_cards: int = 0                            # the most cards in one region (region.cards)
    icons_per_card: int = 0                          # the most icons printed on one card
    paths: int = 0                                   # paths of the map
    family_icons: int = 0                            # the most icons in one family
    card_number: int = 0                             # the largest number printed on a card
    region_bonus: int = 0                            # the largest bonus of a region
    icon_value: int = 0                              # the largest value of an icon


def _longest(a: tuple, b: tuple) -> tuple:
    """The shape holding both: the larger length at each level of nesting."""
    if len(a) < len(b):
        a, b = b, a
    return tuple(max(x, y) for x, y in zip(a, b, strict=False)) + a[len(b):]


def _size(shape: tuple) -> int:
    """What comparing a value of this shape with another costs at worst: every item at every level."""
    return prod(shape) if shape else 1


@dataclass(frozen=True)
class Value:
    """What a visit knows of a part: the largest length at each level of its lists (() for anything
    else; a seat is its cards and visited sites, (2, n)), the steps of one evaluation, the largest
    number it can give (of a list of numbers: of an item)."""

    shape: tuple
    work: int
    largest: int = 0


class _Work(Visitor):
    def __init__(self, bounds: Bounds, variables: dict, resolved: dict, numbers: dict | None):
        self.bounds = bounds
        self.variables = variables      # name -> type, the scope's game variables
        self.resolved = resolved        # id(node) -> edition constant
        self.numbers = numbers or {}    # game variable -> the largest number it holds (an item, for a list)
        self.locals: list[tuple[str, Value]] = []
        self.seat = (2, max(bounds.variables.get("cards", 0), bounds.variables.get("visited", bounds.deck)))
        self.work: dict[int, int] = {}  # id(node) -> its work, to point at the part over budget
        self.largest: dict[int, int] = {}  # id(node) -> the largest number it gives

    def visit(self, node) -> Value:
        value = super().visit(node)
        self.work[id(node)] = value.work
        self.largest[id(node)] = value.largest
        return value

    def visit_Number(self, node):
        return Value((), 1, abs(node.value))

    def visit_Bool(self, node):
        return Value((), 1)

    def visit_Symbol(self, node):
        return Value((), 1)

    def visit_Name(self, node):
        for name, value in reversed(self.locals):
            if name == node.name:
                return Value(value.shape, 1, value.largest)
        if id(node) in self.resolved:
            constant = self.resolved[id(node)]
            if isinstance(constant, tuple):
                return Value((len(constant),), 1)
            return Value((), 1, abs(constant) if isinstance(constant, int) and not isinstance(constant, bool) else 0)
        kind = self.variables.get(node.name)
        largest = self.numbers.get(node.name, 0)
        if kind == SEAT:
            return Value(self.seat, 1)
        if isinstance(kind, ListType):
            length = self.bounds.variables.get(node.name, self.bounds.deck)
            return Value((length,) + (self.seat if kind.item == SEAT else ()), 1, largest)
        return Value((), 1, largest)

    def visit_Attribute(self, node):
        target = self.visit(node.target)
        bounds = self.bounds
        name = node.target.name if isinstance(node.target, Name) else None
        global_ = name and all(local != name for local, _ in self.locals)
        if global_ and isinstance(self.variables.get(name), LinesType):
            rounds = bounds.variables.get("lines", 0)
            return Value((rounds,), target.work + 1, self.numbers.get(f"lines.{node.name}", 0))
        if global_ and isinstance(self.variables.get(name), OptionsType):   # a seat option: a number in its range
            return Value((), target.work + 1, self.numbers.get(f"options.{node.name}", 0))
        # `cards` of a region or of a seat, `visited` of a seat; a card's number, a region's bonus
        sizes = {"cards": max(bounds.region_cards, bounds.variables.get("cards", 0)),
                 "visited": bounds.variables.get("visited", bounds.deck)}
        largest = {"number": bounds.card_number, "bonus": bounds.region_bonus}.get(node.name, 0)
        return Value(((sizes[node.name],) if node.name in sizes else ()), target.work + 1, largest)

    def visit_Unary(self, node):
        operand = self.visit(node.operand)
        return Value((), operand.work + 1, operand.largest if node.op == "-" else 0)

    def visit_Binary(self, node):
        left, right = self.visit(node.left), self.visit(node.right)
        steps, largest = 0, 0
        if node.op in ("in", "not in"):  # each item of the list compared with the left value, in full
            steps = right.shape[0] * max(_size(left.shape), _size(right.shape[1:])) if right.shape else 0
        elif node.op in ("==", "!="):
            steps = _size(_longest(left.shape, right.shape)) if left.shape or right.shape else 0
        elif node.op in ("+", "-"):
            largest = left.largest + right.largest
        elif node.op == "*":
            largest = min(left.largest * right.largest, MAX_NUMBER)  # a larger product fails when played
        elif node.op == "//":
            largest = left.largest
        elif node.op == "%":
            largest = min(left.largest, right.largest)
        return Value((), left.work + right.work + steps + 1, largest)

    def visit_If(self, node):
        condition = self.visit(node.condition)
        then, otherwise = self.visit(node.then), self.visit(node.otherwise)
        return Value(_longest(then.shape, otherwise.shape), condition.work + max(then.work, otherwise.work) + 1,
                     max(then.largest, otherwise.largest))

    def visit_Let(self, node):
        value = self.visit(node.value)
        self.locals.append((node.name, value))
        try:
            body = self.visit(node.body)
        finally:
            self.locals.pop()
        return Value(body.shape, value.work + body.work + 1, body.largest)

    def visit_Comprehension(self, node):
        source = self.visit(node.source)
        length = source.shape[0] if source.shape else 0
        self.locals.append((node.name, Value(source.shape[1:], 1, source.largest)))
        try:
            condition = self.visit(node.condition).work if node.condition is not None else 0
            element = self.visit(node.element)
        finally:
            self.locals.pop()
        return Value((length,) + element.shape, source.work + 1 + length * (condition + element.work + 1),
                     element.largest)

    def visit_ListLiteral(self, node):
        shape, work, largest = (), 1, 0
        for item in node.items:
            value = self.visit(item)
            shape, work, largest = _longest(shape, value.shape), work + value.work, max(largest, value.largest)
        return Value((len(node.items),) + shape, work, largest)

    def visit_Call(self, node):
        entry = REGISTRY[node.function]
        visited = [self.visit(arg) for arg in node.args]
        work = sum(v.work for v in visited) + 1
        items = sum(v.shape[0] for v in visited if v.shape)
        count = len(node.args)
        families = [self.resolved.get(id(a)) for i, a in enumerate(node.args) if entry.param(i, count) is A_FAMILY]
        family = families[0] if families else None
        bounds = self.bounds
        steps = {   # by cost class; a list it gives (icons, kinds) is as long as its steps
            ONE: 0, ITEMS: items, ICONS: items * bounds.icons_per_card,
            RESULT: len(family.icons) if family is not None else bounds.family_icons,
            MAP: items + 2 * bounds.paths,
        }[entry.cost]
        largest = self._largest_of_call(node, visited, items)
        if isinstance(entry.result, ItemOf):
            return Value(visited[entry.result.index].shape[1:], work + steps, largest)
        gives_list = isinstance(entry.result, (ListType, IconsOf))
        return Value(((steps,) if gives_list else ()), work + steps, largest)

    def _largest_of_call(self, node, visited: list, items: int) -> int:
        """The largest number a call gives (of a list of numbers: an item)."""
        function, largest = node.function, max((v.largest for v in visited), default=0)
        if function in ("abs", "min", "max", "first", "last", "largest"):
            return max((v.largest for v in visited[1:]), default=0) if function == "largest" else largest
        if function == "sum":
            return items * largest
        if function == "len":
            return max((v.shape[0] for v in visited if v.shape), default=0)
        if function == "count":
            return items * self.bounds.icons_per_card
        if function == "value":
            return self.bounds.icon_value
        if function == "lookup":
            table = self.resolved.get(id(node.args[0]))
            rows = getattr(table, "rows", None) or {0: MAX_NUMBER}
            default = visited[2].largest if len(visited) == 3 else 0
            return max(max(abs(v) for v in rows.values()), default)
        return 0


def _over(counter: _Work, node, table: dict, limit: int):
    """The smallest part of node over limit in table (node itself when no single part is)."""
    where = node
    while True:
        over = [child for child in children(where) if table.get(id(child), 0) > limit]
        if not over:
            return where
        where = over[0]


def worst_case(node, bounds: Bounds, variables: dict, resolved: dict) -> tuple[int, object]:
    """The work of one evaluation of node at worst (None when within MAX_WORK), or the smallest
    part of it over MAX_WORK (node itself when no single part is) and that part's work."""
    counter = _Work(bounds, variables, resolved, None)
    work = counter.visit(node).work
    if work <= MAX_WORK:
        return work, None
    where = _over(counter, node, counter.work, MAX_WORK)
    return counter.work[id(where)], where


def largest_number(node, bounds: Bounds, variables: dict, resolved: dict, numbers: dict) -> tuple[int, object]:
    """The largest number node can give (of a list: an item), given the largest each game variable
    holds (numbers; `lines.KEY` for a round line), and the smallest part over MAX_NUMBER or None."""
    counter = _Work(bounds, variables, resolved, numbers)
    largest = counter.visit(node).largest
    if max(counter.largest.values(), default=0) <= MAX_NUMBER:
        return largest, None
    where = _over(counter, node, counter.largest, MAX_NUMBER)
    return counter.largest[id(where)], where
