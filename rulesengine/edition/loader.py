"""The front door for editions: a path in, a checked Edition (or every diagnostic) out."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import Diagnostic, EditionError, Span, quoting, suggest
from .model import Edition
from .shipped import is_bare_name, resolve_edition, shipped_editions


@dataclass
class Checked:
    """Everything a check of an edition found: the Edition (None on errors), every diagnostic, and for
    tools that look inside (the language server) the merged data, its positions and the builder."""

    edition: Edition | None
    diagnostics: list[Diagnostic]
    data: object = None
    source_map: object = None
    builder: object = None               # build.Builder


def check_edition(path: str | Path, *, quote: bool = True, runner: str = "compiled"
                  ) -> tuple[Edition | None, list[Diagnostic]]:
    """Load and check an edition (a path, or the bare name of a shipped edition); return it (None on
    errors) and all diagnostics, warnings too. quote=False for an edition named by another file (a
    save, a log): see load_yaml. runner: how its scoring runs, "compiled" (generated Python, the
    default) or "reference" (the interpreter every test compares it with): see game/program.py.
    An edition checked before, with the same files and the same code, is read back from the cache (cache.py)."""
    edition, diagnostics, _ = check_edition_data(path, quote=quote, runner=runner)
    return edition, diagnostics


def check_edition_data(path: str | Path, *, quote: bool = True, runner: str = "compiled"
                       ) -> tuple[Edition | None, list[Diagnostic], object]:
    """check_edition, and the edition's data as merged from its files (every `extends` resolved; None when it
    could not be read): what `boom simulate` hashes and hands to workers that build it themselves."""
    from .cache import checked

    def check() -> tuple[Edition | None, list[Diagnostic], object]:
        found = check_text(path, quote=quote, runner=runner)
        return found.edition, found.diagnostics, found.data

    return checked(path, quote, runner, check)


def check_text(path: str | Path, text: str | None = None, *, quote: bool = True, runner: str = "compiled"
               ) -> Checked:
    """check_edition, of the file's text as given (an editor's unsaved buffer) or as saved (never from the cache:
    the language server reads the builder's facts)."""
    from .build import Builder
    from .extends import load_with_extends
    from .overrides import override_warnings
    from .recovery import usable_part
    from .schema import schema_diagnostics

    path = resolve_edition(path) if text is None else path
    if text is None and is_bare_name(str(path)) and not Path(path).exists():
        hint = suggest(str(path), shipped_editions())
        return Checked(None, [Diagnostic(None, f"no file '{path}' and no shipped edition of that name "
                                               f"({hint + ' ' if hint else ''}`boom editions` lists them)", "E001")])
    try:
        data, source_map = load_with_extends(path, quote=quote, text=text)
    except EditionError as exc:
        return Checked(None, exc.diagnostics)
    if not isinstance(data, dict):
        where = source_map.span_at(()) if data is not None else Span(str(path), 1, 1)
        message = "an edition must be a YAML mapping of keys such as 'cards' and 'categories'"
        return Checked(None, quoting([Diagnostic(where, message, "S103")], source_map.texts), data, source_map)
    problems = schema_diagnostics(data, source_map)
    changes = getattr(source_map, "changes", None)
    warnings = override_warnings(*changes, data, source_map) if changes else []  # said with errors too
    cut = None
    if problems:  # check the meaning of what is structurally sound, so every mistake shows at once
        data, cut = usable_part(data)
    builder = Builder(data, source_map, cut, runner)
    edition = builder.build()
    diagnostics = sorted(problems + builder.diagnostics + warnings, key=_position)
    if diagnostics:
        diagnostics = quoting(diagnostics, source_map.texts)
    return Checked(None if problems else edition, diagnostics, data, source_map, builder)


def _position(diagnostic: Diagnostic) -> tuple:
    """Diagnostics by file, then by line and column."""
    span = diagnostic.span
    return (0, "", 0, 0) if span is None else (1, span.file, span.line, span.col)


def load_edition(path: str | Path, *, quote: bool = True, runner: str = "compiled") -> Edition:
    """Load an edition or raise EditionError with every error found (runner: see check_edition)."""
    return edition_or_error(*check_edition(path, quote=quote, runner=runner))


def edition_or_error(edition: Edition | None, diagnostics: list[Diagnostic]) -> Edition:
    """The checked edition, or EditionError with its errors (every diagnostic, if none is an error)."""
    if edition is None:
        raise EditionError([d for d in diagnostics if d.severity == "error"] or diagnostics)
    return edition
