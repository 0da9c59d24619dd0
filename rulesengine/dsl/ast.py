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
    names = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Name) and id(current) not in resolved:
            names.add(current.name)
        stack.extend(children(current))
    return frozenset(names)

