"""Diagnostics: every problem found in an input carries a span and renders like a compiler error.

A diagnostic carries the line of source it points at (its quote), attached by the code that read
the file, at the boundary where the problem leaves it: there is no global table of file texts.
This module only describes and renders problems; it never decides what is wrong.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace


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
class Diagnostic:
    span: Span | None
    message: str
    code: str
    severity: str = field(default="error", kw_only=True)
    hint: str | None = field(default=None, kw_only=True)
    quote: str | None = field(default=None, kw_only=True, compare=False)   # the source line at span.line

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


def quoting(diagnostics: list[Diagnostic], texts: dict[str, str]) -> list[Diagnostic]:
    """The diagnostics, each pointing into one of the files of texts (file -> its text) with the line
    it points at as its quote; the others (and those quoting already) as they are."""
    lines: dict[str, list[str]] = {}
    out = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        if diagnostic.quote is None and span is not None and span.file in texts:
            if span.file not in lines:
                lines[span.file] = texts[span.file].splitlines()
            if 1 <= span.line <= len(lines[span.file]):
                diagnostic = replace(diagnostic, quote=lines[span.file][span.line - 1])
        out.append(diagnostic)
    return out


def suggest(name: str, candidates) -> str | None:
    """A 'did you mean' hint, or None when nothing is close."""
    candidates = list(candidates)
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in candidates}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    return f"did you mean '{close[0]}'?" if close else None


CONTROLS = {ch: f"\\x{ch:02x}" for ch in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if ch not in (0x09, 0x0A)}


def shown(text: str) -> str:
    """Text safe to print: terminal control characters (ESC of an ANSI sequence...) shown escaped
    as \\x1b, never sent to the terminal. Tabs and newlines stay."""
    return text.translate(CONTROLS)


def render(diagnostic: Diagnostic) -> str:
    """`file:line:col: severity: message`, the source line, a caret under the span, the hint.
    Everything quoted from an input is shown with its control characters escaped."""
    span = diagnostic.span
    head = f"{span}: " if span else ""
    out = [shown(f"{head}{diagnostic.severity}: {diagnostic.message}")]
    if span:
        text = diagnostic.quote
        if text is not None:
            text = shown(text.expandtabs(1))
            width = 1
            if span.end_line == span.line and span.end_col and span.end_col > span.col:
                width = span.end_col - span.col
            out.append(f"    {text}")
            out.append("    " + " " * (span.col - 1) + "^" + "~" * (width - 1))
    if diagnostic.hint:
        out.append(shown(f"    hint: {diagnostic.hint}"))
    return "\n".join(out)
