"""What a checked expression is whatever the game: its constant value, when it has one.

Used by the edition checks to warn about a category that can never score or a race that can never
be won. Knows only literals and the edition's constants (tables); it never sees a game, and when in
doubt it answers UNKNOWN. Evaluation here must not raise: any failure is UNKNOWN.
"""

from __future__ import annotations

from . import ast

UNKNOWN = object()


def _is_zero(value) -> bool:
    return value is not UNKNOWN and not isinstance(value, bool) and value == 0


class _Folder:
    def __init__(self, resolved: dict):
        self.resolved = resolved

    def value(self, node):
        method = getattr(self, "f_" + type(node).__name__, None)
        if method is None:
            return UNKNOWN
        try:
            return method(node)
        except (ArithmeticError, TypeError, ValueError, KeyError, AttributeError):
            return UNKNOWN

    def f_Number(self, node):
        return node.value

    def f_Bool(self, node):
        return node.value

    def f_Unary(self, node):
        operand = self.value(node.operand)
        if operand is UNKNOWN:
            return UNKNOWN
        return -operand if node.op == "-" else not operand

    def f_Binary(self, node):
        op = node.op
        left, right = self.value(node.left), self.value(node.right)
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

    def f_If(self, node):
        condition = self.value(node.condition)
        if condition is True:
            return self.value(node.then)
        if condition is False:
            return self.value(node.otherwise)
        then, otherwise = self.value(node.then), self.value(node.otherwise)
        if then is not UNKNOWN and then == otherwise and type(then) is type(otherwise):
            return then
        return UNKNOWN

    def f_Let(self, node):
        return self.value(node.body)  # the bound name is unknown inside the body; a constant body stays one

    def f_ListLiteral(self, node):
        items = [self.value(item) for item in node.items]
        return UNKNOWN if any(i is UNKNOWN for i in items) else items

    def f_Comprehension(self, node):
        source = self.value(node.source)
        return [] if source == [] else UNKNOWN

    def f_Call(self, node):
        args = [self.value(arg) for arg in node.args]
        if node.function == "lookup":
            return self._lookup(node, args)
        if any(a is UNKNOWN for a in args):
            return UNKNOWN
        simple = {"abs": abs, "len": len, "sum": sum, "all": all, "any": any}
        if node.function in simple:
            return simple[node.function](*args)
        if node.function in ("min", "max"):
            items = args[0] if len(args) == 1 else args
            return (min if node.function == "min" else max)(items) if items else 0
        return UNKNOWN

    def _lookup(self, node, args):
        """A table whose every row (and the default) is the same number gives that number for any key."""
        table = self.resolved.get(id(node.args[0]))
        rows = getattr(table, "rows", None)
        if not rows:
            return UNKNOWN
        values = set(rows.values())
        if len(args) == 3:
            if args[2] is UNKNOWN:
                return UNKNOWN
            values.add(args[2])
        elif args[1] is not UNKNOWN:
            return rows.get(args[1], UNKNOWN)
        return values.pop() if len(values) == 1 else UNKNOWN


def constant_value(node: ast.Node, resolved: dict):
    """The value node always has, or UNKNOWN."""
    return _Folder(resolved).value(node)
