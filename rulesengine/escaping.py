"""What boom prints of text it did not write itself: the one escaping every such string goes through.

A string from a file (an edition, a record, a save, a log), a name (a player's, a table's) or an
argument (a file name) can hold what a terminal obeys instead of showing: an escape sequence (an OSC
52 write to the clipboard, a colour, a cursor move), a line break that fakes an output line
("Winner: Mallory"), or a bidirectional control that makes text display in another order than it
reads (U+202E). These are shown as visible escapes (`\\x1b`, `\\n`, `\\u202e`), never sent. `shown`
keeps line breaks and tabs (a message of several lines); `one_line` shows them too, for a string
printed as part of one line (a file name in a summary, a name in a table). `line_problem` says why a
field that must be one line is not. This module imports nothing of boom.
"""

from __future__ import annotations

# Bidirectional controls (the "Trojan Source" characters) and the Unicode line and paragraph separators.
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
SEPARATORS = "\u2028\u2029"


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_CONTROLS = [*range(0x20), 0x7F, *range(0x80, 0xA0), *map(ord, BIDI + SEPARATORS)]
_MANY_LINES = {code: _escape(code) for code in _CONTROLS if code not in (0x09, 0x0A)}
_ONE_LINE = {code: _escape(code) for code in _CONTROLS} | {0x0A: "\\n", 0x09: "\\t"}


def shown(text) -> str:
    """Text safe to print: control characters, bidirectional controls and separators shown escaped;
    tabs and line breaks kept."""
    return str(text).translate(_MANY_LINES)


def one_line(text) -> str:
    """Text safe to print within one line: as `shown`, and line breaks and tabs shown as `\\n`, `\\t`."""
    return str(text).translate(_ONE_LINE)


def bidi_problem(text: str) -> tuple[int, str] | None:
    """Where and why text holds a character no file of boom may hold anywhere: a bidirectional control
    or a Unicode line or paragraph separator, as (index, words), or None."""
    for index, ch in enumerate(text):
        if ch in BIDI:
            return index, f"a bidirectional control (U+{ord(ch):04X}: text shown in another order than read)"
        if ch in SEPARATORS:
            return index, f"a Unicode separator (U+{ord(ch):04X}) that some terminals show as a line break"
    return None


def line_problem(text: str) -> tuple[int, str] | None:
    """Where and why text cannot be a one-line field (a name, a title): its first line break or
    bidirectional control, as (index, words), or None."""
    for index, ch in enumerate(text):
        if ch in "\n\r\x85" or ch in SEPARATORS:
            return index, "a line break"
        if ch in BIDI:
            return index, f"a bidirectional control (U+{ord(ch):04X}: text shown in another order than read)"
    return None
