"""JSON Schema validation of an edition's structure, each error placed at the key it concerns.

Only structure is checked here; meaning (names that exist, types of expressions) is the builder's job.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator

from .errors import Diagnostic, suggest
from .source import SourceMap

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "edition.schema.json"


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _where(path) -> str:
    parts = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts) or "the document"


def schema_diagnostics(data, source_map: SourceMap) -> list[Diagnostic]:
    out = []
    errors = sorted(validator().iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    for error in errors:
        out.extend(_diagnose(error, source_map))
    seen, unique = set(), []
    for d in out:
        marker = (d.span, d.message)
        if marker not in seen:
            seen.add(marker)
            unique.append(d)
    return unique


def _diagnose(error, source_map: SourceMap):
    path = tuple(error.absolute_path)
    where = _where(path)
    kind = error.validator
    schema = error.schema
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        for key in error.instance:
            if key not in schema.get("properties", {}):
                yield Diagnostic(source_map.span_at(path + (key,), key=True), f"unknown key '{key}' in {where}", "S101", hint=suggest(str(key), allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else None))
        return
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        yield Diagnostic(source_map.span_at(path), f"{where} is missing the key '{missing}'", "S102")
        return
    span = source_map.span_at(path)
    if kind == "type":
        expected = schema.get("type")
        yield Diagnostic(span, f"{where} must be {_article(expected)}, not {_describe(error.instance)}", "S103")
    elif kind == "enum":
        options = ", ".join(map(repr, schema["enum"]))
        yield Diagnostic(span, f"{where} must be one of {options}, not {error.instance!r}", "S104", hint=suggest(str(error.instance), map(str, schema["enum"])))
    elif kind == "const":
        yield Diagnostic(span, f"{where} must be {schema['const']!r}, not {error.instance!r}", "S104")
    elif kind in ("minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "minProperties"):
        yield Diagnostic(span, f"{where}: {error.message}", "S105")
    elif kind == "pattern":
        yield Diagnostic(span, f"{where}: {error.instance!r} is not a valid name (lower-case letters, digits and '_', starting with a letter)", "S106")
    elif kind == "oneOf":
        yield Diagnostic(span, f"{where} must be a mapping of icon -> value or a list of icon names", "S103")
    elif kind == "uniqueItems":
        yield Diagnostic(span, f"{where} lists the same item twice", "S105")
    else:
        yield Diagnostic(span, f"{where}: {error.message}", "S100")


def _article(expected) -> str:
    names = {"object": "a mapping", "array": "a list", "string": "a text", "integer": "a whole number", "boolean": "true or false", "number": "a number"}
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
