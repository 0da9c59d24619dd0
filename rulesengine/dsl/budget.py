"""The worst-case work of one evaluation of a checked expression, so that an edition that validates
also plays: an expression over the edition's largest lists must stay within MAX_WORK steps.

The edition gives the largest size of every list an expression can meet (Bounds); the builtins give
how their work grows (their cost class). A step is one node evaluated or one list item gone
through. Numbers are bounded too: a literal above MAX_NUMBER is refused, a product above it fails
when played. This module only counts; it never evaluates game data. See docs/limits.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .ast import Visitor, children
from .builtins import A_FAMILY, ICONS, ITEMS, MAP, ONE, REGISTRY, RESULT, IconsOf, ItemOf
from .types import ListType

MAX_WORK = 100_000        # steps of one evaluation; the shipped editions need at most 300
MAX_NUMBER = 10**15       # far beyond any score; keeps repeated squaring from growing numbers without end


@dataclass(frozen=True)
class Bounds:
    """The largest size of every list an edition can give an expression."""

    deck: int                                        # cards in the deck: no list of cards is longer
    variables: dict = field(default_factory=dict)    # game variable -> its largest length (cards, others, visited)
    region_cards: int = 0                            # the most cards in one region (region.cards)
    icons_per_card: int = 0                          # the most icons printed on one card
    paths: int = 0                                   # paths of the map
    family_icons: int = 0                            # the most icons in one family


def _longest(a: tuple, b: tuple) -> tuple:
    """The shape holding both: the larger length at each level of nesting."""
    if len(a) < len(b):
        a, b = b, a
    return tuple(max(x, y) for x, y in zip(a, b, strict=False)) + a[len(b):]


class _Work(Visitor):
    """Each visit gives (shape, work): shape is the largest length at each level of a list (() for
    anything else), work the steps one evaluation can take."""

    def __init__(self, bounds: Bounds, variables: dict, resolved: dict):
        self.bounds = bounds
        self.variables = variables      # name -> type, the scope's game variables
        self.resolved = resolved        # id(node) -> edition constant
        self.locals: list[tuple[str, tuple]] = []
        self.work: dict[int, int] = {}  # id(node) -> its work, to point at the part over budget

    def visit(self, node):
        shape, work = super().visit(node)
        self.work[id(node)] = work
        return shape, work

    def visit_Number(self, node):
        return (), 1

    visit_Bool = visit_Symbol = visit_Number

    def visit_Name(self, node):
        for name, shape in reversed(self.locals):
            if name == node.name:
                return shape, 1
        if id(node) in self.resolved:
            value = self.resolved[id(node)]
            return ((len(value),) if isinstance(value, tuple) else ()), 1
        if isinstance(self.variables.get(node.name), ListType):
            return (self.bounds.variables.get(node.name, self.bounds.deck),), 1
        return (), 1

    def visit_Attribute(self, node):
        _, work = self.visit(node.target)
        # `cards` of a region or of a seat, `visited` of a seat
        sizes = {"cards": max(self.bounds.region_cards, self.bounds.variables.get("cards", 0)),
                 "visited": self.bounds.variables.get("visited", self.bounds.deck)}
        return ((sizes[node.name],) if node.name in sizes else ()), work + 1

    def visit_Unary(self, node):
        return (), self.visit(node.operand)[1] + 1

    def visit_Binary(self, node):
        (left, left_work), (right, right_work) = self.visit(node.left), self.visit(node.right)
        items = 0
        if node.op in ("in", "not in"):
            items = right[0] if right else 0
        elif node.op in ("==", "!="):
            items = max(left[0] if left else 0, right[0] if right else 0)
        return (), left_work + right_work + items + 1

    def visit_If(self, node):
        _, condition = self.visit(node.condition)
        (then, then_work), (otherwise, otherwise_work) = self.visit(node.then), self.visit(node.otherwise)
        return _longest(then, otherwise), condition + max(then_work, otherwise_work) + 1

    def visit_Let(self, node):
        shape, work = self.visit(node.value)
        self.locals.append((node.name, shape))
        try:
            body, body_work = self.visit(node.body)
        finally:
            self.locals.pop()
        return body, work + body_work + 1

    def visit_Comprehension(self, node):
        source, work = self.visit(node.source)
        length = source[0] if source else 0
        self.locals.append((node.name, source[1:]))
        try:
            condition = self.visit(node.condition)[1] if node.condition is not None else 0
            element, element_work = self.visit(node.element)
        finally:
            self.locals.pop()
        return (length,) + element, work + 1 + length * (condition + element_work + 1)

    def visit_ListLiteral(self, node):
        shape, work = (), 1
        for item in node.items:
            item_shape, item_work = self.visit(item)
            shape, work = _longest(shape, item_shape), work + item_work
        return (len(node.items),) + shape, work

    def visit_Call(self, node):
        entry = REGISTRY[node.function]
        visited = [self.visit(arg) for arg in node.args]
        work = sum(w for _, w in visited) + 1
        items = sum(shape[0] for shape, _ in visited if shape)
        count = len(node.args)
        families = [self.resolved.get(id(a)) for i, a in enumerate(node.args) if entry.param(i, count) is A_FAMILY]
        family = families[0] if families else None
        steps = {   # by cost class; a list it gives (icons, kinds) is as long as its steps
            ONE: 0, ITEMS: items, ICONS: items * self.bounds.icons_per_card,
            RESULT: len(family.icons) if family is not None else self.bounds.family_icons,
            MAP: items + 2 * self.bounds.paths,
        }[entry.cost]
        if isinstance(entry.result, ItemOf):
            return visited[entry.result.index][0][1:], work + steps
        gives_list = isinstance(entry.result, (ListType, IconsOf))
        return ((steps,) if gives_list else ()), work + steps


def worst_case(node, bounds: Bounds, variables: dict, resolved: dict) -> tuple[int, object]:
    """The work of one evaluation of node at worst (None when within MAX_WORK), or the smallest
    part of it over MAX_WORK (node itself when no single part is) and that part's work."""
    counter = _Work(bounds, variables, resolved)
    _, work = counter.visit(node)
    if work <= MAX_WORK:
        return work, None
    where = node
    while True:
        over = [child for child in children(where) if counter.work.get(id(child), 0) > MAX_WORK]
        if not over:
            return counter.work[id(where)], where
        where = over[0]
