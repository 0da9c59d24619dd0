"""The syntax tree of the scoring language: frozen nodes, each with its span in the expression text.

Spans are offsets into the expression string; the edition builder turns them into file positions.
Nothing here evaluates or checks anything.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Node:
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Number(Node):
    value: int


@dataclass(frozen=True, slots=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class Symbol(Node):
    """A quoted name: an icon, a region or a card letter, resolved by the checker."""

    text: str


@dataclass(frozen=True, slots=True)
class Name(Node):
    name: str


@dataclass(frozen=True, slots=True)
class Call(Node):
    function: str
    args: tuple[Node, ...]
    name_end: int


@dataclass(frozen=True, slots=True)
class Attribute(Node):
    target: Node
    name: str


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str  # "-" or "not"
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str  # + - * // % == != < <= > >= and or in notin
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class If(Node):
    condition: Node
    then: Node
    otherwise: Node


@dataclass(frozen=True, slots=True)
class Let(Node):
    name: str
    value: Node
    body: Node


@dataclass(frozen=True, slots=True)
class Comprehension(Node):
    element: Node
    name: str
    source: Node
    condition: Node | None


@dataclass(frozen=True, slots=True)
class ListLiteral(Node):
    items: tuple[Node, ...]


def children(node: Node) -> tuple[Node, ...]:
    match node:
        case Call(args=args) | ListLiteral(items=args):
            return tuple(args)
        case Attribute(target=t) | Unary(operand=t):
            return (t,)
        case Binary(left=a, right=b):
            return (a, b)
        case If(condition=a, then=b, otherwise=c):
            return (a, b, c)
        case Let(value=a, body=b):
            return (a, b)
        case Comprehension(element=a, source=b, condition=c):
            return (a, b) if c is None else (a, b, c)
    return ()


def walk(node: Node):
    """Every node of the tree, the root first, without recursion (deep input must not blow the stack)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


class Visitor:
    """The one way to go over a tree by kind of node: a subclass defines `visit_<Node class>` for the
    kinds it handles, and `visit_other` for the rest (by default: none is left over)."""

    def visit(self, node: Node):
        return getattr(self, "visit_" + type(node).__name__, self.visit_other)(node)

    def visit_other(self, node: Node):  # pragma: no cover - every visitor handles every node
        raise AssertionError(f"{type(self).__name__} has no visit_{type(node).__name__}")


def depth_and_size(node: Node) -> tuple[int, int]:
    """Nesting depth and node count, without recursion (deep input must not blow the stack)."""
    size, deepest = 0, 0
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        size += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children(current))
    return deepest, size


def variable_names(node: Node, resolved: dict) -> frozenset:
    """The names the expression reads from its environment (those the checker did not bind to an
    edition constant), so a caller can tell which game variables a value depends on. Names bound
    by `let` or a comprehension are included: a harmless over-approximation."""
    return frozenset(n.name for n in walk(node) if isinstance(n, Name) and id(n) not in resolved)
