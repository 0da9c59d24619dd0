"""Reads a YAML file into plain data while remembering where every key and value came from.

Safe YAML only (no Python tags), with bounds on size, nesting and alias expansion, and duplicate
keys reported instead of silently overwritten. Positions are kept in a side table keyed by the
JSON path of each node, so later passes (schema, model, DSL) can point at the exact place.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import SOURCES, Diagnostic, EditionError, Span

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_NODES = 200_000


@dataclass
class ScalarSource:
    """Where a scalar's text sits in the file, to map an offset in the value to a position."""

    start: int
    end: int


@dataclass
class SourceMap:
    file: str
    text: str
    values: dict[tuple, Span] = field(default_factory=dict)
    keys: dict[tuple, Span] = field(default_factory=dict)
    scalars: dict[tuple, ScalarSource] = field(default_factory=dict)
    _line_starts: list[int] = field(default_factory=list)

    def __post_init__(self):
        starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                starts.append(i + 1)
        self._line_starts = starts

    def position(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, index) - 1
        return line + 1, index - self._line_starts[line] + 1

    def span_at(self, path: tuple, key: bool = False) -> Span:
        """The span of the node at path, or of its nearest ancestor that has one."""
        table = self.keys if key else self.values
        path = tuple(path)
        while path:
            if path in table:
                return table[path]
            if key and path in self.values:
                return self.values[path]
            path = path[:-1]
        return self.values.get((), Span(self.file, 1, 1))

    def span_in_value(self, path: tuple, start: int, end: int, value: str) -> Span:
        """The span of value[start:end], where value is the string scalar at path."""
        source = self.scalars.get(tuple(path))
        if source is None:
            return self.span_at(path)
        raw = self.text[source.start : source.end]
        index_of = _align(value, raw)
        def absolute(offset: int) -> int:
            if offset >= len(index_of):
                return source.start + (index_of[-1] + 1 if index_of else 0)
            return source.start + index_of[offset]
        line, col = self.position(absolute(start))
        end_line, end_col = self.position(absolute(max(start, end - 1)))
        return Span(self.file, line, col, end_line, end_col + 1)


def _align(value: str, raw: str) -> list[int]:
    """For each character of a scalar's value, its index in the raw YAML text (best effort)."""
    out = []
    p = 0
    for ch in value:
        q = p
        while q < len(raw):
            r = raw[q]
            if r == ch or (ch in " \n" and r in " \n"):
                break
            q += 1
        if q >= len(raw):
            q = max(p - 1, 0)
        out.append(q)
        p = q + 1
    return out


def load_yaml(path: str | Path, text: str | None = None) -> tuple[object, SourceMap]:
    """Parse a YAML file into plain data and its source map, or raise EditionError."""
    file = str(path)
    if text is None:
        try:
            size = Path(path).stat().st_size
            if size > MAX_FILE_BYTES:
                raise EditionError(Diagnostic(Span(file, 1, 1), f"file is {size} bytes, more than the limit of {MAX_FILE_BYTES}", "E001"))
            text = Path(path).read_text(encoding="utf-8")
        except EditionError:
            raise
        except UnicodeDecodeError as exc:
            raise EditionError(Diagnostic(Span(file, 1, 1), f"file is not UTF-8 text ({exc.reason})", "E001")) from None
        except OSError as exc:
            raise EditionError(Diagnostic(None, f"cannot read {file}: {exc.strerror}", "E001")) from None
    if len(text) > MAX_FILE_BYTES:
        raise EditionError(Diagnostic(Span(file, 1, 1), f"file is longer than the limit of {MAX_FILE_BYTES} characters", "E001"))
    SOURCES.texts[file] = text
    source_map = SourceMap(file, text)
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        raise EditionError(Diagnostic(span, f"YAML syntax: {problem}", "E002")) from None
    except yaml.YAMLError as exc:
        raise EditionError(Diagnostic(Span(file, 1, 1), f"YAML: {exc}", "E002")) from None
    finally:
        loader.dispose()
    if node is None:
        return None, source_map
    builder = _Builder(source_map, loader)
    data = builder.build(node, (), 0)
    if builder.errors:
        raise EditionError(builder.errors)
    return data, source_map


class _Builder:
    def __init__(self, source_map: SourceMap, loader):
        self.map = source_map
        self.loader = loader
        self.count = 0
        self.errors: list[Diagnostic] = []

    def span(self, node) -> Span:
        start, end = node.start_mark, node.end_mark
        return Span(self.map.file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def build(self, node, path: tuple, depth: int):
        self.count += 1
        if self.count > MAX_NODES:
            raise EditionError(Diagnostic(self.span(node), f"the document expands to more than {MAX_NODES} nodes (aliases expanding without bound?)", "E003"))
        if depth > MAX_DEPTH:
            raise EditionError(Diagnostic(self.span(node), f"nesting deeper than {MAX_DEPTH} levels", "E003"))
        self.map.values.setdefault(path, self.span(node))
        if isinstance(node, yaml.MappingNode):
            out = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self.errors.append(Diagnostic(self.span(key_node), "a key must be a plain scalar", "E004"))
                    continue
                key = self._scalar(key_node)
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    key = str(key_node.value)
                if key in out:
                    self.errors.append(Diagnostic(self.span(key_node), f"duplicate key '{key}'", "E005", hint="a YAML key may appear once in a mapping"))
                    continue
                self.map.keys[path + (key,)] = self.span(key_node)
                out[key] = self.build(value_node, path + (key,), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        value = self._scalar(node)
        if isinstance(value, str):
            self.map.scalars[path] = ScalarSource(node.start_mark.index, node.end_mark.index)
        return value

    def _scalar(self, node):
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            self.errors.append(Diagnostic(self.span(node), f"bad scalar: {getattr(exc, 'problem', exc)}", "E002"))
            return node.value
