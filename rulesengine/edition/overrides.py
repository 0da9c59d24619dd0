"""Warnings about a house rule's changes that are probably mistakes, found by comparing it with its parent.

A typo in a key adds an entry instead of changing one (`key: animal` beside the parent's `animals`),
a new category without a title shows its key on the sheet, an override drops a rule the parent had
(`choice.requires`), a list given whole drops most of the parent's (one map path instead of 34), and a
description keeps stating a number the house rule changed ("Koalas 7" after Koalas became 14). Each is
valid data, so each is a warning with a code (`validate --strict` makes them errors). This module only
compares data; it never changes it.
"""

from __future__ import annotations

import re

from ..errors import Diagnostic, Note
from .merge import KEYED_LISTS, NAMED_MAPS, SINGULAR
from .templates import PLACEHOLDER, facts_of

NUMBER = re.compile(r"(?<![\w.{])\d+(?![\w}])")


def override_warnings(parent: dict, child: dict, merged: dict, composed) -> list[Diagnostic]:
    """Every warning about what the house rule `child` does to `parent` (both plain data), giving `merged`."""
    out = []
    out += close_keys(parent, child, merged, composed)
    out += untitled(parent, merged, composed)
    out += dropped_requirements(parent, merged, composed)
    out += lists_cut_short(composed)
    out += stale_numbers(parent, merged, composed)
    return out


def _list(data, section: str) -> list:
    """A list section of data that may be malformed (the warnings come with the schema's errors too)."""
    value = data.get(section) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def _names(data: dict, section: str) -> list[str]:
    """The names of a section's entries (the parent's data may hold anything where it was never checked)."""
    value = data.get(section) if isinstance(data, dict) else None
    if section in KEYED_LISTS:
        field = KEYED_LISTS[section]
        return [str(e[field]) for e in (value if isinstance(value, list) else ())
                if isinstance(e, dict) and isinstance(e.get(field), str | int) and not isinstance(e.get(field), bool)]
    return [str(k) for k in value] if isinstance(value, dict) else []


def _index_of(merged: dict, section: str, name: str) -> int | None:
    field = KEYED_LISTS[section]
    for index, entry in enumerate(_list(merged, section)):
        if isinstance(entry, dict) and str(entry.get(field)) == name:
            return index
    return None


def _place(merged: dict, section: str, name: str) -> tuple:
    """The path of the entry `name` of a section in the merged data, at its naming key."""
    if section in KEYED_LISTS:
        index = _index_of(merged, section, name)
        return (section, index, KEYED_LISTS[section]) if index is not None else (section,)
    return (section, name)


def close_keys(parent: dict, child: dict, merged: dict, composed) -> list[Diagnostic]:
    """W410: a new category, region, race, table or family whose key is close to one of the parent's."""
    out = []
    for section in ("categories", "regions", "races", "tables", "families"):
        before = _names(parent, section)
        for name in _names(merged, section):
            if name in before or name not in _names(child, section):
                continue
            close = [other for other in before if _typo(name, other)][:1]
            if not close:
                continue
            where = _place(merged, section, name)
            word = SINGULAR[section]
            field = KEYED_LISTS.get(section, "name")
            out.append(Diagnostic(
                composed.span_at(where, key=section in NAMED_MAPS), f"'{name}' adds a new {word}, close to the "
                f"{word} '{close[0]}' of the edition it extends", "W410", severity="warning",
                hint=f"did you mean '{close[0]}'? The same {field} changes the parent's {word}; "
                     f"a new one adds a {word}",
                notes=(Note(composed.parent.span_at(_place(parent, section, close[0]), key=section in NAMED_MAPS),
                            f"the {word} '{close[0]}' is here"),)))
    return out


def untitled(parent: dict, merged: dict, composed) -> list[Diagnostic]:
    """W411: a new category or race without a title: the sheet would show its key."""
    out = []
    for section in ("categories", "races"):
        before = _names(parent, section)
        for index, entry in enumerate(_list(merged, section)):
            if isinstance(entry, dict) and isinstance(entry.get("key"), str) and entry["key"] not in before \
                    and "title" not in entry:
                out.append(Diagnostic(
                    composed.span_at((section, index, "key")),
                    f"the new {SINGULAR[section]} '{entry['key']}' has no title, so the sheet shows '{entry['key']}'",
                    "W411", severity="warning", hint="add `title:` with the words for the score sheet"))
    return out


def dropped_requirements(parent: dict, merged: dict, composed) -> list[Diagnostic]:
    """W412: a category whose choice had a `requires` in the parent and has none now (removed and given again)."""
    out = []
    categories = _list(parent, "categories")
    had = {e["key"]: (index, e["choice"]) for index, e in enumerate(categories)
           if isinstance(e, dict) and isinstance(e.get("key"), str) and isinstance(e.get("choice"), dict)
           and e["choice"].get("requires")}
    for index, entry in enumerate(_list(merged, "categories")):
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) or entry["key"] not in had \
                or not isinstance(entry.get("choice"), dict):
            continue
        if not entry["choice"].get("requires"):
            parent_index, choice = had[entry["key"]]
            out.append(Diagnostic(
                composed.span_at(("categories", index, "choice"), key=True),
                f"the choice of '{entry['key']}' no longer has the requirement of the edition it extends "
                f"({choice['requires']})", "W412", severity="warning",
                hint="a choice merges key by key: change only what differs (`choice: {once_per_game: false}`), "
                     "or give `requires: 'true'` to drop it on purpose",
                notes=(Note(composed.parent.span_at(("categories", parent_index, "choice", "requires")),
                            "the requirement was here"),)))
    return out


def lists_cut_short(composed) -> list[Diagnostic]:
    """W414: a list given whole that keeps fewer than half of the parent's items: an addition meant as an edit?"""
    out = []
    for path, (had, has) in composed.replaced.items():
        if has * 2 < had:
            dotted = ".".join(map(str, path))
            out.append(Diagnostic(
                composed.span_at(path, key=True), f"{dotted} replaces the {had} items of the edition it extends "
                f"with {has}", "W414", severity="warning",
                hint=f"to add to them: {path[-1]}: {{add: [...]}}; to replace them on purpose: "
                     f"{path[-1]}: {{replace: [...]}}",
                notes=(Note(composed.parent.span_at(path, key=True), f"the {had} items are here"),)))
    return out


def stale_numbers(parent: dict, merged: dict, composed) -> list[Diagnostic]:
    """W413: a description states a number that a value the house rule changed used to have."""
    before, after = facts_of(parent), facts_of(merged)
    changed = [(fact, before[fact], after.get(fact)) for fact in before if after.get(fact) != before[fact]]
    if not changed:
        return []
    out = []
    for path, text, reads in _descriptions(merged):
        written = PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)  # offsets kept
        numbers = {int(m.group(0)): m for m in reversed(list(NUMBER.finditer(written)))}  # each number's first
        for fact, old, new in changed:
            if old not in numbers or new is None:
                continue
            named = next((m for m in NUMBER.finditer(written) if int(m.group(0)) == old and _near(written, fact.name,
                                                                                                  m.start())), None)
            read = fact.read_by(reads) and not _a_row_number(merged, fact, old)
            if named or read:
                where = named or numbers[old]
                placeholder = f"{{{fact.placeholder}}}" if fact.path[0] != "regions" \
                    else f"{{regions.bonus}} (every region's) or {{{fact.placeholder}}}"
                out.append(Diagnostic(
                    composed.span_in_value(path, where.start(), where.end(), text),
                    f"this description says {old}, but {fact.words} is now {new}", "W413", severity="warning",
                    hint=f"write {placeholder} where the number goes: `boom rules` fills in the value"))
                break
    return out


def _descriptions(merged: dict):
    """(path, text, the expressions of its entry) of every description an edition has."""
    if isinstance(merged, dict) and isinstance(merged.get("description"), str):
        yield ("description",), merged["description"], ""
    for section, formulas in (("categories", ("score",)), ("races", ("qualifies", "award"))):
        for index, entry in enumerate(_list(merged, section)):
            if not isinstance(entry, dict):
                continue
            reads = " ".join(str(entry.get(key, "")) for key in formulas)
            if isinstance(entry.get("description"), str):
                yield (section, index, "description"), entry["description"], reads
            choice = entry.get("choice")
            if isinstance(choice, dict) and isinstance(choice.get("description"), str):
                yield (section, index, "choice", "description"), choice["description"], \
                    reads + " " + str(choice.get("requires", ""))


def _near(text: str, name: str | None, at: int) -> bool:
    """Is the name written just before the number ("Koalas 7", "Tasmania pays 6") or just after it?"""
    if not name:
        return False
    before = text.rfind(name, 0, at)
    after = text.find(name, at)
    return (before >= 0 and at - (before + len(name)) <= 12) or (after >= 0 and after - at <= 8)


def _a_row_number(merged: dict, fact, number: int) -> bool:
    """For a table's row, a number that is one of the table's row numbers ("with 4 players") is not its value."""
    if fact.path[0] != "tables":
        return False
    tables = merged.get("tables") if isinstance(merged.get("tables"), dict) else {}
    rows = tables.get(fact.path[1]) if isinstance(tables.get(fact.path[1]), dict) else {}
    return str(number) in {str(row) for row in rows}


def _typo(a: str, b: str) -> bool:
    """Could a be b mistyped: a letter missing, added, changed or two swapped (two for names over 5 letters)?"""
    if a == b or abs(len(a) - len(b)) > 2:
        return False
    return _distance(a.lower(), b.lower()) <= (2 if min(len(a), len(b)) > 5 else 1)


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, change, swap two neighbours) from a to b: optimal string alignment."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]
