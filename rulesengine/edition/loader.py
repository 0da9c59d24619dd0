"""The front door for editions: a path in, a checked Edition (or every diagnostic) out."""

from __future__ import annotations

from pathlib import Path

from ..errors import Diagnostic, EditionError, Span, quoting, suggest
from .build import Builder
from .extends import load_with_extends
from .model import Edition
from .schema import schema_diagnostics, usable_part
from .shipped import is_bare_name, resolve_edition, shipped_editions


def check_edition(path: str | Path, *, quote: bool = True) -> tuple[Edition | None, list[Diagnostic]]:
    """Load and check an edition (a path, or the bare name of a shipped edition); return it (None on
    errors) and all diagnostics, warnings too. quote=False for an edition named by another file (a
    save, a log): see load_yaml."""
    path = resolve_edition(path)
    if is_bare_name(str(path)) and not Path(path).exists():
        hint = suggest(str(path), shipped_editions())
        return None, [Diagnostic(None, f"no file '{path}' and no shipped edition of that name "
                                       f"({hint + ' ' if hint else ''}`boom editions` lists them)", "E001")]
    try:
        data, source_map = load_with_extends(path, quote=quote)
    except EditionError as exc:
        return None, exc.diagnostics
    if not isinstance(data, dict):
        where = source_map.span_at(()) if data is not None else Span(str(path), 1, 1)
        message = "an edition must be a YAML mapping of keys such as 'cards' and 'categories'"
        return None, quoting([Diagnostic(where, message, "S103")], source_map.texts)
    problems = schema_diagnostics(data, source_map)
    cut = None
    if problems:  # check the meaning of what is structurally sound, so every mistake shows at once
        data, cut = usable_part(data)
    builder = Builder(data, source_map, cut)
    edition = builder.build()
    diagnostics = sorted(problems + builder.diagnostics, key=_position)
    return (None if problems else edition), quoting(diagnostics, source_map.texts) if diagnostics else diagnostics


def _position(diagnostic: Diagnostic) -> tuple:
    """Diagnostics by file, then by line and column."""
    span = diagnostic.span
    return (0, "", 0, 0) if span is None else (1, span.file, span.line, span.col)


def load_edition(path: str | Path, *, quote: bool = True) -> Edition:
    """Load an edition or raise EditionError with every error found."""
    edition, diagnostics = check_edition(path, quote=quote)
    if edition is None:
        raise EditionError([d for d in diagnostics if d.severity == "error"] or diagnostics)
    return edition
