"""Where a cursor is in an edition's text: spans, values by path, characters of an expression, and the
path of a half-typed key read from indentation (the text may not parse while the author types)."""

from __future__ import annotations

import re

from ..dsl import walk
from ..dsl.ast import Call, Name, Symbol
from ..dsl.parser import parse
from ..errors import BoomError, Span


def holds(span: Span, line: int, col: int) -> bool:
    end_line, end_col = span.end_line or span.line, span.end_col or span.col + 1
    return (span.line, span.col) <= (line, col) <= (end_line, end_col)


def value_at(data, path):
    node = data
    for part in path:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return None
    return node


def offset_in(source_map, path, value: str, line: int, col: int) -> int:
    """The index in the string value of the first character at or after (line, col): a binary search,
    places in the file growing with the index (a long expression is searched in a few steps)."""
    low, high = 0, len(value)
    while low < high:
        middle = (low + high) // 2
        span = source_map.span_in_value(path, middle, middle + 1, value)
        if (span.line, span.col) >= (line, col):
            high = middle
        else:
            low = middle + 1
    return low


def node_at(text, offset: int):
    """The innermost name, quoted name or call of the expression at offset (None if it does not parse)."""
    if not isinstance(text, str) or offset is None:
        return None
    try:
        tree = parse(text)
    except BoomError:
        return None
    except Exception:  # noqa: BLE001 - a half-typed expression: no answer rather than a failure
        return None
    found = None
    for node in walk(tree):
        if isinstance(node, Name | Symbol) and node.start <= offset <= node.end:
            return node
        if isinstance(node, Call) and node.start <= offset <= node.start + len(node.function):
            found = node
    return found


def parent_path(lines: list[str], line: int, indent: int) -> tuple:
    """The path of the mapping a key typed at (line, column indent) belongs to, read from the indentation
    of the lines above (the text may not parse while a key is half typed)."""
    path: list = []
    wanted = indent
    row = line - 1
    while row > 0 and wanted > 0:
        row -= 1
        text = lines[row]
        if not text.strip() or text.strip().startswith("#"):
            continue
        here = len(text) - len(text.lstrip(" "))
        item = re.match(r"^(\s*)-\s+", text)
        if item and len(item.group(0)) == wanted:  # an entry of a list whose keys start at this column
            path.insert(0, items_above(lines, row, here))
            wanted = here
            continue
        key = re.match(r"^\s*([a-z_]+)\s*:\s*(?:#.*)?$", text)
        if key and here < wanted:
            path.insert(0, key.group(1))
            wanted = here
    return tuple(path)


def items_above(lines: list[str], row: int, column: int) -> int:
    """How many entries of the same list come before the one starting at row (its index)."""
    count = 0
    for text in reversed(lines[:row]):
        if not text.strip() or text.strip().startswith("#"):
            continue
        here = len(text) - len(text.lstrip(" "))
        if here < column or (here == column and not text.lstrip().startswith("-")):
            break
        if here == column:
            count += 1
    return count
