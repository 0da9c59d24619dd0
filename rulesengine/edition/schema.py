"""JSON Schema validation of an edition's structure, each error placed at the key it concerns.

Only structure is checked here; meaning (names that exist, types of expressions) is the builder's job.
So that the builder can still check the rest, recovery.py cuts the broken entries out of the data.
"""

from __future__ import annotations

import json
from functools import lru_cache

from jsonschema import Draft202012Validator, FormatChecker

from ..errors import Diagnostic, suggest
from ..escaping import line_problem
from .shipped import schema_file
from .source import SourceMap

SCHEMA_PATH = schema_file()

# The entries an error cuts out: a whole family, card, category... never more than the broken one.
ENTRY_LISTS = ("regions", "cards", "categories", "races", "tie_breaks")
ENTRY_MAPS = ("families", "tables", "card_sets")
# The field that names an entry, so references to a cut entry are not reported as unknown.
NAMING_FIELD = {"regions": "name", "cards": "letter", "categories": "key", "races": "key"}


EDIT = {"$ref": "#/$defs/listEdit"}  # a house rule's edit of a parent's list (merge.py resolves every one)


@lru_cache(maxsize=1)
def schema_document() -> dict:
    """The schema as editors read it: where a house rule may edit its parent's list, a list or an edit."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    """The schema the merged data is checked against: edits are resolved by then (or refused, X807), so
    each place is the list alone, and every error inside a list is reported on its own."""
    # "format": "line": a field printed as one line (a name, a title) holds no line break
    formats = FormatChecker(formats=())
    formats.checks("line")(lambda value: not isinstance(value, str) or line_problem(value) is None)
    return Draft202012Validator(_without_edits(schema_document()), format_checker=formats)  # checked by a test


def _without_edits(node):
    if isinstance(node, list):
        return [_without_edits(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _without_edits(value) for key, value in node.items() if key != "$defs"}
    for word in ("anyOf", "oneOf"):
        if EDIT in node.get(word, ()):
            branches = [_without_edits(b) for b in node[word] if b != EDIT]
            del out[word]
            if len(branches) == 1:
                out.update(branches[0])
            else:
                out[word] = branches
    return out


SINGULAR = {"regions": "region", "cards": "card", "categories": "category", "races": "race"}


@lru_cache(maxsize=1)
def edit_places() -> tuple[tuple, ...]:
    """The paths where the schema allows an edit (`$ref: #/$defs/listEdit`): '*' any key, '[]' any index."""
    out = []

    def walk(node, path):
        if not isinstance(node, dict):
            return
        branches = node.get("anyOf") or node.get("oneOf") or ()
        if any(b.get("$ref") == "#/$defs/listEdit" for b in branches if isinstance(b, dict)):
            out.append(path)
        for branch in branches:
            walk(branch, path)
        for key, sub in (node.get("properties") or {}).items():
            walk(sub, path + (key,))
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], path + ("*",))
        if isinstance(node.get("items"), dict):
            walk(node["items"], path + ("[]",))

    walk(schema_document(), ())
    return tuple(out)


def is_edit_place(path) -> bool:
    """Whether a house rule may write an edit ({add, remove, replace}) at this path of keys and indexes: the
    merge applies edits there, and the schema's errors there hint at them."""

    def fits(part, pattern):
        if pattern in ("[]", "*"):
            return isinstance(part, int if pattern == "[]" else str)
        return part == pattern

    return any(len(place) == len(path) and all(map(fits, path, place)) for place in edit_places())


def _where(path, data=None) -> str:
    """The place in words: `players.max`, or `score of the category 'koalas'` inside a named entry."""
    path = tuple(path)
    if len(path) >= 2 and path[0] in NAMING_FIELD and isinstance(path[1], int) and isinstance(data, dict):
        entries = data.get(path[0])
        entry = entries[path[1]] if isinstance(entries, list) and path[1] < len(entries) else None
        name = entry.get(NAMING_FIELD[path[0]]) if isinstance(entry, dict) else None
        if isinstance(name, (str, int)) and not isinstance(name, bool):
            inside = _where(path[2:])
            entry_words = f"the {SINGULAR[path[0]]} '{name}'"
            return entry_words if not path[2:] else f"'{inside}' of {entry_words}"
    parts = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts) or "the document"


def schema_diagnostics(data, source_map: SourceMap) -> list[Diagnostic]:
    """Every structural problem of data, at the key or value it concerns, in file order."""
    out = []
    for error in validator().iter_errors(data):
        out.extend(_diagnose(error, source_map, data))
    seen, unique = set(), []
    for d in out:
        marker = (d.span, d.message)
        if marker not in seen:
            seen.add(marker)
            unique.append(d)
    unique.sort(key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0))
    return unique


@lru_cache(maxsize=4)
def _part_validator(key: str) -> Draft202012Validator:
    return Draft202012Validator({"type": "object", "properties": {key: schema_document()["properties"][key]}})


def part_diagnostics(key: str, value, source_map) -> list[Diagnostic]:
    """The structural problems of one top-level key that is read before the merge (`borrow`) and so is
    not in the merged data the schema checks, each at the key or value it concerns."""
    data = {key: value}
    return [d for error in _part_validator(key).iter_errors(data) for d in _diagnose(error, source_map, data)]


def is_key_error(error) -> bool:
    return "propertyNames" in error.schema_path


def _diagnose(error, source_map: SourceMap, data=None):
    path = tuple(error.absolute_path)
    where = _where(path, data)
    kind = error.validator
    schema = error.schema
    if kind == "format" and schema.get("format") == "line" and isinstance(error.instance, str):
        yield _not_one_line(error, path, where, source_map)
        return
    if is_key_error(error):
        span = source_map.span_at(path + (error.instance,), key=True)
        if path[:1] == ("tables",) and len(path) == 2:
            yield Diagnostic(span, f"row {error.instance!r} of the table '{path[1]}' must be a whole number", "S106")
        else:
            yield Diagnostic(
                span,
                f"{error.instance!r} in {where} is not a valid name "
                "(lower-case letters, digits and '_', starting with a letter)",
                "S106",
                hint=f"for example '{_as_name(error.instance)}'" if _as_name(error.instance) else None,
            )
        return
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        for key in error.instance:
            if key not in schema.get("properties", {}):
                if _split_expression(key):
                    hint = (
                        "a comma inside a one-line {...} entry ends the value there, so the rest of the expression "
                        "became this key: put the expression in quotes, or write the entry over several lines"
                    )
                else:
                    hint = suggest(str(key), allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else None)
                yield Diagnostic(
                    source_map.span_at(path + (key,), key=True), f"unknown key '{key}' in {where}", "S101", hint=hint
                )
        return
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        yield Diagnostic(source_map.span_at(path), f"{where} is missing the key '{missing}'", "S102")
        return
    alternatives = schema.get(kind) if kind in ("anyOf", "oneOf") else None
    if alternatives and all(set(b) == {"required"} for b in alternatives):  # one of several keys is needed
        keys = [b["required"][0] for b in alternatives]
        others = " or ".join(f"'{k}'" for k in keys[1:])
        yield Diagnostic(source_map.span_at(path), f"{where} is missing the key '{keys[0]}' (or {others})", "S102")
        return
    if kind == "oneOf":
        branch = _matching_branch(error)
        if branch is not None:
            yield from _diagnose(branch, source_map, data)
            return
    span = source_map.span_at(path)
    if kind == "type":
        expected = schema.get("type")
        quote = expected == "string" and isinstance(error.instance, (int, float, bool))
        edit = isinstance(error.instance, dict) and is_edit_place(path)
        yield Diagnostic(
            span,
            f"{where} must be {_article(expected)}, not {_describe(error.instance)}",
            "S103",
            hint=f"quote it to make it text: '{_yaml_text(error.instance)}'" if quote
            else _edit_hint(error.instance) if edit else None,
        )
    elif kind == "enum":
        options = ", ".join(map(repr, schema["enum"]))
        yield Diagnostic(
            span,
            f"{where} must be one of {options}, not {error.instance!r}",
            "S104",
            hint=suggest(str(error.instance), map(str, schema["enum"])),
        )
    elif kind == "const":
        yield Diagnostic(span, f"{where} must be {schema['const']!r}, not {error.instance!r}", "S104")
    elif kind in (
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minProperties",
        "maxProperties",
    ):
        size_limit = kind in ("maxItems", "maxProperties") and schema[kind] > 2
        limit = "a limit of every edition (`boom docs limits`)" if size_limit else None
        yield Diagnostic(span, f"{where}: {_bound(kind, schema[kind], error.instance)}", "S105", hint=limit)
    elif kind == "pattern" and path[:1] == ("tune",):
        yield Diagnostic(span, f"{where}: {error.instance!r} is not a range LOW..HIGH of whole numbers", "S106")
    elif kind == "pattern":
        allowed = (
            "lower-case letters, digits, '_' and '-'"
            if "-" in schema["pattern"]
            else "lower-case letters, digits and '_'"
        )
        yield Diagnostic(
            span,
            f"{where}: {error.instance!r} is not a valid name ({allowed}, starting with a letter)",
            "S106",
            hint=f"for example '{_as_name(error.instance)}'" if _as_name(error.instance) else None,
        )
    elif kind == "anyOf" and path[:1] == ("borrow",) and path[-1:] == ("letters",):
        yield Diagnostic(span, f"{where} must be 'auto' or a mapping of the other edition's letters to new ones "
                               f"({{A: a}}), not {_describe(error.instance)}", "S103",
                         hint=suggest(str(error.instance), ["auto"]) if isinstance(error.instance, str) else None)
    elif kind == "oneOf" and path[:1] == ("tie_breaks",):
        yield Diagnostic(
            span,
            f"{where} must be a key or {{key: ..., order: highest or lowest}}, not {_describe(error.instance)}",
            "S103",
        )
    elif kind == "oneOf":
        yield Diagnostic(
            span,
            f"{where} must be a mapping of icon -> value or a list of icon names, not {_describe(error.instance)}",
            "S103",
        )
    elif kind == "uniqueItems":
        yield Diagnostic(span, f"{where} lists the same item twice", "S105", hint=_repeated(error.instance))
    else:
        yield Diagnostic(span, f"{where}: {error.message}", "S100")


def _edit_hint(mapping: dict) -> str:
    """For a mapping where a list is wanted, at a place a house rule may edit: the edit's keys."""
    for key in mapping:
        close = suggest(str(key), ("add", "remove", "replace"))
        if close:
            return f"an edit of the parent's list takes add, remove and replace: {close}"
    return "in a house rule, an edit of the parent's list is {add: [...], remove: [...], replace: [...]}"


def _not_one_line(error, path, where, source_map: SourceMap) -> Diagnostic:
    """A name or title (or, under propertyNames, an icon's key) holding a line break, at its value."""
    _, problem = line_problem(error.instance)
    if is_key_error(error):
        span = source_map.span_at(path + (error.instance,), key=True)
        return Diagnostic(span, f"the icon {error.instance!r} in {where} must be one line: it holds {problem}", "S106")
    return Diagnostic(source_map.span_at(path), f"{where} must be one line: it holds {problem}", "S106")


def _split_expression(key) -> bool:
    """Whether an unknown key looks like the tail of an expression cut by a comma: `3)`, `b) + 1`."""
    return isinstance(key, str) and any(ch in key for ch in "()[]+*<>=")


def _matching_branch(error):
    """For a oneOf whose branches differ by type: the deepest error of the branch of the value's type."""
    wanted = "object" if isinstance(error.instance, dict) else "array" if isinstance(error.instance, list) else None
    inside = [
        e for e in error.context or () if e.validator != "type" or tuple(e.absolute_path) != tuple(error.absolute_path)
    ]
    if wanted is None or not inside:
        return None
    return max(inside, key=lambda e: len(e.absolute_path))


def _bound(kind: str, limit, value) -> str:
    size = len(value) if isinstance(value, (list, dict, str)) else value
    return {
        "minimum": f"{value!r} is less than the minimum of {limit}",
        "maximum": f"{value!r} is more than the maximum of {limit}",
        "minItems": f"needs at least {limit} item{'s' if limit != 1 else ''}, has {size}",
        "maxItems": f"takes at most {limit} item{'s' if limit != 1 else ''}, has {size}",
        "minLength": f"needs at least {limit} character{'s' if limit != 1 else ''}",
        "maxLength": f"{value!r} is longer than {limit} character{'s' if limit != 1 else ''}",
        "minProperties": f"needs at least {limit} entr{'ies' if limit != 1 else 'y'}",
        "maxProperties": f"takes at most {limit} entr{'ies' if limit != 1 else 'y'}, has {size}",
    }[kind]


def _repeated(items) -> str | None:
    seen = []
    for item in items:
        if item in seen:
            return f"{item!r} appears more than once"
        seen.append(item)
    return None


def _as_name(value) -> str | None:
    text = "".join(ch if ch.isalnum() else "_" for ch in str(value).lower()).strip("_")
    return text if text and text[0].isalpha() else None


def _yaml_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _article(expected) -> str:
    names = {
        "object": "a mapping",
        "array": "a list",
        "string": "a text",
        "integer": "a whole number",
        "boolean": "true or false",
        "number": "a number",
    }
    if isinstance(expected, list):
        return " or ".join(names.get(e, e) for e in expected)
    return names.get(expected, str(expected))


def _describe(value) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "empty"
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"{value!r}"
