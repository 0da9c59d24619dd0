"""The numbers of a rule that `boom tune` may change ("knobs"), and the house rule that changes them.

A knob is a whole number of the rule's document, named by its path as an author would say it:
`families.animal.icons.Kangaroos` (an icon's value), `regions.Tasmania.bonus` (a region bonus),
`tables.activity_points.6` (a table row). Entries of the keyed lists are named by their key (a
card by its letter, a region by its name, a category or race by its key); `*` stands for every key
or entry at that place. Each knob has a range (`=1..9`); the rule's own value must lie in it.

The change is written as a house rule that `extends` the rule, holding only what changed, at the
level where `extends` merges (a family, a table, a region's field): `boom validate` reads it.
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..edition.extends import KEYED_LISTS, NAMED_MAPS


class KnobError(ValueError):
    """A knob that cannot be read or does not name a whole number of the rule."""


@dataclass(frozen=True)
class Knob:
    """One number that may change: where it is (path as written, and as indexes into the document)."""

    name: str  # as written, e.g. families.animal.icons.Kangaroos
    steps: tuple  # keys and list indexes into the resolved document
    low: int
    high: int
    base: int  # the rule's own value

    @property
    def width(self) -> int:
        return max(1, self.high - self.low)


def _parse_range(text: str, name: str) -> tuple[int, int]:
    low, separator, high = text.partition("..")
    try:
        if not separator:
            raise ValueError
        low_value, high_value = int(low), int(high)
    except ValueError:
        raise KnobError(f"{name}: a range is written LOW..HIGH with whole numbers, not {text!r}") from None
    if low_value > high_value:
        raise KnobError(f"{name}: the range {text} is empty (LOW above HIGH)")
    return low_value, high_value


def _expand(data, steps: tuple, written: tuple, segments: list) -> list[tuple[tuple, tuple]]:
    """Every (indexes, names) path that segments reach from data (a `*` reaches every key or entry)."""
    if not segments:
        return [(steps, written)]
    segment, rest = segments[0], segments[1:]
    field = KEYED_LISTS.get(steps[0]) if len(steps) == 1 and isinstance(data, list) else None
    if isinstance(data, dict):
        keys = list(data) if segment == "*" else [_key_in(data, segment)]
        return [
            hit
            for key in keys
            if key is not None
            for hit in _expand(data[key], (*steps, key), (*written, str(key)), rest)
        ]
    if isinstance(data, list) and field is not None:
        found = [
            (index, entry[field])
            for index, entry in enumerate(data)
            if isinstance(entry, dict) and (segment == "*" or str(entry.get(field)) == segment)
        ]
        return [
            hit for index, key in found for hit in _expand(data[index], (*steps, index), (*written, str(key)), rest)
        ]
    return []


def _key_in(mapping: dict, segment: str):
    """The mapping's key written as segment (a table's rows are numbers: '6' names row 6)."""
    for key in mapping:
        if str(key) == segment:
            return key
    return None


def read_knobs(texts: list[str], data: dict) -> tuple[Knob, ...]:
    """The knobs named by PATH=LOW..HIGH texts in the rule's resolved document (KnobError if not)."""
    knobs = []
    for text in texts:
        path, separator, bounds = text.partition("=")
        path = path.strip()
        if not separator or not path:
            raise KnobError(f"{text!r}: name a number and its range, e.g. families.animal.icons.Kangaroos=1..9")
        low, high = _parse_range(bounds.strip(), path)
        hits = _expand(data, (), (), path.split("."))
        if not hits:
            raise KnobError(f"{path}: the rule has no such number (a path such as families.animal.icons.Kangaroos)")
        for steps, written in hits:
            value = _at(data, steps)
            name = ".".join(written)
            if not isinstance(value, int) or isinstance(value, bool):
                raise KnobError(f"{name}: not a whole number of the rule ({type(value).__name__})")
            if not low <= value <= high:
                raise KnobError(f"{name}: the rule's value {value} is outside the range {low}..{high}")
            knobs.append(Knob(name, steps, low, high, value))
    names = [knob.name for knob in knobs]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise KnobError(f"{twice[0]}: named twice")
    return tuple(knobs)


def _at(data, steps: tuple):
    for step in steps:
        data = data[step]
    return data


def with_values(data: dict, knobs: tuple, values: tuple) -> dict:
    """A copy of the document with each knob set to its value."""
    changed = copy.deepcopy(data)
    for knob, value in zip(knobs, values, strict=True):
        _at(changed, knob.steps[:-1])[knob.steps[-1]] = value
    return changed


def change_size(knobs: tuple, values: tuple) -> float:
    """How far values are from the rule's: the sum of each knob's move over its range's width."""
    return sum(abs(value - knob.base) / knob.width for knob, value in zip(knobs, values, strict=True))


def _unit(steps: tuple) -> int:
    """How many steps of a path `extends` merges as one piece (the rest is written whole)."""
    top = steps[0]
    if top in KEYED_LISTS or top in NAMED_MAPS:
        return 2  # an entry's field (cards, regions, categories, races) or a named map's entry
    return 2 if len(steps) > 1 else 1


def house_rule(rule_path: str | Path, out_path: str | Path, rule: dict, knobs: tuple, values: tuple, note: str) -> str:
    """The YAML of a house rule that extends the rule at rule_path with the knobs at these values."""
    changed = with_values(rule, knobs, values)
    diff: dict = {}
    for knob, value in zip(knobs, values, strict=True):
        if value == knob.base:
            continue
        steps = knob.steps[: _unit(knob.steps)]
        top = steps[0]
        if top in KEYED_LISTS:
            entry = changed[top][steps[1]]
            field = KEYED_LISTS[top]
            entries = diff.setdefault(top, [])
            mine = next((e for e in entries if e[field] == entry[field]), None)
            if mine is None:
                mine = {field: entry[field]}
                entries.append(mine)
            if len(knob.steps) > 2:
                mine[knob.steps[2]] = copy.deepcopy(entry[knob.steps[2]])
        elif len(steps) == 2:
            diff.setdefault(top, {})[steps[1]] = copy.deepcopy(changed[top][steps[1]])
        else:
            diff[top] = changed[top]
    extends = os.path.relpath(Path(rule_path).resolve(), Path(out_path).resolve().parent)
    head = {"extends": extends, "id": f"{rule['id']}-tuned", "name": f"{rule.get('name', rule['id'])} (tuned)"}
    body = yaml.safe_dump(json.loads(json.dumps({**head, **diff})), sort_keys=False, allow_unicode=True, width=100)
    comment = "".join(f"# {line}\n" for line in note.splitlines())
    return comment + body
