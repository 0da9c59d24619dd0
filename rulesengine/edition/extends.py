"""House rules as small files: `extends: parent` plus only what changes.

The parent is a path relative to the file, or the name of a shipped edition (`extends: australia`,
as `boom run australia` takes it). The merge rules live in merge.py (and docs/authoring.md's merge
table); this module reads the chain of files, in order, and hands each to the merge. Every node of
the result remembers the file and place it came from, so errors point into the file where the
mistake is. A cycle of `extends` is an error.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import Diagnostic, EditionError
from .borrow import Borrow
from .cache import looked_for
from .merge import KEYED_LISTS, NAMED_MAPS, ComposedSourceMap, Merge, edits_without_parent
from .shipped import is_bare_name, shipped_editions
from .source import EDITION, NAMED_EDITION, SourceMap, load_yaml

__all__ = ["KEYED_LISTS", "NAMED_MAPS", "ComposedSourceMap", "load_with_extends", "looks_like_edition"]
MAX_CHAIN = 16


def looks_like_edition(data) -> bool:
    """A file named by another file is read as an edition only if it parses as one (source.EDITION:
    `format`, `id`, `cards` or `extends` at its top); an /etc/shadow line or a docker-compose file
    with a `name:` is a YAML mapping too."""
    return EDITION.parsed(data)


def load_with_extends(path: str | Path, chain: tuple = (), *, quote: bool = True,
                      text: str | None = None) -> tuple[object, object]:
    """Load an edition file, resolving `extends`; return (data, source map) or raise EditionError.
    quote=False for a file named by another (a parent, a save's edition): unless it looks like an
    edition it is refused naming only the file, and its lines are never quoted (see load_yaml).
    text: the file's text when it is not (yet) saved, as an editor has it; its parents are read."""
    kind = EDITION if quote else NAMED_EDITION
    data, source_map = load_yaml(path, text, quote=True if quote else looks_like_edition, kind=kind)
    if not quote and not looks_like_edition(data):
        message = f"{path} is not an edition (not a YAML mapping of an edition's keys)"
        raise EditionError(Diagnostic(None, message, "X804"))
    if not isinstance(data, dict) or ("extends" not in data and "borrow" not in data):
        problems = edits_without_parent(data, source_map)
        if problems:
            raise EditionError(problems).quoting(source_map.texts)
        return data, source_map
    try:
        return _extend(path, chain, data, source_map)
    except EditionError as exc:
        raise exc.quoting(source_map.texts) from None


def parent_file(path, parent_name: str, source_map: SourceMap, at: tuple = ("extends",)) -> Path:
    """The file `extends: parent_name` (or the value at `at`) in the file at path names: a path relative
    to it, else a shipped edition's name; named as the user wrote it when that is the same file."""
    where = source_map.span_at(at)
    try:
        parent_path = (Path(path).parent / parent_name).resolve()
        if not parent_path.is_file() and is_bare_name(parent_name) and parent_name in shipped_editions():
            looked_for(parent_path)  # a file of that name made later is read in place of the shipped one
            return shipped_editions()[parent_name]
        found = parent_path.is_file()
        as_written = Path(os.path.normpath(Path(path).parent / parent_name))
    except (OSError, ValueError, RuntimeError) as exc:  # a NUL in the name, a name too long, a symlink loop...
        message = f"cannot find the edition '{parent_name}' ({getattr(exc, 'strerror', None) or exc})"
        raise EditionError(Diagnostic(where, message, "X804")) from None
    if not found:
        from ..errors import suggest

        shipped = shipped_editions()
        hint = suggest(parent_name.removesuffix(".yaml"), shipped) if is_bare_name(parent_name) else None
        raise EditionError(Diagnostic(where, f"cannot find the edition '{parent_name}' (looked for {parent_path}, "
                                             "and for a shipped edition of that name)", "X804",
                                      hint=hint or "`boom editions` lists the shipped editions by name"))
    return as_written if as_written.resolve() == parent_path else parent_path


def _extend(path, chain: tuple, data: dict, source_map: SourceMap) -> tuple[dict, ComposedSourceMap]:
    """data (the file at path, with `extends`, `borrow` or both) merged onto its parent and what it borrows."""
    parent_name = data.get("extends")
    if "extends" in data and (not isinstance(parent_name, str) or not parent_name):
        message = "'extends' must be the path or the name of the edition this file changes"
        raise EditionError(Diagnostic(source_map.span_at(("extends",)), message, "X801"))

    def read(name: str, where: tuple) -> tuple[object, object]:
        return _read_named(path, chain, name, source_map, where)

    if "extends" in data:
        parent_data, parent_map = read(parent_name, ("extends",))
    else:  # a whole edition that borrows: its parent is nothing, its own file places what it does not borrow
        parent_data, parent_map = {}, source_map
    if not isinstance(parent_data, dict):
        parent_data = {}  # an empty parent: the schema check says what the result lacks
    composed = ComposedSourceMap(str(path), parent_map)
    merge = Merge(source_map, composed)
    merged = merge.removals(parent_data, data.get("remove"))
    borrow = Borrow(source_map, composed, read, data)
    merged = borrow.apply(merged, data.get("borrow"))
    for key, value in data.items():
        if key not in ("extends", "remove", "borrow"):
            merged[key] = merge.value(merged.get(key), value, (key,), (key,))
    composed.origins[()] = (source_map, ())
    if borrow.problems or merge.problems:
        raise EditionError(sorted(borrow.problems + merge.problems, key=_position))
    if not chain and "extends" in data:  # the file being checked: what its changes do to its parent
        composed.changes = (borrow.onto(parent_data), data)  # the parent and what it borrows (loader.py warns)
    return merged, composed


def _read_named(path, chain: tuple, name: str, source_map: SourceMap, where: tuple) -> tuple[object, object]:
    """The data and positions of the edition that the value at where (`extends`, a `borrow`'s `from`)
    names, read with its own parents; a cycle, a chain too long, a file that is not one are errors there."""
    parent = parent_file(path, name, source_map, where)
    here, parent_path = Path(path).resolve(), Path(parent).resolve()
    word = where[0]
    if parent_path in chain or parent_path == here:
        cycle = " -> ".join(p.name for p in (*chain, here, parent_path))
        raise EditionError(Diagnostic(source_map.span_at(where), f"'{word}' makes a cycle: {cycle}", "X802"))
    if len(chain) >= MAX_CHAIN:
        raise EditionError(
            Diagnostic(source_map.span_at(where), f"more than {MAX_CHAIN} files extend one another", "X803")
        )
    try:
        return load_with_extends(parent, (*chain, here), quote=False)
    except EditionError as exc:
        if [d.code for d in exc.diagnostics] == ["X804"] and exc.diagnostics[0].span is None:
            message = exc.diagnostics[0].message  # it names the file
            raise EditionError(Diagnostic(source_map.span_at(where), message, "X804")) from None
        raise


def _position(diagnostic: Diagnostic) -> tuple:
    span = diagnostic.span
    return (0, "", 0, 0) if span is None else (1, span.file, span.line, span.col)
