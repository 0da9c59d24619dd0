"""Rules text that stays true: descriptions name the values they state, and `boom rules` fills them in.

A description may write `{families.animal.Koalas}` (an icon's value), `{families.animal}` (every icon
of a family with its value), `{regions.Tasmania.bonus}`, `{regions.bonus}` (in words: "3 points", or
"3 points, or 6 for Tasmania"), `{tables.activity_points.2}` (a row) or `{tables.activity_points}` (every
row). A house rule that changes the value changes the text. This module finds, checks and fills
placeholders and lists the values a description could state (facts_of, for the stale-number
warning); it never changes an edition.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass

SECTIONS = ("families", "regions", "tables")
PLACEHOLDER = re.compile(r"\{([a-z_]+)((?:\.[^{}.]+)*)\}")


@dataclass(frozen=True)
class Fact:
    """A number of the data a description may state: an icon's value, a region's bonus, a table's row."""

    path: tuple          # where it is in the data
    name: str | None     # the name a description states it by (an icon, a region), None for a table row
    words: str           # the value in words, for a warning
    placeholder: str     # what to write instead of the number
    reads: str           # a name in an expression that reads it (the family, `bonus`, the table)

    def read_by(self, text: str) -> bool:
        return bool(re.search(rf"\b{re.escape(self.reads)}\b", text))


def facts_of(data: dict) -> dict[Fact, int]:
    """Every icon value, region bonus and table row of plain edition data, with its value."""
    out = {}
    families = data.get("families") if isinstance(data.get("families"), dict) else {}
    for key, family in families.items():
        icons = family.get("icons") if isinstance(family, dict) else None
        for icon, value in (icons.items() if isinstance(icons, dict) else ()):
            if isinstance(value, int):
                out[Fact(("families", key, "icons", icon), icon, icon, f"families.{key}.{icon}", key)] = value
    for region in data.get("regions") if isinstance(data.get("regions"), list) else ():
        if isinstance(region, dict) and isinstance(region.get("bonus"), int) and isinstance(region.get("name"), str):
            name = region["name"]
            out[Fact(("regions", name, "bonus"), name, f"the bonus of {name}", f"regions.{name}.bonus",
                     "bonus")] = region["bonus"]
    tables = data.get("tables") if isinstance(data.get("tables"), dict) else {}
    for table, rows in tables.items():
        for row, value in (rows.items() if isinstance(rows, dict) else ()):
            if isinstance(value, int):
                out[Fact(("tables", table, str(row)), None, f"row {row} of {table}", f"tables.{table}.{row}",
                         table)] = value
    return out


@dataclass(frozen=True)
class Problem:
    start: int
    end: int
    message: str
    hint: str | None = None


def fill(text: str, edition) -> str:
    """The description with each placeholder replaced by its value in this edition (unknown ones left)."""
    def value(match):
        found = _value(match, edition)
        return match.group(0) if isinstance(found, Problem) else found

    return PLACEHOLDER.sub(value, text)


def problems(text: str, edition_parts) -> list[Problem]:
    """Each placeholder of text that names nothing in the edition (edition_parts: families, regions, tables)."""
    return [found for match in PLACEHOLDER.finditer(text)
            if isinstance(found := _value(match, edition_parts), Problem)]


def _value(match, edition) -> str | Problem:
    section, rest = match.group(1), match.group(2)
    parts = rest[1:].split(".") if rest else []
    start, end = match.start(), match.end()
    if section not in SECTIONS:
        close = difflib.get_close_matches(section, SECTIONS, n=1, cutoff=0.6)
        if not close:
            return match.group(0)  # braces that are not a placeholder: left as written
        return Problem(start, end, f"'{{{section}...}}' names no part of the edition", f"did you mean '{close[0]}'?")
    if section == "families":
        return _family(parts, edition.families, start, end)
    if section == "regions":
        return _region(parts, edition.regions, start, end)
    return _table(parts, edition.tables, start, end)


def _unknown(kind: str, name: str, known, start, end) -> Problem:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else f"{kind}s: {', '.join(map(str, known))}" if known else None
    return Problem(start, end, f"unknown {kind} '{name}' in this placeholder", hint)


def _family(parts, families, start, end) -> str | Problem:
    if not parts or len(parts) > 2:
        return Problem(start, end, "write {families.KEY} (every icon and value) or {families.KEY.ICON} (one value)")
    family = families.get(parts[0])
    if family is None:
        return _unknown("family", parts[0], families, start, end)
    if len(parts) == 1:
        return ", ".join(f"{i} {v}" for i, v in family.values.items()) if family.valued else ", ".join(family.icons)
    if parts[1] not in family.icons:
        return _unknown("icon", parts[1], family.icons, start, end)
    if not family.valued:
        return Problem(start, end, f"the icons of '{family.key}' have no values")
    return str(family.values[parts[1]])


def _region(parts, regions, start, end) -> str | Problem:
    regions = {r.name: r for r in (regions.values() if isinstance(regions, dict) else regions)}
    if parts == ["bonus"]:  # in words, with the unit: "3 points", "3 points, or 6 for Tasmania"
        bonuses = Counter(r.bonus for r in regions.values())
        usual = bonuses.most_common(1)[0][0] if bonuses else 0
        words = f"{usual} point{'s' if usual != 1 else ''}"
        others: dict[int, list[str]] = {}
        for name, region in regions.items():
            if region.bonus != usual:
                others.setdefault(region.bonus, []).append(name)
        if others:
            words += ", or " + ", ".join(f"{bonus} for {' and '.join(names)}" for bonus, names in others.items())
        return words
    if len(parts) != 2 or parts[1] != "bonus":
        return Problem(start, end, "write {regions.bonus} (the bonus of every region) or {regions.NAME.bonus}")
    region = regions.get(parts[0])
    if region is None:
        return _unknown("region", parts[0], regions, start, end)
    return str(region.bonus)


def _table(parts, tables, start, end) -> str | Problem:
    if not parts or len(parts) > 2:
        return Problem(start, end, "write {tables.NAME} (every row) or {tables.NAME.ROW} (one row)")
    table = tables.get(parts[0])
    if table is None:
        return _unknown("table", parts[0], tables, start, end)
    if len(parts) == 1:
        return ", ".join(f"{k} → {v}" for k, v in table.rows.items())
    try:
        row = int(parts[1])
    except ValueError:
        row = None
    if row not in table.rows:
        return _unknown("row", parts[1], [str(k) for k in table.rows], start, end)
    return str(table.rows[row])
