"""How a house rule changes its parent, in one place: the rules of docs/authoring.md's merge table.

- A mapping merges key by key, at every depth: `passing: {catch: previous}` keeps the directions, a
  family keeps its title and its other icons, a table its other rows, a category its `choice`'s
  `requires` when only `once_per_game` is given.
- The keyed lists merge entry by entry: cards by `letter`, regions by `name`, categories and races
  by `key`; an entry with a known key changes only the fields it gives, a new key is added.
- Any other list given as a list replaces the parent's whole.
- Where the schema says so (its `listEdit`: map paths, a family's icons, the cards, a table's rows...),
  an edit changes the parent's list or mapping item by item: `{add: [...]}`, `{remove: [...]}`,
  `{replace: [...]}` (replace, then remove, then add).

Every value keeps the place it was written: the composed source map records, for each part whose
origin differs from the parent's same path, the file and path it came from. It never reads a
file and never checks meaning (build.py does).
"""

from __future__ import annotations

from ..errors import Diagnostic, Span, suggest
from .schema import is_edit_place

KEYED_LISTS = {"cards": "letter", "regions": "name", "categories": "key", "races": "key"}
NAMED_MAPS = ("families", "tables", "card_sets")
SINGULAR = {"cards": "card", "regions": "region", "categories": "category", "races": "race",
            "families": "family", "tables": "table", "card_sets": "card set"}
EDIT_KEYS = ("replace", "remove", "add")
BOTH_WAYS = (("map", "paths"),)  # a path ['A', 'B'] is the path ['B', 'A']


class ComposedSourceMap:
    """Positions for merged data: a path leads to the file that wrote it, the parent's map by default."""

    def __init__(self, file: str, parent):
        self.file = file
        self.parent = parent  # the parent's SourceMap or ComposedSourceMap
        self.origins: dict[tuple, tuple[object, tuple]] = {}  # merged path -> (map, path there)
        self.removed: dict[str, Span] = dict(getattr(parent, "removed", {}))  # name -> the `remove:` naming it
        self.replaced: dict[tuple, tuple[int, int]] = {}  # a list this file replaced whole: path -> (had, has)
        self.changes: tuple | None = None  # (the parent's data, this file's data): for overrides.py's warnings

    @property
    def texts(self) -> dict[str, str]:
        """The text of every file the merged data came from, to quote in diagnostics."""
        texts = dict(self.parent.texts)
        for source_map, _ in self.origins.values():
            texts.update(source_map.texts)
        return texts

    def resolve(self, path) -> tuple[object, tuple]:
        """(the map that wrote the value at path, its path there): the nearest recorded part, else the parent."""
        path = tuple(path)
        if not path:
            return self.origins.get((), (self.parent, ()))
        for length in range(len(path), 0, -1):
            found = self.origins.get(path[:length])
            if found is not None:
                return found[0], found[1] + path[length:]
        return self.parent, path

    def span_at(self, path, key: bool = False) -> Span:
        source_map, original = self.resolve(path)
        return source_map.span_at(original, key=key)

    def span_in_value(self, path, start, end, value) -> Span:
        source_map, original = self.resolve(path)
        return source_map.span_in_value(original, start, end, value)


def is_edit(value) -> bool:
    """An edit of a parent's list or mapping: a mapping of only add, remove and replace, each a list or mapping
    (so that an icon named 'add' with a value, or a table row, is never taken for one)."""
    return (isinstance(value, dict) and bool(value) and all(k in EDIT_KEYS for k in value)
            and all(isinstance(v, list | dict) for v in value.values()))


def edits_without_parent(data, source_map) -> list[Diagnostic]:
    """An edition that extends none cannot edit a parent's list: each edit it holds is an error (X807)."""
    problems = []

    def walk(node, path):
        if is_edit(node) and is_edit_place(path):
            first = next(iter(node))
            problems.append(Diagnostic(
                source_map.span_at(path + (first,), key=True),
                f"'{first}:' changes the {_what(path)} of the edition a house rule extends, "
                "but this file extends none",
                "X807", hint=f"write the {_what(path)} itself, as a list" if isinstance(node[first], list) else None))
            return
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in children:
            walk(value, path + (key,))

    walk(data, ())
    return problems


def _what(path) -> str:
    words = {"paths": "map's paths", "icons": "icons", "directions": "directions", "tie_breaks": "tie-breaks"}
    if len(path) == 2 and path[0] == "tables":
        return f"rows of the table '{path[1]}'"
    if len(path) == 2 and path[0] == "card_sets":
        return f"card set '{path[1]}'"
    return words.get(path[-1], str(path[-1]).replace("_", " ")) if path else "document"


class Merge:
    """One house rule merged onto its parent's data; problems (X805, X806) gathered, never raised here."""

    def __init__(self, source_map, composed: ComposedSourceMap):
        self.map = source_map  # the house rule's own SourceMap
        self.composed = composed
        self.problems: list[Diagnostic] = []

    def record(self, path, child_path) -> None:
        self.composed.origins[tuple(path)] = (self.map, tuple(child_path))

    # -- `remove:` at the top --------------------------------------------------------------------
    def removals(self, parent: dict, removals) -> dict:
        merged = dict(parent)
        if removals is None:
            return merged
        if not isinstance(removals, dict):
            self.problems.append(Diagnostic(self.map.span_at(("remove",)),
                                            "'remove' maps a section (cards, categories, ...) to the names to take out",
                                            "X805"))
            return merged
        for section, names in removals.items():
            where = ("remove", section)
            if section not in KEYED_LISTS and section not in NAMED_MAPS:
                sections = [*KEYED_LISTS, *NAMED_MAPS]
                self.problems.append(Diagnostic(self.map.span_at(where, key=True), f"cannot remove from '{section}'",
                                                "X805", hint=suggest(str(section), sections)
                                                or f"sections: {', '.join(sections)}"))
                continue
            if not isinstance(names, list):
                self.problems.append(Diagnostic(self.map.span_at(where), f"'remove.{section}' must be a list of names",
                                                "X805"))
                continue
            current = merged.get(section)
            if not isinstance(current, (list if section in KEYED_LISTS else dict) | None):
                continue  # the parent's section is broken: the schema check says so, in the parent's file
            merged[section] = self.take_out(current, names, (section,), where)
            for index, name in enumerate(names):
                if _is_name(name):
                    self.composed.removed[name] = self.map.span_at(where + (index,))
        return merged

    def take_out(self, current, names, path, child_path):
        """current (a list or mapping at path) without the named items; an item not there is X806."""
        named = []
        for index, name in enumerate(names):
            if _names_items(path) and not _is_name(name):
                self.problems.append(Diagnostic(self.map.span_at(child_path + (index,)),
                                                f"'{'.'.join(map(str, child_path))}' must be a list of names, "
                                                f"not of {type(name).__name__}s", "X805"))
                continue
            named.append((index, name))
        if isinstance(current, dict) or current is None and (_is_mapping_place(path) or path[0] in NAMED_MAPS):
            mapping = dict(current or {})
            for index, name in named:
                key = str(name) if str(name) in mapping else name
                if key not in mapping:
                    self._missing(path, child_path + (index,), name, mapping)
                mapping.pop(key, None)
            return mapping
        items = list(current or [])
        keep = list(range(len(items)))
        for index, name in named:
            found = [i for i in keep if _matches(items[i], name, path)]
            if not found:
                self._missing(path, child_path + (index,), name, [_label(items[i], path) for i in keep])
            keep = [i for i in keep if i not in found]
        return self.moved(items, keep, path)

    def _missing(self, path, where, name, existing) -> None:
        what = (f"row {name} in the table '{path[1]}'" if _is_mapping_place(path)
                else f"{_item_word(path)} {_shown(name)}")
        self.problems.append(Diagnostic(self.map.span_at(where), f"there is no {what} to remove",
                                        "X806", hint=suggest(str(name), [str(e) for e in existing])))

    def moved(self, items: list, keep: list, path) -> list:
        """The items kept, each recorded at its new index as coming from where it was."""
        for new, old in enumerate(keep):
            if new != old:
                self.composed.origins[tuple(path) + (new,)] = self.composed.resolve(tuple(path) + (old,))
        return [items[i] for i in keep]

    # -- the merge rules ---------------------------------------------------------------------------
    def value(self, parent, child, path: tuple, child_path: tuple):
        """The merged value at path: child (from child_path of the house rule) over parent."""
        if is_edit(child) and is_edit_place(path):
            return self.edit(parent, child, path, child_path)
        if len(path) == 1 and path[0] in KEYED_LISTS and isinstance(parent, list) and isinstance(child, list):
            return self.keyed(parent, child, path, child_path)
        if isinstance(parent, dict) and isinstance(child, dict):
            merged = dict(parent)
            for key, value in child.items():
                merged[key] = self.value(parent.get(key), value, path + (key,), child_path + (key,))
            if not child:
                self.record(path, child_path)
            return merged
        if isinstance(parent, list) and isinstance(child, list) and child and len(child) < len(parent):
            self.composed.replaced[path] = (len(parent), len(child))
        self.record(path, child_path)
        return child

    def keyed(self, parent: list, child: list, path: tuple, child_path: tuple) -> list:
        """A keyed list: a known key changes its entry (key by key), a new one is added at the end."""
        field = KEYED_LISTS[path[0]]
        merged = list(parent)
        positions = {e.get(field): i for i, e in enumerate(merged) if isinstance(e, dict) and _is_name(e.get(field))}
        for index, entry in enumerate(child):
            name = entry.get(field) if isinstance(entry, dict) and _is_name(entry.get(field)) else None
            if name is not None and name in positions and isinstance(merged[positions[name]], dict):
                target = positions[name]
                merged[target] = self.value(merged[target], entry, path + (target,), child_path + (index,))
            else:
                if name is not None:
                    positions[name] = len(merged)
                self.record(path + (len(merged),), child_path + (index,))
                merged.append(entry)
        return merged

    def edit(self, parent, edit: dict, path: tuple, child_path: tuple):
        """{replace, remove, add} applied in that order to the parent's list or mapping at path."""
        current = parent
        if "replace" in edit:
            current = edit["replace"]
            self.record(path, child_path + ("replace",))
        if "remove" in edit:
            if isinstance(edit["remove"], list):
                current = self.take_out(current, edit["remove"], path, child_path + ("remove",))
            else:
                self.problems.append(Diagnostic(self.map.span_at(child_path + ("remove",)),
                                                f"'remove:' lists the {_item_word(path)}s to take out", "X805"))
        if "add" in edit:
            added = edit["add"]
            if isinstance(current, dict) or current is None and isinstance(added, dict):
                base = dict(current or {})
                if isinstance(added, dict):
                    for key, value in added.items():
                        base[key] = self.value(base.get(key), value, path + (key,), child_path + ("add", key))
                    current = base
                else:
                    self.problems.append(Diagnostic(self.map.span_at(child_path + ("add",)),
                                                    f"'add:' gives {_item_word(path)}s with their values, "
                                                    f"as a mapping: {{Name: 1}}", "X805"))
            elif isinstance(added, list):
                current = list(current or [])
                if len(path) == 1 and path[0] in KEYED_LISTS:
                    current = self.keyed(current, added, path, child_path + ("add",))
                else:
                    for index, item in enumerate(added):
                        self.record(path + (len(current),), child_path + ("add", index))
                        current.append(item)
            else:
                self.problems.append(Diagnostic(self.map.span_at(child_path + ("add",)),
                                                f"'add:' lists the {_item_word(path)}s to add", "X805"))
        return current


def _is_name(value) -> bool:
    """Can value name an entry (a card letter, a key)? Lists and mappings cannot; the schema check says why."""
    return isinstance(value, str | int | float | bool) or value is None


def _names_items(path) -> bool:
    """Are the items at path removed by a name (an entry's key, a mapping's key), not by value?"""
    return (len(path) == 1 and (path[0] in KEYED_LISTS or path[0] in NAMED_MAPS)) or _is_mapping_place(path)


def _is_mapping_place(path) -> bool:
    return len(path) == 2 and path[0] == "tables"


def _matches(item, name, path) -> bool:
    """Does a list item answer to this name: an entry by its key, anything else by its value."""
    if len(path) == 1 and path[0] in KEYED_LISTS:
        return isinstance(item, dict) and item.get(KEYED_LISTS[path[0]]) == name and _is_name(name)
    if tuple(path) in BOTH_WAYS and isinstance(item, list) and isinstance(name, list) and len(item) == 2:
        return item == name or item == name[::-1]
    if isinstance(item, dict) and _is_name(name):  # a tie-break {key: ..., order: ...} by its key
        return item.get("key") == name
    return item == name


def _label(item, path) -> str:
    if len(path) == 1 and path[0] in KEYED_LISTS and isinstance(item, dict):
        return str(item.get(KEYED_LISTS[path[0]]))
    return str(item)


def _item_word(path) -> str:
    if len(path) == 1 and path[0] in SINGULAR:
        return SINGULAR[path[0]]
    if tuple(path) in BOTH_WAYS:
        return "path"
    if _is_mapping_place(path):
        return "row"
    words = {"icons": "icon", "directions": "direction", "tie_breaks": "tie-break"}
    return words.get(path[-1], "item") if path else "item"


def _shown(name) -> str:
    return repr(name) if isinstance(name, str) else str(name)
