"""The scoring language as array code: a checked expression evaluated for thousands of seats at once.

Each expression's checked syntax tree (Expression.tree: the node and the names the checker
resolved to edition constants) becomes a tree of Python closures, made once per edition, whose
values are numpy arrays with one row per seat of every game in the batch (or plain numbers where a
value is the same for all). It never reads the Python the engine generates, only the tree, so it
says the language's meaning a second way, and tests/test_fast_batch.py holds it to the engine's.

Every closure is called as f(env, live): env maps the scope's variables to row values, live is the
rows whose value counts (an `if` hands each branch its own rows), so a lookup of a missing row or a
division by zero is an error only where the engine would have met it; such rows are marked in
env["_failed"] and their games are played again by the engine, which reports the error. A node
this does not translate raises Unsupported, naming it: the edition is then played by the engine.

The values are fast/cards.py's, the row-wise helpers fast/rows.py's, the builtins fast/calls.py's.
"""

from __future__ import annotations

import numpy as np

from ..dsl import ast
from ..dsl.ast import Visitor
from ..dsl.budget import MAX_NUMBER
from .calls import Calls
from .cards import (
    CardRows,
    ConstCards,
    Deck,
    DraftCards,
    Items,
    MaskCards,
    RegionRows,
    SeatRows,
    Unsupported,
    card_mask,
)
from .rows import _comparable, _member, _not, _present, as_items, fail, live_and, where


class ArrayCode(Calls, Visitor):
    """A checked tree as closures over row arrays (see the module docstring)."""

    def __init__(self, resolved: dict, deck: Deck, edition):
        self.resolved, self.deck, self.edition = resolved, deck, edition
        self.icon_at = {icon: i for i, icon in enumerate(deck.icons)}

    def visit_Number(self, node):
        value = node.value
        return lambda env, live: value

    def visit_Bool(self, node):
        value = node.value
        return lambda env, live: value

    def visit_Symbol(self, node):
        return self._constant(self.resolved[id(node)], node)

    def visit_Name(self, node):
        if id(node) in self.resolved:
            return self._constant(self.resolved[id(node)], node)
        name = node.name
        return lambda env, live: env[name]

    def _constant(self, value, node):
        deck = self.deck
        if isinstance(value, tuple | list) and all(hasattr(v, "letter") for v in value):
            cards = ConstCards(deck, value)
            return lambda env, live: cards
        return lambda env, live: value

    def visit_Attribute(self, node):
        target, name, deck = self.visit(node.target), node.name, self.deck
        region_of = {id(r): i for i, r in enumerate(self.edition.regions)}

        def run(env, live):
            value = target(env, live)
            if isinstance(value, CardRows):
                if name == "number":
                    return deck.number[value.index]
                if name == "region":
                    return RegionRows(deck.region[value.index])
            elif isinstance(value, RegionRows):
                if name == "bonus":
                    return deck.bonus[value.index]
                if name == "cards":
                    masks = np.array([card_mask(cards) for cards in deck.region_cards], dtype=np.uint64)
                    return MaskCards(deck, masks[value.index])
            elif isinstance(value, SeatRows):
                if name == "cards":
                    return DraftCards(deck, env["_drafts"][value.rows])
                if name == "visited":
                    return MaskCards(deck, env["_visited"][value.rows])
            elif hasattr(value, "letter"):   # a card constant
                if name == "region":
                    return value.region
                return getattr(value, name)
            elif id(value) in region_of:
                return ConstCards(deck, value.cards) if name == "cards" else getattr(value, name)
            elif name in getattr(value, "__dict__", {}) or hasattr(value, name):   # the round's lines, by key
                return getattr(value, name)
            raise Unsupported(f"'.{name}' of {type(value).__name__}")

        return run

    def visit_Unary(self, node):
        operand = self.visit(node.operand)
        if node.op == "-":
            return lambda env, live: -operand(env, live)
        return lambda env, live: _not(operand(env, live))

    def visit_Binary(self, node):
        left, right, op = self.visit(node.left), self.visit(node.right), node.op
        if op == "and":
            def both(env, live):
                a = left(env, live)
                if a is False:
                    return False
                b = right(env, live_and(live, a))
                return b if a is True else (a & b if isinstance(b, np.ndarray) else (a if b else False))
            return both
        if op == "or":
            def either(env, live):
                a = left(env, live)
                if a is True:
                    return True
                b = right(env, live_and(live, _not(a)))
                return b if a is False else (a | b if isinstance(b, np.ndarray) else (True if b else a))
            return either
        if op in ("in", "not in"):
            def member(env, live):
                found = _member(left(env, live), right(env, live))
                return found if op == "in" else _not(found)
            return member
        if op in ("//", "%"):
            def divide(env, live):
                a, b = left(env, live), right(env, live)
                zero = b == 0
                fail(env, live_and(live, zero))
                safe = where(zero, 1, b)
                return a // safe if op == "//" else a % safe
            return divide
        if op == "*":
            def multiply(env, live):
                product = left(env, live) * right(env, live)
                fail(env, live_and(live, (product > MAX_NUMBER) | (product < -MAX_NUMBER)))
                return product
            return multiply
        compare = _OPERATORS[op]

        def run(env, live):
            return compare(_comparable(left(env, live)), _comparable(right(env, live)))

        return run

    def visit_If(self, node):
        condition, then, otherwise = self.visit(node.condition), self.visit(node.then), self.visit(node.otherwise)

        def run(env, live):
            test = condition(env, live)
            if test is True or test is False:
                return then(env, live) if test else otherwise(env, live)
            return where(test, then(env, live_and(live, test)), otherwise(env, live_and(live, ~test)))

        return run

    def visit_Let(self, node):
        value, body, name = self.visit(node.value), self.visit(node.body), node.name

        def run(env, live):
            saved = env.get(name, _MISSING)
            env[name] = value(env, live)
            try:
                return body(env, live)
            finally:
                if saved is _MISSING:
                    del env[name]
                else:
                    env[name] = saved

        return run

    def visit_Comprehension(self, node):
        element, source, name = self.visit(node.element), self.visit(node.source), node.name
        condition = self.visit(node.condition) if node.condition is not None else None
        deck = self.deck

        def run(env, live):
            listed = as_items(source(env, live), deck)
            saved = env.get(name, _MISSING)
            out = []
            try:
                for weight, item in listed.items:
                    env[name] = item
                    here = live_and(live, _present(weight))
                    if here is False:
                        continue
                    if condition is not None:
                        test = condition(env, here)
                        if test is False:
                            continue
                        if test is not True:
                            weight = test if weight is None else (weight & test if weight.dtype == np.bool_
                                                                  else weight * test)
                            here = live_and(here, test)
                    out.append((weight, element(env, here)))
            finally:
                if saved is _MISSING:
                    env.pop(name, None)
                else:
                    env[name] = saved
            return Items(tuple(out), listed.ordered)

        return run

    def visit_ListLiteral(self, node):
        items = [self.visit(item) for item in node.items]
        return lambda env, live: Items(tuple((None, item(env, live)) for item in items))

    def visit_Call(self, node):
        function = node.function
        args = [self.visit(arg) for arg in node.args]
        call = getattr(self, "_call_" + function, None)
        if call is None:
            raise Unsupported(f"{function}()")
        return call(args, node)


_MISSING = object()
_OPERATORS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
              ">=": np.greater_equal, "+": np.add, "-": np.subtract}


def compile_tree(expression, deck: Deck, edition):
    """f(env, live) for this compiled expression, from its checked tree; Unsupported when a node has no array form."""
    if expression is None or expression.tree is None:
        raise Unsupported("an expression without its checked tree")
    node, resolved, _ = expression.tree
    for part in ast.walk(node):
        if isinstance(part, ast.Call) and not hasattr(ArrayCode, "_call_" + part.function):
            raise Unsupported(f"{part.function}() in '{expression.text.strip()}'")
    return ArrayCode(resolved, deck, edition).visit(node)
