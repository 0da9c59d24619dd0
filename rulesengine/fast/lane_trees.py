"""The checked trees of an edition's scoring as closures on a batch of hands in numpy arrays: the lanes' compiler.

fast/lanes.py values hands with them (its module docstring says what a hand is made of and how each form of the
language becomes array code). Each compiled tree is f(hand) -> (its value, where it failed or None), hand a Hand:
the icon counts (lanes x seats x cards x icons), the numbers of its Throw and Catch, its visited sites as an int64
mask. A node this does not translate raises Unsupported naming it.
"""

from __future__ import annotations

import numpy as np

from ..dsl import ast
from ..dsl.budget import MAX_NUMBER
from ..dsl.program.expression import stays_small
from ..dsl.program.helpers import card_mask
from .cards import Unsupported

_FAMILY_SOURCES = ("kinds", "icons")
_MISSING = object()
_ARITHMETIC = {"+": np.add, "-": np.subtract, "*": np.multiply, "==": np.equal, "!=": np.not_equal, "<": np.less,
               "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}


class Hand:
    """A batch of hands (lanes x seats x cards) as the compiled trees read it."""

    __slots__ = ("counts", "visited", "throw", "catch", "previous", "at", "names")

    def __init__(self, counts, visited, throw, catch, at):
        self.counts, self.visited, self.throw, self.catch, self.at = counts, visited, throw, catch, at
        self.previous, self.names = 0, {}



def zero_where_failed(run):
    def points(hand):
        value, failed = run(hand)
        return value if failed is None else np.where(failed, 0, value)
    return points


def qualified_by(run):
    def qualified(hand):
        value, failed = run(hand)
        return value if failed is None else value & ~failed
    return qualified


def chosen_points(lanes, category):
    """f(hand, choosable): a choice category's points at its best icon among those the seat may choose (0 with
    none; an icon whose requires fails or is not met is not chosen; points that fail count 0)."""
    scope = {"choice": _Icons(tuple(category.choice.family.icons))}
    requires = category.choice.requires
    met = compile_tree(lanes, requires, scope) if requires is not None else None
    score = compile_tree(lanes, category.score, scope)

    def chosen(hand, choosable):
        ok = choosable
        if met is not None:
            test, failed = met(hand)
            ok = ok & (test if failed is None else test & ~failed)
        points, failed = score(hand)
        if failed is not None:
            points = np.where(failed, 0, points)
        points, ok = _align(np.asarray(points), ok)
        return np.maximum(np.where(ok, points, 0).max(axis=-1), 0)
    return chosen


def compile_tree(lanes, expression, scope: dict):
    """f(hand) -> (its value, where it failed or None) for this checked expression; Unsupported naming the node."""
    if expression.tree is None:
        raise Unsupported("an expression without its checked tree")
    node, resolved, _ = expression.tree
    try:
        return _Compiler(lanes, resolved, scope).visit(node)
    except Unsupported as error:
        raise Unsupported(f"{error} in '{expression.text.strip()}'") from None


class _Compiler(ast.Visitor):
    """A checked tree as closures on a batch of hands (Hand), its constants worked out once."""

    def __init__(self, lanes, resolved: dict, scope: dict):
        self.lanes, self.resolved, self.scope = lanes, resolved, dict(scope)
        self.lets: list = []   # the names a let binds around the node being compiled

    def visit_other(self, node):
        raise Unsupported(type(node).__name__)

    def static(self, node):
        """What a name stands for when compiling (an edition constant, an icon or region axis, a hand's own
        variable), or _MISSING for a value of the hands."""
        if isinstance(node, ast.Symbol | ast.Name) and id(node) in self.resolved:
            return self.resolved[id(node)]
        if isinstance(node, ast.Name):
            if node.name in self.scope:
                return self.scope[node.name]
            if node.name in ("cards", "visited", "throw", "catch"):
                return _Own(node.name)
        return _MISSING

    def visit_Number(self, node):
        value = node.value
        return lambda hand: (value, None)

    visit_Bool = visit_Number

    def visit_Symbol(self, node):
        value = self.resolved[id(node)]
        if isinstance(value, bool | int):
            return lambda hand: (value, None)
        raise Unsupported(f"the constant {node.text!r}")

    def visit_Name(self, node):
        known = self.static(node)
        if isinstance(known, bool | int):
            return lambda hand: (known, None)
        if known is not _MISSING:
            raise Unsupported(f"{node.name!r} but as the calls read it")
        name = node.name
        if name == "previous":
            return lambda hand: (hand.previous, None)
        if name in ("players", "round", "rounds"):
            return lambda hand: (getattr(hand.at, name), None)
        if name not in self.lets:
            raise Unsupported(f"the variable {name!r}")
        return lambda hand: hand.names[name]   # a let's (value, where it failed)

    def visit_Attribute(self, node):
        target = self.static(node.target)
        if isinstance(target, _Own) and target.name in ("throw", "catch") and node.name == "number":
            side = target.name
            return lambda hand: (getattr(hand, side), None)
        raise Unsupported(f"'.{node.name}'")

    def visit_Unary(self, node):
        operand = self.visit(node.operand)
        if node.op == "-":
            def negative(hand):
                value, failed = operand(hand)
                return -value, failed
            return negative

        def negated(hand):
            value, failed = operand(hand)
            return (~value if isinstance(value, np.ndarray) else not value), failed
        return negated

    def visit_Binary(self, node):
        left, right, op = self.visit(node.left), self.visit(node.right), node.op
        if op in ("and", "or"):
            def logical(hand):   # both sides worked out: a failure of the side not read is no failure
                (a, fa), (b, fb) = left(hand), right(hand)
                a, b = _align(a, b)
                value = (a & b) if op == "and" else (a | b)
                if fb is not None:
                    read = a if op == "and" else ~a if isinstance(a, np.ndarray) else not a
                    fb = fb & read if isinstance(read, np.ndarray) else (fb if read else None)
                return value, _or(fa, fb)
            return logical
        if op in ("//", "%"):
            divisor = node.right
            if not isinstance(divisor, ast.Number) or divisor.value == 0:
                raise Unsupported(f"'{op}' by anything but a constant")
            by = divisor.value

            def divided(hand):
                value, failed = left(hand)
                return (value // by if op == "//" else value % by), failed
            return divided
        if op not in _ARITHMETIC:
            raise Unsupported(f"the operator {op!r}")
        if op == "*" and not (stays_small(node.left, self.resolved) and stays_small(node.right, self.resolved)):
            return _capped(left, right)
        function = _ARITHMETIC[op]

        def arithmetic(hand):
            (a, fa), (b, fb) = left(hand), right(hand)
            a, b = _align(a, b)
            return function(a, b), _or(fa, fb)
        return arithmetic

    def visit_If(self, node):
        condition, then, otherwise = self.visit(node.condition), self.visit(node.then), self.visit(node.otherwise)

        def choose(hand):
            test, failed = condition(hand)
            (a, fa), (b, fb) = then(hand), otherwise(hand)
            if test is True or test is False:
                return (a, _or(failed, fa)) if test else (b, _or(failed, fb))
            test, a = _align(test, np.asarray(a))
            test, b = _align(test, np.asarray(b))
            branches = None
            if fa is not None or fb is not None:
                branches = np.where(test, False if fa is None else fa, False if fb is None else fb)
            return np.where(test, a, b), _or(failed, branches)
        return choose

    def visit_Let(self, node):
        if node.name in self.scope or node.name in ("previous", "players", "round", "rounds", "cards", "visited",
                                                    "throw", "catch"):
            raise Unsupported(f"a let hiding {node.name!r}")
        value, name = self.visit(node.value), node.name
        self.lets.append(name)
        try:
            body = self.visit(node.body)
        finally:
            self.lets.pop()

        def let(hand):
            saved = hand.names.get(name, _MISSING)
            hand.names[name] = value(hand)
            try:
                return body(hand)
            finally:
                if saved is _MISSING:
                    del hand.names[name]
                else:
                    hand.names[name] = saved
        return let

    def visit_Call(self, node):
        call = getattr(self, "_call_" + node.function, None)
        if call is None:
            raise Unsupported(f"{node.function}()")
        return call(node)

    def _call_abs(self, node):
        run = self.visit(node.args[0])

        def absolute(hand):
            value, failed = run(hand)
            return np.abs(value), failed
        return absolute

    def _call_len(self, node):
        target = self.static(node.args[0])
        if not isinstance(target, _Own) or target.name != "visited":
            raise Unsupported("len() of anything but the visited cards")
        return lambda hand: (np.bitwise_count(hand.visited).astype(np.int64), None)

    def _call_value(self, node):
        target = self.static(node.args[0])
        if not isinstance(target, _Icons):
            raise Unsupported("value() of anything but a family's icon")
        values = np.array([self._icon_value(icon) for icon in target.icons], np.int64)
        return lambda hand: (values, None)

    def _icon_value(self, icon):
        for family in self.lanes.edition.families.values():
            if icon in family.icons and isinstance((family.values or {}).get(icon), int):
                return family.values[icon]
        raise Unsupported(f"value() of the icon {icon!r}")

    def _call_count(self, node):
        icon, where = self.static(node.args[0]), self.static(node.args[1])
        if not isinstance(where, _Own) or where.name != "cards":
            raise Unsupported("count() of anything but the seat's cards")
        at = self.lanes.at
        if isinstance(icon, _Icons):
            index = np.array([at[i] for i in icon.icons])
        elif isinstance(icon, str) and icon in at:
            index = at[icon]
        else:
            raise Unsupported("count() of anything but an icon")
        return lambda hand: (hand.counts.take(index, axis=-1), None)

    def _call_lookup(self, node):
        table = self.static(node.args[0])
        rows = getattr(table, "rows", None)
        keys = [k for k in (rows or {}) if isinstance(k, int) and not isinstance(k, bool) and 0 <= k < 4096]
        if len(node.args) != 2 or rows is None or len(keys) != len(rows) or \
                any(not isinstance(rows[k], int) or isinstance(rows[k], bool) for k in keys):
            raise Unsupported("lookup() but in a table of small counts to numbers, without a default")
        dense = np.zeros(max(keys, default=0) + 2, np.int64)
        unknown = np.ones(len(dense), bool)
        for k in keys:
            dense[k], unknown[k] = rows[k], False
        key, last = self.visit(node.args[1]), len(dense) - 1

        def looked_up(hand):
            at, failed = key(hand)
            place = np.clip(at, 0, last)   # outside the table: the entry past its last row, never a row
            return dense.take(place), _or(failed, unknown.take(place))
        return looked_up

    def _call_kinds(self, node):
        raise Unsupported(f"{node.function}() but summed")

    _call_icons = _call_kinds

    def _call_sum(self, node):
        listed = node.args[0]
        if not isinstance(listed, ast.Comprehension) or listed.condition is not None \
                or not isinstance(listed.source, ast.Call) or listed.source.function not in _FAMILY_SOURCES:
            raise Unsupported("sum() of anything but a family's icons")
        source = listed.source
        family = self.static(source.args[-1])
        icons = tuple(getattr(family, "icons", ()))
        if not icons or not hasattr(family, "key"):
            raise Unsupported(f"{source.function}() of anything but a family")
        if source.function == "icons":
            held = self.static(source.args[0])
            if len(source.args) != 2 or not isinstance(held, _Own) or held.name != "cards":
                raise Unsupported("icons() of anything but the seat's cards")
        if listed.name in self.scope:
            raise Unsupported("a comprehension inside another")
        self.scope[listed.name] = _Icons(icons)
        try:
            element = self.visit(listed.element)
        finally:
            del self.scope[listed.name]
        index = np.array([self.lanes.at[icon] for icon in icons])
        weighted = source.function == "icons"

        def summed(hand):
            value, failed = element(hand)
            if failed is not None:   # a term that fails fails the sum
                failed = failed.any(axis=-1) if isinstance(failed, np.ndarray) and failed.ndim > 1 else failed
            value = np.asarray(value)
            if not weighted:
                return (value.sum(axis=-1) if value.ndim else value * len(icons)), failed
            counts = hand.counts.take(index, axis=-1)
            if value.ndim <= 1:   # the same for every hand: the counts' dot product
                return counts @ np.broadcast_to(value, (len(icons),)), failed
            return (counts * value).sum(axis=-1), failed
        return summed

    def _masks(self, node):
        """f(hand) -> the cards' mask (the visited cards', or a constant's, or a region axis's), constants once."""
        known = self.static(node)
        if isinstance(known, _Own) and known.name == "visited":
            return None
        if isinstance(node, ast.Attribute) and node.name == "cards":
            target = self.static(node.target)
            if isinstance(target, Regions):
                return np.array([card_mask(region.cards) for region in target.regions], np.int64)
            if hasattr(target, "cards") and hasattr(target, "bonus"):
                return card_mask(target.cards)
        if isinstance(known, tuple | list) and all(hasattr(card, "letter") for card in known):
            return card_mask(known)
        raise Unsupported("a set of cards but the visited cards, a region's or a constant's")

    def _call_subset(self, node):
        return self._mask_test(node, lambda a, b: (a & ~b) == 0)

    def _call_intersects(self, node):
        return self._mask_test(node, lambda a, b: (a & b) != 0)

    def _mask_test(self, node, test):
        first, second = self._masks(node.args[0]), self._masks(node.args[1])
        if (first is None) == (second is None):
            raise Unsupported(f"{node.function}() but between the visited cards and a constant")

        def tested(hand):
            visited = hand.visited
            constant = first if second is None else second
            if isinstance(constant, np.ndarray):   # a region axis: last
                visited = visited[..., None]
            return (test(constant, visited) if second is None else test(visited, constant)), None
        return tested

    def _call_connected(self, node):
        nodes, sources, targets = (self._masks(arg) for arg in node.args)
        if nodes is not None or not isinstance(sources, int) or not isinstance(targets, int):
            raise Unsupported("connected() but of the visited cards between two constants")
        tables = self.lanes.neighbours

        def connected(hand):
            inside = hand.visited
            reached = inside & sources
            rows = np.flatnonzero((reached != 0) & ((inside & targets) != 0))   # the rest join nothing
            found = np.zeros(inside.size, bool)
            inside, reached = inside.reshape(-1)[rows], reached.reshape(-1)[rows]
            while len(rows):   # one step along the paths from every card reached, a byte of the mask at a time
                grown = reached
                for byte, table in enumerate(tables):
                    grown = grown | table.take((reached >> (8 * byte)) & 255)
                grown &= inside
                done = (grown & targets) != 0
                found[rows[done]] = True
                more = ~done & (grown != reached)
                rows, inside, reached = rows[more], inside[more], grown[more]
            return found.reshape(hand.visited.shape), None
        return connected


def _capped(left, right):
    """A product the compiled code checks against MAX_NUMBER (expression.py): where it is larger it fails. Checked
    on the factors' largest sizes first (two reductions); only past the cap worked out in Python ints."""
    def product(hand):
        (a, fa), (b, fb) = left(hand), right(hand)
        a, b = _align(a, b)
        failed = _or(fa, fb)
        if _largest(a) * _largest(b) <= MAX_NUMBER:
            return np.multiply(a, b), failed
        exact = np.multiply(np.asarray(a, object), np.asarray(b, object))
        over = np.asarray((exact > MAX_NUMBER) | (exact < -MAX_NUMBER), bool)
        return np.where(over, 0, exact).astype(np.int64), _or(failed, over)
    return product


def _largest(value) -> int:
    return int(np.abs(value).max()) if isinstance(value, np.ndarray) and value.size else abs(int(value or 0))


class _Own:
    """One of the hand's own variables (cards, visited, throw, catch), read only as the calls above read it."""

    def __init__(self, name: str):
        self.name = name


class _Icons:
    """A comprehension's variable over a family's icons (or the choice): the icon axis, last of every array."""

    def __init__(self, icons: tuple):
        self.icons = icons


class Regions:
    """A race's region over the edition's regions: the region axis, last of every array it meets."""

    def __init__(self, regions: tuple):
        self.regions = regions


def _align(a, b):
    """a and b with the same number of axes where one has the icon or region axis and the other not."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.ndim != b.ndim and min(a.ndim, b.ndim) > 1:
        if a.ndim < b.ndim:
            a = a[..., None]
        else:
            b = b[..., None]
    return a, b


def _or(a, b):
    """Two failure masks (None: none fails) as one."""
    if a is None:
        return b
    if b is None:
        return a
    a, b = _align(a, b)
    return a | b
