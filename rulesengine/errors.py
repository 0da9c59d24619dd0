"""Diagnostics: every problem found in an input carries a span and renders like a compiler error.

A diagnostic carries the line of source it points at (its quote), attached by the code that read
the file, at the boundary where the problem leaves it: there is no global table of file texts.
This module only describes and renders problems; it never decides what is wrong.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace

from .escaping import one_line, shown  # noqa: F401 - shown: errors.shown, as the readers have imported it


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file, 1-based lines and columns, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Note:
    """A second place a diagnostic concerns: the parent's line a house rule's change broke."""

    span: Span | None
    message: str
    quote: str | None = field(default=None, compare=False)

    def as_dict(self) -> dict:
        span = self.span
        return {"file": span.file if span else None, "line": span.line if span else None,
                "col": span.col if span else None, "message": self.message}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    span: Span | None
    message: str
    code: str
    severity: str = field(default="error", kw_only=True)
    hint: str | None = field(default=None, kw_only=True)
    quote: str | None = field(default=None, kw_only=True, compare=False)   # the source line at span.line
    notes: tuple[Note, ...] = field(default=(), kw_only=True)

    def as_dict(self) -> dict:
        span = self.span
        return {
            "file": span.file if span else None,
            "line": span.line if span else None,
            "col": span.col if span else None,
            "end_line": span.end_line if span else None,
            "end_col": span.end_col if span else None,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "notes": [note.as_dict() for note in self.notes],
        }


class BoomError(Exception):
    """A user-facing failure: carries diagnostics, never shown as a traceback."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.message for d in self.diagnostics))

    def quoting(self, texts: dict[str, str]) -> BoomError:
        """This error, its diagnostics quoting the files in texts (see quoting())."""
        self.diagnostics = quoting(self.diagnostics, texts)
        return self


class EditionError(BoomError):
    """The edition file (YAML, schema, model or DSL) is wrong."""


class RecordError(BoomError):
    """A game record (the score pad input) is wrong."""


class GameRuleError(BoomError):
    """A decision that the rules do not allow (an illegal pick or choice)."""


class LinkedText(str):
    """The text of a file read through a symbolic link: a quote of it says so (`note`), once."""

    def __new__(cls, text: str, note: str):
        made = super().__new__(cls, text)
        made.note = note
        return made


def quoting(diagnostics: list[Diagnostic], texts: dict[str, str]) -> list[Diagnostic]:
    """The diagnostics, each pointing into one of the files of texts (file -> its text) with the line
    it points at as its quote; the others (and those quoting already) as they are. The first quote of
    a file read through a symbolic link (LinkedText) says so in its hint."""
    lines: dict[str, list[str]] = {}
    noted: set[str] = set()

    def line_at(span: Span | None) -> str | None:
        if span is None or span.file not in texts:
            return None
        if span.file not in lines:
            lines[span.file] = texts[span.file].splitlines()
        return lines[span.file][span.line - 1] if 1 <= span.line <= len(lines[span.file]) else None

    out = []
    for diagnostic in diagnostics:
        if diagnostic.quote is None and line_at(diagnostic.span) is not None:
            diagnostic = replace(diagnostic, quote=line_at(diagnostic.span))
            note = getattr(texts[diagnostic.span.file], "note", None)
            if note and diagnostic.span.file not in noted:
                noted.add(diagnostic.span.file)
                diagnostic = replace(diagnostic, hint=f"{diagnostic.hint}; {note}" if diagnostic.hint else note)
        if any(note.quote is None and line_at(note.span) is not None for note in diagnostic.notes):
            notes = tuple(note if note.quote is not None else replace(note, quote=line_at(note.span))
                          for note in diagnostic.notes)
            diagnostic = replace(diagnostic, notes=notes)
        out.append(diagnostic)
    return out


def as_errors(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`validate --strict`: every warning an error (a probable mistake refused); notes stay notes.
    The summary of reconstructed facts (W402) is a fact about the data, never a mistake."""
    return [replace(d, severity="error") if d.severity == "warning" and d.code != "W402" else d for d in diagnostics]


def suggest(name: str, candidates) -> str | None:
    """A 'did you mean' hint, or None when nothing is close."""
    candidates = list(candidates)
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in candidates}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    return f"did you mean '{close[0]}'?" if close else None


WHOLE_LINE = 80     # a quoted line up to this long is shown whole
WINDOW = 60         # a longer one (a one-line JSON save, a minified file): this many columns around the caret


def window(line: str, at: int, width: int) -> tuple[str, int, int]:
    """The part of a quoted line to show, the caret's column in it and the marked width: a long line
    is cut to about WINDOW columns around the caret, '...' where it is cut."""
    if len(line) <= WHOLE_LINE:
        return line, at, width
    start = max(0, min(at - WINDOW // 2, len(line) - WINDOW))
    end = min(len(line), start + WINDOW)
    before, after = ("..." if start > 0 else ""), ("..." if end < len(line) else "")
    return before + line[start:end] + after, len(before) + at - start, max(1, min(width, end - at))


def render(diagnostic: Diagnostic, code: bool = False) -> str:
    """`file:line:col: severity: message`, the source line, a caret under the span, the hint, then
    each note the same way. code=True ends the first line with the code (`[D202]`, docs/errors.md).
    Everything from an input (the file's name, the message's names and values, the quote, the hint)
    goes through one escaping (escaping.one_line): no control sequence, line break or bidirectional
    control reaches the terminal."""
    span = diagnostic.span
    head = f"{span}: " if span else ""
    tail = f" [{diagnostic.code}]" if code and diagnostic.code else ""
    out = [one_line(f"{head}{diagnostic.severity}: {diagnostic.message}{tail}")]
    out += _quoted(span, diagnostic.quote, "    ")
    if diagnostic.hint:
        out.append("    hint: " + one_line(diagnostic.hint))
    for note in diagnostic.notes:
        out.append("    note: " + one_line(f"{f'{note.span}: ' if note.span else ''}{note.message}"))
        out += _quoted(note.span, note.quote, "        ")
    return "\n".join(out)


def _quoted(span: Span | None, text: str | None, indent: str) -> list[str]:
    """The quoted source line (a long one cut around the caret: window) and a caret line under the span's
    characters (none without a quote)."""
    if span is None or text is None:
        return []
    width = 1
    if span.end_line == span.line and span.end_col and span.end_col > span.col:
        width = span.end_col - span.col
    text, at, width = window(text.expandtabs(1), span.col - 1, width)
    return [f"{indent}{one_line(text)}", indent + " " * at + "^" + "~" * (width - 1)]
