"""Recovery: the part of a broken edition that can still be checked.

So that the builder can check the rest of a document whose structure the schema refused (schema.py), the
broken entries are cut out of the data and what was cut is said (Cut), so that a reference to a cut entry is
not reported again as unknown; it never invents a value.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .schema import ENTRY_LISTS, ENTRY_MAPS, NAMING_FIELD, is_key_error, validator


@dataclass
class Cut:
    """What usable_part took out: whole sections, and the names of single entries."""

    sections: set = field(default_factory=set)  # top-level keys missing or cut whole
    names: dict = field(default_factory=dict)  # section -> names of cut entries ("icons" too)

    def add(self, section: str, name) -> None:
        if isinstance(name, (str, int)) and not isinstance(name, bool):
            self.names.setdefault(section, set()).add(str(name))

    def covers(self, section: str, name) -> bool:
        """Was the entry `name` of `section` (or the whole section) cut? Then a reference to it is no news."""
        return section in self.sections or str(name) in self.names.get(section, ())


def _entry_of(path: tuple) -> tuple:
    """The smallest unit an error at path spoils: one entry of a section, or a top-level key."""
    if not path:
        return ()
    head = path[0]
    if head in ENTRY_LISTS or head in ENTRY_MAPS:
        return path[:2]
    if head == "map" and len(path) >= 3:
        return path[:3]
    return path[:1]


def usable_part(data: dict) -> tuple[dict, Cut]:
    """data without the entries that break the schema (and without unknown keys), and what was cut.

    A cut list entry becomes None, so the indexes of the others (and so their positions) stay put.
    """
    data = copy.deepcopy(data)
    cut = Cut()
    spoiled = set()
    for error in validator().iter_errors(data):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict) and not is_key_error(error):
            allowed = error.schema.get("properties", {})
            for key in [k for k in error.instance if k not in allowed]:
                del error.instance[key]
            continue
        if is_key_error(error):
            path = path + (error.instance,)
        if path:
            spoiled.add(_entry_of(path))
    for entry in sorted(spoiled, key=len):
        _cut(data, entry, cut)
    for section in ("players", "rounds", "hand_size", "passing", "families", "regions", "cards", "categories"):
        if section not in data:
            cut.sections.add(section)
    return data, cut


def _cut(data: dict, entry: tuple, cut: Cut) -> None:
    parent = data
    for part in entry[:-1]:
        if isinstance(parent, dict):
            parent = parent.get(part)
        elif isinstance(parent, list) and isinstance(part, int) and part < len(parent):
            parent = parent[part]
        else:
            return
    last = entry[-1]
    if isinstance(parent, list) and isinstance(last, int) and last < len(parent):
        value, parent[last] = parent[last], None
    elif isinstance(parent, dict) and last in parent:
        value = parent.pop(last)
    else:
        return  # already cut with a larger entry
    section = entry[0]
    if len(entry) == 1:
        cut.sections.add(section)
        if section == "families":
            cut.sections.add("icons")
        return
    if section in NAMING_FIELD and isinstance(value, dict):
        cut.add(section, value.get(NAMING_FIELD[section]))
    elif section in ENTRY_MAPS:
        cut.add(section, last)
        if section == "families":
            icons = value.get("icons") if isinstance(value, dict) else None
            if not isinstance(icons, (dict, list)):
                cut.sections.add("icons")  # which icons it had is unknown: no icon is news
            for icon in icons if isinstance(icons, (dict, list)) else ():
                cut.add("icons", icon)
    elif section == "map":
        cut.sections.add("map")
