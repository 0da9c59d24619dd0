"""Text → AST for the scoring language. The only module that sees Lark; no Lark tree leaves it.

Errors come out as DslSyntaxError with an offset into the expression, never as Lark exceptions.
"""

from __future__ import annotations

import re
from pathlib import Path

from lark import (
    Lark,
    Token,
    Transformer_NonRecursive,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)

from . import ast
from .grammar_cache import cache_file

MAX_EXPRESSION_CHARS = 4000
MAX_DEPTH = 60
MAX_NODES = 2000
_COMMENT = re.compile(r"#[^\n]*")

_PARSER = Lark(
    (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8"),
    parser="lalr",
    propagate_positions=True,
    maybe_placeholders=True,
    cache=cache_file("grammar"),  # the built parser, reused while the grammar is unchanged
)

_FRIENDLY = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a quoted name",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "EQUAL": "'='",
    "MINUS": "'-'",
    "$END": "the end of the expression",
}


class DslSyntaxError(Exception):
    def __init__(self, message: str, start: int, end: int, hint: str | None = None):
        super().__init__(message)
        self.message, self.start, self.end, self.hint = message, start, end, hint


def _expected(names) -> str:
    """Say what could come next in words, not as a list of token names."""
    names = {n for n in names if not n.startswith("__ANON")}
    closers = [_FRIENDLY[n] for n in ("RPAR", "RSQB") if n in names]
    if "NAME" in names or "NUMBER" in names:
        return "expected a value: a number, a name, a quoted name, '(' or '['"
    for keyword in ("THEN", "ELSE", "SEMICOLON", "FOR"):
        if keyword in names:
            word = ";" if keyword == "SEMICOLON" else keyword.lower()
            return f"expected an operator or '{word}'"
    if "COMMA" in names and closers:
        return "expected an operator, ',' or " + " or ".join(closers)
    if closers:
        return "expected an operator or " + " or ".join(closers)
    if "$END" in names:
        return "expected an operator or the end of the expression"
    words = [_FRIENDLY.get(n, f"'{n.lower()}'") for n in sorted(names)]
    return "expected " + ", ".join(words[:6]) if words else ""


def _character_hint(ch: str) -> str | None:
    if ch == "=":
        return "compare with '==', or bind a name with 'let name = value; body'"
    if ch in "&|!":
        return "use 'and', 'or', 'not'"
    if ch == "/":
        return "divide with '//' (whole numbers only)"
    return None


def parse(text: str) -> ast.Node:
    """Parse one expression; raise DslSyntaxError with the offset of the problem."""
    if not isinstance(text, str) or not _COMMENT.sub("", text).strip():
        raise DslSyntaxError("empty expression", 0, 1, "write an expression such as 'abs(throw.number - catch.number)'")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise DslSyntaxError(f"expression is {len(text)} characters long, more than {MAX_EXPRESSION_CHARS}", 0, 1)
    try:
        tree = _PARSER.parse(text)
    except UnexpectedCharacters as exc:
        raise DslSyntaxError(
            f"unexpected character {text[exc.pos_in_stream]!r}",
            exc.pos_in_stream,
            exc.pos_in_stream + 1,
            _character_hint(text[exc.pos_in_stream]),
        ) from None
    except UnexpectedEOF as exc:
        raise DslSyntaxError(
            "the expression ends too early", len(text.rstrip()), len(text.rstrip()) + 1, _expected(exc.expected) or None
        ) from None
    except UnexpectedToken as exc:
        token = exc.token
        try:
            exc.expected = exc.interactive_parser.accepts()
        except Exception:  # noqa: BLE001 - fall back to Lark's coarser set
            pass
        if token.type == "$END":
            end = len(text.rstrip())
            raise DslSyntaxError(
                "the expression ends too early", max(end - 1, 0), end, _expected(exc.expected) or None
            ) from None
        start = token.start_pos or 0
        raise DslSyntaxError(
            f"unexpected {token.value!r}", start, start + len(token.value), _expected(exc.expected) or None
        ) from None
    except UnexpectedInput as exc:  # pragma: no cover - other Lark input errors
        pos = getattr(exc, "pos_in_stream", 0) or 0
        raise DslSyntaxError("cannot parse the expression", pos, pos + 1) from None
    node = _ToAst().transform(tree)
    _check_limits(node, text)
    return node


def _check_limits(node: ast.Node, text: str) -> None:
    """The checker and the compiler recurse once per level: refuse a tree too deep or too big for
    them here, pointing at the part that crosses the depth limit."""
    depth, size = ast.depth_and_size(node)
    if depth > MAX_DEPTH:
        stack = [(node, 1)]
        while stack:
            current, level = stack.pop()
            if level > MAX_DEPTH:
                raise DslSyntaxError(
                    f"expression nests {depth} levels deep, more than {MAX_DEPTH}",
                    current.start,
                    max(current.end, current.start + 1),
                    "split it into simpler expressions",
                ) from None
            stack.extend((child, level + 1) for child in ast.children(current))
    if size > MAX_NODES:
        raise DslSyntaxError(
            f"expression has {size} parts, more than {MAX_NODES}",
            0,
            len(text.rstrip()) or 1,
            "split it into simpler expressions",
        )


def _span(meta) -> tuple[int, int]:
    return meta.start_pos, meta.end_pos


@v_args(meta=True)
class _ToAst(Transformer_NonRecursive):
    """Lark's tree → ast nodes; every rule method gets (meta, children), meta giving the span."""

    def __default__(self, data, children, meta):  # pragma: no cover - grammar and transformer agree
        raise AssertionError(f"no AST rule for {data}")

    def _node(self, cls, meta, *args):
        start, end = _span(meta)
        return cls(start, end, *args)

    def number(self, meta, children):
        return self._node(ast.Number, meta, int(children[0]))

    def string(self, meta, children):
        return self._node(ast.Symbol, meta, str(children[0])[1:-1])

    def true(self, meta, children):
        return self._node(ast.Bool, meta, True)

    def false(self, meta, children):
        return self._node(ast.Bool, meta, False)

    def name(self, meta, children):
        return self._node(ast.Name, meta, str(children[0]))

    def call(self, meta, children):
        name, args = children
        return self._node(ast.Call, meta, str(name), tuple(args or ()), name.end_pos)

    def args(self, meta, children):
        return [c for c in children if not isinstance(c, Token)]

    def list_literal(self, meta, children):
        return self._node(ast.ListLiteral, meta, tuple(children[0] or ()))

    def comprehension(self, meta, children):
        element, name, source, condition = children
        return self._node(ast.Comprehension, meta, element, str(name), source, condition)

    def attribute(self, meta, children):
        target, name = children
        return self._node(ast.Attribute, meta, target, str(name))

    def negate(self, meta, children):
        return self._node(ast.Unary, meta, "-", children[0])

    def not_op(self, meta, children):
        return self._node(ast.Unary, meta, "not", children[0])

    def binary(self, meta, children):
        left, op, right = children
        return self._node(ast.Binary, meta, str(op), left, right)

    def compare(self, meta, children):
        return self.binary(meta, children)

    def member(self, meta, children):
        return self._node(ast.Binary, meta, "in", children[0], children[1])

    def not_member(self, meta, children):
        return self._node(ast.Binary, meta, "not in", children[0], children[1])

    def and_op(self, meta, children):
        return self._node(ast.Binary, meta, "and", children[0], children[1])

    def or_op(self, meta, children):
        return self._node(ast.Binary, meta, "or", children[0], children[1])

    def if_expr(self, meta, children):
        return self._node(ast.If, meta, *children)

    def let_expr(self, meta, children):
        name, value, body = children
        return self._node(ast.Let, meta, str(name), value, body)
