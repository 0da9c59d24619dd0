"""Checked AST → a Python closure, once per edition: the reference runner (game/reference.py) and the few
expressions run outside the scoring program (a race's award, a reveal's `until`, a flow's game end).

Constants (families, tables, symbols, literals) are bound at compile time. The closures take one
argument, the environment: a dict of the game variables the expression's scope declares.
Runtime failures raise DslRuntimeError carrying the node, so the caller can point at it.
"""

from __future__ import annotations

import operator

from .ast import Visitor
from .budget import MAX_NUMBER
from .builtins import REGISTRY, DslRuntimeError
from .meter import begin, charge, size, within

_MISSING = object()


def _divide(op):
    def run(a, b, node):
        if b == 0:
            raise DslRuntimeError("division by zero", node)
        return op(a, b)

    return run


def _multiply(a, b, node):
    product = a * b
    if -MAX_NUMBER <= product <= MAX_NUMBER:
        return product
    raise DslRuntimeError(
        f"a product larger than {MAX_NUMBER:,} (is something multiplied by itself over and over?)", node
    )


_ARITHMETIC = {"+": operator.add, "-": operator.sub}
_DIVISION = {"//": _divide(operator.floordiv), "%": _divide(operator.mod), "*": _multiply}


def _as_list(value):
    return list(value) if type(value) is tuple else value


def _equal(a, b, node=None):
    """Lists compare by their items, whether they come from the game (lists) or the edition (tuples);
    charged item by item (meter.py), as Python compares them."""
    if isinstance(a, list | tuple):
        charge(size(a), node)
        return _as_list(a) == _as_list(b)
    return a == _as_list(b)


_COMPARE = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Compiler(Visitor):
    def __init__(self, resolved: dict, edition):
        self.resolved = resolved
        self.edition = edition

    def visit_Number(self, node):
        value = node.value
        return lambda env: value

    def visit_Bool(self, node):
        value = node.value
        return lambda env: value

    def visit_Symbol(self, node):
        value = self.resolved[id(node)]
        return lambda env: value

    def visit_Name(self, node):
        if id(node) in self.resolved:
            value = self.resolved[id(node)]
            return lambda env: value
        name = node.name
        return lambda env: env[name]

    def visit_Attribute(self, node):
        target = self.visit(node.target)
        getter = operator.attrgetter(node.name)
        return lambda env: getter(target(env))

    def visit_Unary(self, node):
        operand = self.visit(node.operand)
        if node.op == "-":
            return lambda env: -operand(env)
        return lambda env: not operand(env)

    def visit_Binary(self, node):
        left, right, op = self.visit(node.left), self.visit(node.right), node.op
        if op == "and":
            return lambda env: left(env) and right(env)
        if op == "or":
            return lambda env: left(env) or right(env)
        if op == "in":
            return lambda env: within(left(env), right(env), node)
        if op == "not in":
            return lambda env: not within(left(env), right(env), node)
        if op in _DIVISION:
            divide = _DIVISION[op]
            return lambda env: divide(left(env), right(env), node)
        if op == "==":
            return lambda env: _equal(left(env), right(env), node)
        if op == "!=":
            return lambda env: not _equal(left(env), right(env), node)
        function = _ARITHMETIC.get(op) or _COMPARE[op]
        return lambda env: function(left(env), right(env))

    def visit_If(self, node):
        condition, then, otherwise = self.visit(node.condition), self.visit(node.then), self.visit(node.otherwise)
        return lambda env: then(env) if condition(env) else otherwise(env)

    def visit_Let(self, node):
        value, body, name = self.visit(node.value), self.visit(node.body), node.name

        def run(env):
            saved = env.get(name, _MISSING)
            env[name] = value(env)
            try:
                return body(env)
            finally:
                if saved is _MISSING:
                    del env[name]
                else:
                    env[name] = saved

        return run

    def visit_Comprehension(self, node):
        element, source, name = self.visit(node.element), self.visit(node.source), node.name
        condition = self.visit(node.condition) if node.condition is not None else None

        def run(env):
            saved = env.get(name, _MISSING)
            out = []
            items = source(env)
            charge(len(items), node)
            try:
                for item in items:
                    env[name] = item
                    if condition is None or condition(env):
                        out.append(element(env))
            finally:
                if saved is _MISSING:
                    env.pop(name, None)
                else:
                    env[name] = saved
            return out

        return run

    def visit_ListLiteral(self, node):
        items = [self.visit(item) for item in node.items]
        return lambda env: [item(env) for item in items]

    def visit_Call(self, node):
        entry = REGISTRY[node.function]
        args = [self.visit(arg) for arg in node.args]
        function = entry.run
        edition = (self.edition,) if entry.needs_edition else ()

        def call(env):
            try:
                return function(*[arg(env) for arg in args], *edition)
            except DslRuntimeError as exc:   # a failing builtin's error points at its call
                exc.node = exc.node or node
                raise

        return call


def compile_checked(node, resolved: dict, edition):
    """The expression's closure of its environment; each call one evaluation, with its step budget (meter.py)."""
    root = Compiler(resolved, edition).visit(node)

    def evaluate(env):
        begin()
        return root(env)

    return evaluate
