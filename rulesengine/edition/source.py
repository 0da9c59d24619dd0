"""Reads a YAML file into plain data while remembering where every key and value came from.

Safe YAML only (no Python tags), with bounds on size, nesting and alias expansion, and duplicate
keys reported instead of silently overwritten. Positions are kept in a side table keyed by the
JSON path of each node, so later passes (schema, model, DSL) can point at the exact place.
The data is JSON-like: mapping keys are always text (a YAML key `1:` is '1'). It must never raise
anything but EditionError, nor recurse deeper than MAX_DEPTH, whatever the text.
"""

from __future__ import annotations

import bisect
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import Diagnostic, EditionError, LinkedText, Span, shown
from ..escaping import bidi_problem
from .bounded_yaml import MAX_DEPTH, MAX_NODES, check_expansion, compose
from .cache import noted

MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True)
class Kind:
    """What a file must be for boom to quote its lines: a mapping with one of these keys at its top.
    A file of another kind (~/.aws/credentials, a docker-compose file) gets one error naming only
    the file: no line, no key and no value of it is ever printed."""

    name: str  # "an edition"
    keys: tuple  # one of them at the top makes a file of this kind
    code: str  # the error for a mapping with none of them

    def parsed(self, data) -> bool:
        return isinstance(data, dict) and any(key in data for key in self.keys)

    def written(self, text: str) -> bool:
        """Text that does not read as YAML, but is written like this kind: one of its keys starts a line
        (or follows a JSON brace), so its YAML mistakes may be quoted."""
        keys = "|".join(map(re.escape, self.keys))
        return re.search(rf"^\s*\{{?\s*[\"']?(?:{keys})[\"']?\s*:", text, re.MULTILINE) is not None

    def refusal(self, file: str) -> Diagnostic:
        """At the file's start (no line quoted); a file named by another is named, for the one naming it."""
        keys = ", ".join(self.keys)
        if self.code == "X804":
            return Diagnostic(None, f"{file} is not {self.name} (it has none of the keys {keys})", self.code)
        return Diagnostic(Span(file, 1, 1), f"this file is not {self.name} (it has none of the keys {keys})", self.code)


EDITION = Kind("an edition", ("format", "id", "cards", "extends"), "S103")
NAMED_EDITION = Kind("an edition", EDITION.keys, "X804")  # named by another file: a parent, a save's edition
RECORD = Kind("a game record", ("players", "rounds"), "R701")
SAVE = Kind("a saved boom game", ("type",), "F903")


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
    quotable: bool = True  # False: a file that is not of its kind, or named by another that is not (load_yaml)
    link: str | None = None  # what the file is a symbolic link to: said beside any line quoted

    def __post_init__(self):
        starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                starts.append(i + 1)
        self._line_starts = starts

    @property
    def texts(self) -> dict[str, str]:
        """The text of the file this map is of, to quote in diagnostics (see errors.quoting); none
        for a file that must not be quoted."""
        if not self.quotable:
            return {}
        return {self.file: LinkedText(self.text, f"{self.file} is a symbolic link to {self.link}") if self.link
                else self.text}

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
    for ch in value:  # str.find, not a loop over raw: escapes (\x41) can make every search fail
        if ch in " \n":
            found = [q for q in (raw.find(" ", p), raw.find("\n", p)) if q >= 0]
            q = min(found) if found else -1
        else:
            q = raw.find(ch, p)
        if q < 0:
            q = max(p - 1, 0)
        out.append(q)
        p = q + 1
    return out


def load_yaml(
    path: str | Path, text: str | None = None, *, quote=True, kind: Kind = EDITION, max_nodes: int = MAX_NODES
) -> tuple[object, SourceMap]:
    """Parse a YAML file into plain data and its source map, or raise EditionError.

    Lines are quoted in errors only from a file of its kind (kind.parsed: an edition has `format`,
    `id`, `cards` or `extends`); a mapping of another kind is refused naming only the file, so a
    path to any file on the machine cannot make boom print its lines or values. Through a symbolic
    link, each quote says so. quote: True for a file named on the command line (a YAML mistake in text
    written like its kind is quoted too); for a file reached through another (a parent named by
    `extends:`, the edition of a save or a log) a further test of the parsed data, and a YAML
    mistake is never quoted. max_nodes: larger for a save, whose decisions grow with the game."""
    file = str(path)
    if text is None:
        text = _read(path, file)
    if len(text) > MAX_FILE_BYTES:
        raise EditionError(
            Diagnostic(Span(file, 1, 1), f"file is longer than the limit of {MAX_FILE_BYTES} characters", "E001")
        )
    source_map = SourceMap(file, text, quotable=quote is True and kind.written(text), link=_link(path))
    try:
        node, loader = compose(file, text, max_nodes)
        if node is None:
            return None, source_map
        check_expansion(file, node, max_nodes)
        builder = _Builder(source_map, loader, max_nodes)
        data = builder.build(node, (), 0)
        source_map.quotable = kind.parsed(data) and (quote is True or bool(quote and quote(data)))
        if isinstance(data, dict) and not kind.parsed(data):
            raise EditionError(kind.refusal(file))  # alone: the other errors would show its keys and values
        if builder.errors:
            raise EditionError(builder.errors)
    except EditionError as exc:
        raise exc.quoting(source_map.texts) from None
    return data, source_map


def _link(path) -> str | None:
    """The file a symbolic link leads to, or None for a file named as it is."""
    try:
        return os.path.realpath(path) if os.path.islink(path) else None
    except (OSError, ValueError):
        return None


def _read(path, file: str) -> str:
    """The file's text; never more than MAX_FILE_BYTES are read. Only regular files are read: a FIFO
    would block, a device may never end (opened without blocking, then checked on the open file)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as stream:
            mode = os.fstat(stream.fileno()).st_mode
            if not stat.S_ISREG(mode):
                what = (
                    "a folder"
                    if stat.S_ISDIR(mode)
                    else "a FIFO"
                    if stat.S_ISFIFO(mode)
                    else "a device"
                    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "not a regular file"
                )
                raise EditionError(Diagnostic(None, f"cannot read {file}: it is {what}, not a regular file", "E001"))
            data = stream.read(MAX_FILE_BYTES + 1)
        noted(path, data)  # an edition's check: the cache keeps its sha256
        size = Path(path).stat().st_size if len(data) > MAX_FILE_BYTES else 0
    except OSError as exc:
        raise EditionError(Diagnostic(None, f"cannot read {file}: {exc.strerror or exc}", "E001")) from None
    except ValueError as exc:  # e.g. a path with a NUL character
        raise EditionError(Diagnostic(None, f"cannot read {file}: {exc}", "E001")) from None
    if len(data) > MAX_FILE_BYTES:
        message = (
            f"file is {size} bytes, more than the limit of {MAX_FILE_BYTES}"
            if size > MAX_FILE_BYTES
            else f"file is longer than the limit of {MAX_FILE_BYTES} bytes"
        )
        raise EditionError(Diagnostic(Span(file, 1, 1), message, "E001"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start)
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise EditionError(
            Diagnostic(
                Span(file, line + 1, col + 1),
                f"file is not UTF-8 text (byte 0x{data[exc.start]:02x}: {exc.reason})",
                "E001",
            )
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # newlines as read_text() gives them


SURROGATE = "a lone surrogate (such as \\ud800) is not a character: text must be valid Unicode"


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class _Builder:
    def __init__(self, source_map: SourceMap, loader, max_nodes: int = MAX_NODES):
        self.max_nodes = max_nodes
        self.map = source_map
        self.loader = loader
        self.count = 0
        self.errors: list[Diagnostic] = []

    def span(self, node) -> Span:
        start, end = node.start_mark, node.end_mark
        return Span(self.map.file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def build(self, node, path: tuple, depth: int):
        self.count += 1
        if self.count > self.max_nodes:
            message = f"the document expands to more than {self.max_nodes} nodes (aliases expanding without bound?)"
            raise EditionError(Diagnostic(self.span(node), message, "E003"))
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
                if isinstance(key, str) and self._unsafe(key_node, key):
                    continue
                if isinstance(key, str):
                    key = shown(key)
                if isinstance(key, str) and _has_surrogate(key):
                    self.errors.append(Diagnostic(self.span(key_node), SURROGATE, "E002"))
                    continue
                if not isinstance(key, str):  # keys are text, as in JSON: `1:` is '1', `true:` is 'true'
                    key = str(key) if isinstance(key, int) and not isinstance(key, bool) else str(key_node.value)
                if key in out:
                    self.errors.append(
                        Diagnostic(
                            self.span(key_node),
                            f"duplicate key '{key}'",
                            "E005",
                            hint="a YAML key may appear once in a mapping",
                        )
                    )
                    continue
                self.map.keys[path + (key,)] = self.span(key_node)
                out[key] = self.build(value_node, path + (key,), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        value = self._scalar(node)
        if isinstance(value, str) and _has_surrogate(value):
            self.errors.append(Diagnostic(self.span(node), SURROGATE, "E002"))
            return value.encode("utf-8", "replace").decode("utf-8")
        if isinstance(value, str) and self._unsafe(node, value):
            return ""
        if isinstance(value, str):
            value = shown(value)  # control characters (an ANSI escape) are kept as visible text
            self.map.scalars[path] = ScalarSource(node.start_mark.index, node.end_mark.index)
        return value

    def _unsafe(self, node, text: str) -> bool:
        """A bidirectional control or a separator, anywhere: an error at the scalar (Trojan Source)."""
        problem = bidi_problem(text)
        if problem is not None:
            self.errors.append(Diagnostic(self.span(node), f"this text holds {problem[1]}", "E002"))
        return problem is not None

    def _scalar(self, node):
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            message = f"bad scalar: {getattr(exc, 'problem', None) or exc}"
        except (
            ValueError,
            TypeError,
            KeyError,
            AttributeError,
            OverflowError,
        ) as exc:  # PyYAML's constructors on odd text: '!!int x', 100,000 digits
            kind = node.tag.rsplit(":", 1)[-1]
            shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
            too_long = " (more digits than Python reads)" if "digits" in str(exc) else ""
            message = f"bad scalar: {shown!r} is not a valid {kind}{too_long}"
        self.errors.append(Diagnostic(self.span(node), message, "E002"))
        return node.value
