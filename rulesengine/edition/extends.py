"""House rules as small files: `extends: parent.yaml` plus only what changes.

Merging rules, applied to the parent's data (itself possibly extended):
- `remove:` (child only) takes entries out first: `remove: {cards: ['#'], categories: [activities]}`
  names card letters, category and race keys, region names, or family, table and card-set names.
- mappings merge key by key, the child winning; other lists are replaced whole;
- the keyed lists merge by their key: cards by `letter`, regions by `name`, categories and races
  by `key`. A child entry with a known key updates that entry (only the keys it gives); a new key
  is appended.
Every node of the result remembers the file and place it came from, so errors point into the file
where the mistake is. A cycle of `extends` is an error.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import Diagnostic, EditionError, Span, suggest
from .schema import validator
from .source import SourceMap, load_yaml

KEYED_LISTS = {"cards": "letter", "regions": "name", "categories": "key", "races": "key"}
NAMED_MAPS = ("families", "tables", "card_sets")
SINGULAR = {"cards": "card", "regions": "region", "categories": "category", "races": "race"}
MAX_CHAIN = 16


class ComposedSourceMap:
    """Positions for merged data: each path of the result leads back to (file map, path there)."""

    def __init__(self, file: str):
        self.file = file
        self.origins: dict[tuple, tuple[SourceMap, tuple]] = {}
        self.removed: dict[str, Span] = {}  # name removed by `remove:` -> where, for errors about what named it

    @property
    def texts(self) -> dict[str, str]:
        """The text of every file the merged data came from, to quote in diagnostics."""
        maps = {id(source_map): source_map for source_map, _ in self.origins.values()}
        return {m.file: m.text for m in maps.values() if m.quotable}

    def _origin(self, path: tuple):
        path = tuple(path)
        while True:
            if path in self.origins:
                return path, self.origins[path]
            if not path:
                return None
            path = path[:-1]

    def span_at(self, path, key: bool = False) -> Span:
        found = self._origin(path)
        if found is None:
            return Span(self.file, 1, 1)
        matched, (source_map, original) = found
        return source_map.span_at(original + tuple(path)[len(matched) :], key=key)

    def span_in_value(self, path, start, end, value) -> Span:
        found = self._origin(path)
        if found is None or found[0] != tuple(path):
            return self.span_at(path)
        source_map, original = found[1]
        return source_map.span_in_value(original, start, end, value)


def _stamp(origins, source_map, data, merged_path, original_path):
    """Record that data (and everything under it) at merged_path came from original_path."""
    origins[tuple(merged_path)] = (source_map, tuple(original_path))
    if isinstance(data, dict):
        for key, value in data.items():
            _stamp(origins, source_map, value, merged_path + (key,), original_path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            _stamp(origins, source_map, value, merged_path + (index,), original_path + (index,))


def looks_like_edition(data) -> bool:
    """A mapping with at least one key of an edition: a file named by another file is read as an
    edition only then (an /etc/shadow line is a YAML mapping too, of one odd key)."""
    return isinstance(data, dict) and any(key in data for key in edition_keys())


def edition_keys() -> tuple:
    return ("extends", "remove", *validator().schema["properties"])


def load_with_extends(path: str | Path, chain: tuple = (), *, quote: bool = True) -> tuple[object, object]:
    """Load an edition file, resolving `extends`; return (data, source map) or raise EditionError.
    quote=False for a file named by another (a parent, a save's edition): unless it looks like an
    edition it is refused naming only the file, and its lines are never quoted (see load_yaml)."""
    data, source_map = load_yaml(path, quote=True if quote else looks_like_edition)
    if not quote and not looks_like_edition(data):
        message = f"{path} is not an edition (not a YAML mapping of an edition's keys)"
        raise EditionError(Diagnostic(None, message, "X804"))
    if not isinstance(data, dict) or "extends" not in data:
        return data, source_map
    try:
        return _extend(path, chain, data, source_map)
    except EditionError as exc:
        raise exc.quoting(source_map.texts) from None


def _extend(path, chain: tuple, data: dict, source_map: SourceMap) -> tuple[dict, ComposedSourceMap]:
    """data (the file at path, with `extends`) merged onto its parent."""
    parent_name = data["extends"]
    if not isinstance(parent_name, str) or not parent_name:
        raise EditionError(
            Diagnostic(
                source_map.span_at(("extends",)), "'extends' must be the path of the edition this file changes", "X801"
            )
        )
    try:
        parent_path = (Path(path).parent / parent_name).resolve()
        here = Path(path).resolve()
        found = parent_path.is_file()
        as_written = Path(os.path.normpath(Path(path).parent / parent_name))  # named as the user wrote it
        parent_file = as_written if as_written.resolve() == parent_path else parent_path
    except (OSError, ValueError, RuntimeError) as exc:  # a NUL in the name, a name too long, a symlink loop...
        raise EditionError(
            Diagnostic(
                source_map.span_at(("extends",)),
                f"cannot find the edition '{parent_name}' ({getattr(exc, 'strerror', None) or exc})",
                "X804",
            )
        ) from None
    if parent_path in chain or parent_path == here:
        cycle = " -> ".join(p.name for p in (*chain, here, parent_path))
        raise EditionError(Diagnostic(source_map.span_at(("extends",)), f"'extends' makes a cycle: {cycle}", "X802"))
    if len(chain) >= MAX_CHAIN:
        raise EditionError(
            Diagnostic(source_map.span_at(("extends",)), f"more than {MAX_CHAIN} files extend one another", "X803")
        )
    if not found:
        raise EditionError(
            Diagnostic(
                source_map.span_at(("extends",)),
                f"cannot find the edition '{parent_name}' (looked for {parent_path})",
                "X804",
            )
        )
    try:
        parent_data, parent_map = load_with_extends(parent_file, (*chain, here), quote=False)
    except EditionError as exc:
        if [d.code for d in exc.diagnostics] == ["X804"] and exc.diagnostics[0].span is None:
            message = f"'{parent_name}' is not an edition: {exc.diagnostics[0].message}"
            raise EditionError(Diagnostic(source_map.span_at(("extends",)), message, "X804")) from None
        raise

    composed = ComposedSourceMap(str(path))
    if isinstance(parent_map, ComposedSourceMap):
        composed.origins.update(parent_map.origins)
    else:
        _stamp(composed.origins, parent_map, parent_data, (), ())
    merged = _apply_removals(parent_data, data.get("remove"), source_map, composed)
    for key, value in data.items():
        if key in ("extends", "remove"):
            continue
        merged[key] = _merge_key(key, merged.get(key), value, source_map, composed)
    composed.origins[()] = (source_map, ())
    return merged, composed


def _apply_removals(parent: dict, removals, source_map: SourceMap, composed: ComposedSourceMap) -> dict:
    merged = dict(parent)
    if removals is None:
        return merged
    problems = []
    if not isinstance(removals, dict):
        raise EditionError(
            Diagnostic(
                source_map.span_at(("remove",)),
                "'remove' maps a section (cards, categories, ...) to the names to take out",
                "X805",
            )
        )
    for section, names in removals.items():
        where = ("remove", section)
        if section not in KEYED_LISTS and section not in NAMED_MAPS:
            problems.append(
                Diagnostic(
                    source_map.span_at(where, key=True),
                    f"cannot remove from '{section}'",
                    "X805",
                    hint=suggest(str(section), [*KEYED_LISTS, *NAMED_MAPS])
                    or f"sections: {', '.join([*KEYED_LISTS, *NAMED_MAPS])}",
                )
            )
            continue
        if not isinstance(names, list):
            problems.append(
                Diagnostic(source_map.span_at(where), f"'remove.{section}' must be a list of names", "X805")
            )
            continue
        for index, name in enumerate(names):
            if not _is_name(name):
                problems.append(
                    Diagnostic(
                        source_map.span_at(where + (index,)),
                        f"'remove.{section}' must be a list of names, not of {type(name).__name__}s",
                        "X805",
                    )
                )
        names = [name for name in names if _is_name(name)]
        current = merged.get(section)
        if section in KEYED_LISTS:
            if not isinstance(current, list | None):
                continue  # the parent's section is broken: the schema check says so, in the parent's file
            field = KEYED_LISTS[section]
            entries = list(current or [])
            existing = {e.get(field) for e in entries if isinstance(e, dict) and _is_name(e.get(field))}
            for index, name in enumerate(names):
                if name not in existing:
                    problems.append(
                        Diagnostic(
                            source_map.span_at(where + (index,)),
                            f"there is no {SINGULAR[section]} '{name}' to remove",
                            "X806",
                            hint=suggest(str(name), map(str, existing)),
                        )
                    )
            taken_out = set(names)
            for index, name in enumerate(names):
                composed.removed[name] = source_map.span_at(where + (index,))
            keep = [
                i
                for i, e in enumerate(entries)
                if not (isinstance(e, dict) and _is_name(e.get(field)) and e.get(field) in taken_out)
            ]
            _reindex(composed, (section,), keep)
            merged[section] = [entries[i] for i in keep]
        else:
            if not isinstance(current, dict | None):
                continue
            mapping = dict(current or {})
            for index, name in enumerate(names):
                if name not in mapping:
                    problems.append(
                        Diagnostic(
                            source_map.span_at(where + (index,)),
                            f"there is no {section} entry '{name}' to remove",
                            "X806",
                            hint=suggest(str(name), map(str, mapping)),
                        )
                    )
                mapping.pop(name, None)
            merged[section] = mapping
    if problems:
        raise EditionError(problems)
    return merged


def _is_name(value) -> bool:
    """Can value name an entry (a card letter, a key)? Lists and mappings cannot; the schema check says why."""
    return isinstance(value, str | int | float | bool) or value is None


def _reindex(composed: ComposedSourceMap, prefix: tuple, keep: list[int]) -> None:
    """After list entries are removed, move the remembered origins to the entries' new indexes."""
    new_index = {old: new for new, old in enumerate(keep)}
    moved = {}
    for path, origin in list(composed.origins.items()):
        if path[: len(prefix)] == prefix and len(path) > len(prefix):
            del composed.origins[path]
            old = path[len(prefix)]
            if old in new_index:
                moved[prefix + (new_index[old],) + path[len(prefix) + 1 :]] = origin
    composed.origins.update(moved)


def _forget(composed: ComposedSourceMap, prefixes: set, length: int) -> None:
    """Drop the origins under the given paths (all of one length), in one pass over the table."""
    if prefixes:
        for path in [p for p in composed.origins if p[:length] in prefixes]:
            del composed.origins[path]


def _merge_key(key, parent_value, child_value, source_map: SourceMap, composed: ComposedSourceMap):
    # Origins of replaced values are dropped in one pass before the new ones are stamped: a pass per
    # value would make a large house rule take minutes.
    if key in KEYED_LISTS and isinstance(parent_value, list) and isinstance(child_value, list):
        field = KEYED_LISTS[key]
        merged = list(parent_value)
        positions = {e.get(field): i for i, e in enumerate(merged) if isinstance(e, dict) and _is_name(e.get(field))}
        replaced, stamps = set(), []
        for child_index, entry in enumerate(child_value):
            name = entry.get(field) if isinstance(entry, dict) and _is_name(entry.get(field)) else None
            if name is not None and name in positions:
                target = positions[name]
                base = merged[target] if isinstance(merged[target], dict) else {}
                merged[target] = {**base, **entry}
                for entry_key, value in entry.items():
                    replaced.add((key, target, entry_key))
                    stamps.append((value, (key, target, entry_key), (key, child_index, entry_key)))
            else:
                positions[name] = len(merged)
                stamps.append((entry, (key, len(merged)), (key, child_index)))
                merged.append(entry)
        _forget(composed, replaced, 3)
        for value, merged_path, original_path in stamps:
            _stamp(composed.origins, source_map, value, merged_path, original_path)
        return merged
    if isinstance(parent_value, dict) and isinstance(child_value, dict):
        merged = dict(parent_value)
        _forget(composed, {(key, sub_key) for sub_key in child_value}, 2)
        for sub_key, value in child_value.items():
            merged[sub_key] = value
            _stamp(composed.origins, source_map, value, (key, sub_key), (key, sub_key))
        composed.origins.setdefault((key,), (source_map, (key,)))
        return merged
    _forget(composed, {(key,)}, 1)
    _stamp(composed.origins, source_map, child_value, (key,), (key,))
    return child_value
