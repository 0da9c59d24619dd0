"""What a checked expression is whatever the game: its constant value, when it has one.

Used by the edition checks to warn about a category that can never score or a race that can never
be won. Knows only literals and the edition's constants (tables); it never sees a game, and when in
doubt it answers UNKNOWN. Evaluation here must not raise: any failure is UNKNOWN.
"""

from __future__ import annotations

from . import ast
from .builtins import REGISTRY, UNKNOWN


def _is_zero(value) -> bool:
    return value is not UNKNOWN and not isinstance(value, bool) and value == 0


class _Folder(ast.Visitor):
    def __init__(self, resolved: dict):
        self.resolved = resolved

    def visit(self, node):
        try:
            return super().visit(node)
        except (ArithmeticError, TypeError, ValueError, KeyError, AttributeError):
            return UNKNOWN

    def visit_other(self, node):
        return UNKNOWN  # names, symbols, attributes: game data

    def visit_Number(self, node):
        return node.value

    def visit_Bool(self, node):
        return node.value

    def visit_Unary(self, node):
        operand = self.visit(node.operand)
        if operand is UNKNOWN:
            return UNKNOWN
        return -operand if node.op == "-" else not operand

    def visit_Binary(self, node):
        op = node.op
        left, right = self.visit(node.left), self.visit(node.right)
        if op == "and" and (left is False or right is False):
            return False
        if op == "or" and (left is True or right is True):
            return True
        if op == "*" and (_is_zero(left) or _is_zero(right)):
            return 0
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if op in ("//", "%") and right == 0:
            return UNKNOWN
        return {
            "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
            "//": lambda: left // right, "%": lambda: left % right,
            "==": lambda: left == right, "!=": lambda: left != right, "<": lambda: left < right,
            "<=": lambda: left <= right, ">": lambda: left > right, ">=": lambda: left >= right,
            "and": lambda: left and right, "or": lambda: left or right,
        }.get(op, lambda: UNKNOWN)()

    def visit_If(self, node):
        condition = self.visit(node.condition)
        if condition is True:
            return self.visit(node.then)
        if condition is False:
            return self.visit(node.otherwise)
        then, otherwise = self.visit(node.then), self.visit(node.otherwise)
        if then is not UNKNOWN and then == otherwise and type(then) is type(otherwise):
            return then
        return UNKNOWN

    def visit_Let(self, node):
        return self.visit(node.body)  # the bound name is unknown inside the body; a constant body stays one

    def visit_ListLiteral(self, node):
        items = [self.visit(item) for item in node.items]
        return UNKNOWN if any(i is UNKNOWN for i in items) else items

    def visit_Comprehension(self, node):
        source = self.visit(node.source)
        return [] if source == [] else UNKNOWN

    def visit_Call(self, node):
        entry = REGISTRY.get(node.function)
        if entry is None or entry.fold is None:
            return UNKNOWN
        values = [self.visit(arg) for arg in node.args]
        return entry.fold(values, [self.resolved.get(id(arg)) for arg in node.args])


def constant_value(node: ast.Node, resolved: dict):
    """The value node always has, or UNKNOWN."""
    return _Folder(resolved).visit(node)
