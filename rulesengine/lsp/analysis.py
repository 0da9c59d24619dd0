"""What an editor asks about one edition file, answered from the checker's own results (no pygls here).

An Analysis checks the file's text as the editor has it (its parents read from disk), then answers
by position: the place under the cursor (a key, a value, a character of an expression), hover text,
completions and where a name is defined. Lines and columns are 1-based here, as in a Span; server.py
turns them into the protocol's. It never writes a file and never plays a game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..dsl import REGISTRY
from ..dsl.ast import Call, Name, Symbol
from ..edition.extends import KEYED_LISTS
from ..edition.in_words import in_words
from ..edition.loader import check_text
from ..edition.merge import ComposedSourceMap
from ..edition.source import load_yaml
from ..edition.templates import fill
from ..errors import BoomError, Span
from .positions import holds, node_at, offset_in, parent_path, value_at
from .schema_words import MEANINGS, constant_words, schema_node, schema_properties, schema_words

EXPRESSION_KEYS = ("score", "requires", "qualifies", "award", "until")
VALUE_OF = re.compile(r"^\s*(?:-\s*)?(?:\{\s*)?.*?\b(icons|region|from|majority|extends)\s*:\s*[\[\w '-]*$")


@dataclass(frozen=True)
class Place:
    """What is under the cursor in the open file."""

    path: tuple            # the path in this file's own data
    merged: tuple          # the same place in the merged edition (a house rule's entry may move)
    key: bool              # on a mapping's key, not its value
    offset: int | None     # in a string value: the character's index in the value


class Analysis:
    """One check of a file's text, and the answers to an editor's questions about it."""

    def __init__(self, path: str | Path, text: str, earlier: Analysis | None = None):
        """earlier: the last analysis of the same file; while the text does not parse (a key half typed),
        positions are read from it, so hover and completion go on working."""
        self.path = str(path)
        self.text = text
        self.checked = check_text(self.path, text)
        self.diagnostics = self.checked.diagnostics
        try:
            self.data, self.own = load_yaml(self.path, text)
        except BoomError:
            self.data, self.own = None, None
        if self.own is None and earlier is not None and earlier.own is not None:
            self.data, self.own, self.checked = earlier.data, earlier.own, earlier.checked
        self.reverse = self._own_to_merged()

    # -- where the cursor is -----------------------------------------------------------------------
    def _own_to_merged(self) -> dict:
        """This file's paths whose place in the merged data differs (a house rule's list entries)."""
        composed = self.checked.source_map
        if not isinstance(composed, ComposedSourceMap):
            return {}
        return {original: merged for merged, (source_map, original) in composed.origins.items()
                if source_map is self._composed_own() and merged and original[:1] == merged[:1]}  # not a borrow's

    def _composed_own(self):
        composed = self.checked.source_map
        return composed.origins.get((), (None,))[0] if isinstance(composed, ComposedSourceMap) else composed

    def merged_path(self, path: tuple) -> tuple:
        for length in range(len(path), 0, -1):
            if path[:length] in self.reverse:
                return self.reverse[path[:length]] + path[length:]
        return path

    def place(self, line: int, col: int) -> Place | None:
        """The deepest key or value of this file whose span holds (line, col)."""
        if self.own is None:
            return None
        best = None
        for table, key in ((self.own.keys, True), (self.own.values, False)):
            for path, span in table.items():
                if path and holds(span, line, col) and (best is None or len(path) > len(best[0])
                                                         or (len(path) == len(best[0]) and key)):
                    best = (path, key, span)
        if best is None:
            return None
        path, key, span = best
        offset = None
        source = self.own.scalars.get(path)
        if not key and source is not None:
            value = value_at(self.data, path)
            if isinstance(value, str):
                offset = offset_in(self.own, path, value, line, col)
        return Place(path, self.merged_path(path), key, offset)

    # -- hover ---------------------------------------------------------------------------------------
    def hover(self, line: int, col: int) -> str | None:
        place = self.place(line, col)
        if place is None:
            return None
        if place.offset is not None and place.path[-1:] and place.path[-1] in EXPRESSION_KEYS:
            words = self._name_in_expression(place)
            if words:
                return words
        if not place.key and len(place.merged) == 3 and place.merged[0] in ("categories", "races") \
                and place.merged[2] == "key":
            return self._entry_in_words(place.merged[0], place.merged[1])
        return schema_words(place.merged)

    def _entry_in_words(self, section: str, index: int) -> str | None:
        """A category's or race's rules, as `boom rules` says them."""
        edition = self.checked.edition
        data = self.checked.data if isinstance(self.checked.data, dict) else {}
        entries = data.get(section) or ()
        if index >= len(entries) or not isinstance(entries[index], dict):
            return None
        spec = entries[index]
        said = fill(spec.get("description") or "", edition) if edition is not None else spec.get("description")
        formula = spec.get("score") or spec.get("qualifies")
        if not said and isinstance(formula, str):
            try:
                said = in_words(formula, edition, spec.get("title", spec.get("key")))
            except BoomError:
                said = ""
        where = self.checked.source_map.span_at((section, index, "key"))
        kind = "race" if section == "races" else "category"
        return f"**{spec.get('title', spec.get('key'))}** (`{spec.get('key')}`, {kind})\n\n{said or ''}\n\n" \
               f"Defined at {Path(where.file).name}:{where.line}"

    def _expression_scope(self, place: Place):
        builder = self.checked.builder
        return builder.facts.scopes.get(place.merged) if builder is not None else None

    def _name_in_expression(self, place: Place) -> str | None:
        text = value_at(self.data, place.path)
        node = node_at(text, place.offset)
        if node is None:
            return None
        scope = self._expression_scope(place)
        if isinstance(node, Call):
            spec = REGISTRY.get(node.function)
            return f"`{node.function}`: {spec.summary}" if spec else None
        if isinstance(node, Symbol):
            return self._symbol_words(node.text)
        name = node.name
        if scope is not None and name in scope.variables:
            kind = scope.variables[name]
            return f"`{name}`: {kind} — {MEANINGS.get(name, 'a variable of this expression')}"
        constants = scope.constants if scope is not None else getattr(self.checked.builder, "constants", {})
        if name in (constants or {}):
            kind, value = constants[name]
            return f"`{name}`: {kind} — {constant_words(name, value)}"
        if scope is not None and name in scope.unavailable:
            return f"`{name}`: {scope.unavailable[name]}"
        return f"`{name}`: a name bound in this expression (`let` or `for`)"

    def _symbol_words(self, text: str) -> str | None:
        symbols = getattr(self.checked.builder, "symbols", None)
        entry = symbols.table.get(text) if symbols is not None else None
        if entry is None:
            return None
        kind, value = entry
        if hasattr(value, "letter"):
            return f"'{text}': card {value.letter}, {value.name} ({value.region.name if value.region else ''}, " \
                   f"number {value.number}, icons {', '.join(value.icons)})"
        if hasattr(value, "bonus"):
            return f"'{text}': region, bonus {value.bonus}, cards {' '.join(c.letter for c in value.cards)}"
        icon_values = getattr(self.checked.builder.lookups, "icon_values", {})
        worth = f", value {icon_values[text]}" if text in icon_values else ""
        return f"'{text}': {kind}{worth}"

    # -- completion ----------------------------------------------------------------------------------
    def completions(self, line: int, col: int) -> list[tuple[str, str, str]]:
        """(label, kind, detail) of what may be typed at (line, col): kind is key, function, variable,
        constant, icon, region, card or family."""
        place = self.place(line, col)
        before = self.text.splitlines()[line - 1][: col - 1] if 0 < line <= len(self.text.splitlines()) else ""
        if place is not None and place.offset is not None and place.path[-1] in EXPRESSION_KEYS:
            return self._expression_completions(place, before)
        value_of = VALUE_OF.match(before)
        if value_of:
            return self._value_completions(value_of.group(1))
        if re.match(r"^\s*(?:-\s+)?[a-z_]*$", before):
            return self._key_completions(line, before)
        return []

    def _expression_completions(self, place: Place, before: str) -> list[tuple[str, str, str]]:
        if before.count("'") % 2 == 1:  # inside quotes: an icon, a region or a card letter
            return self._quoted_names()
        out = []
        scope = self._expression_scope(place)
        if scope is not None:
            out += [(name, "variable", f"{kind}: {MEANINGS.get(name, '')}") for name, kind in scope.variables.items()]
            out += [(name, "constant", f"{kind}") for name, (kind, _) in scope.constants.items()]
        out += [(name, "function", spec.summary) for name, spec in REGISTRY.items()]
        return out

    def _quoted_names(self) -> list[tuple[str, str, str]]:
        symbols = getattr(self.checked.builder, "symbols", None)
        out = []
        for text, (kind, value) in (symbols.table.items() if symbols is not None else ()):
            label = "card" if hasattr(value, "letter") else "region" if hasattr(value, "bonus") else "icon"
            detail = f"{value.name}" if label == "card" else str(kind)
            out.append((text, label, detail))
        return out

    def _value_completions(self, key: str) -> list[tuple[str, str, str]]:
        data = self.checked.data if isinstance(self.checked.data, dict) else {}
        if key == "icons":
            return [(i, "icon", f"{k}") for k, f in (data.get("families") or {}).items() if isinstance(f, dict)
                    for i in (f.get("icons") or ())]
        if key == "region":
            return [(r["name"], "region", f"bonus {r.get('bonus', 0)}") for r in data.get("regions") or ()
                    if isinstance(r, dict) and "name" in r]
        if key in ("from", "majority"):
            return [(k, "family", (f or {}).get("title", k)) for k, f in (data.get("families") or {}).items()]
        if key == "extends":
            from ..edition.shipped import shipped_editions

            return [(name, "edition", str(path)) for name, path in shipped_editions().items()]
        return []

    def _key_completions(self, line: int, before: str) -> list[tuple[str, str, str]]:
        parent = parent_path(self.text.splitlines(), line, len(before) - len(before.lstrip(" -")))
        node = schema_node(self.merged_path(parent) if parent else ())
        properties = schema_properties(node)
        given = value_at(self.data, parent) if self.data is not None else None
        taken = set(given) if isinstance(given, dict) else set()
        return [(name, "key", spec.get("title", "")) for name, spec in properties.items() if name not in taken]

    # -- go to definition ----------------------------------------------------------------------------
    def definition(self, line: int, col: int) -> Span | None:
        """Where the thing under the cursor is defined: the parent's entry of a category (race, region,
        card) key, a family, table or card set named in an expression, the icon, region or card quoted."""
        place = self.place(line, col)
        composed = self.checked.source_map
        data = self.checked.data if isinstance(self.checked.data, dict) else {}
        if place is None or composed is None:
            return None
        if place.path == ("extends",) and isinstance(composed, ComposedSourceMap):
            return Span(composed.parent.file, 1, 1)  # the parent file itself, from its first line
        merged = place.merged
        if len(merged) == 3 and merged[0] in KEYED_LISTS and merged[2] == KEYED_LISTS[merged[0]]:
            if not isinstance(composed, ComposedSourceMap):
                return None
            source_map, original = composed.resolve(merged[:2])  # a borrowed entry: in the edition it came from
            if source_map is not self._composed_own() and original[:1] == merged[:1]:
                return source_map.span_at(original + merged[2:])
            return composed.parent.span_at(place.merged)
        if place.offset is not None and place.path[-1] in EXPRESSION_KEYS:
            node = node_at(value_at(self.data, place.path), place.offset)
            if isinstance(node, Name):
                for section in ("families", "tables", "card_sets"):
                    if node.name in (data.get(section) or {}):
                        return composed.span_at((section, node.name), key=True)
            if isinstance(node, Symbol):
                return self._symbol_definition(node.text, data, composed)
        return None

    def _symbol_definition(self, text: str, data: dict, composed) -> Span | None:
        for index, card in enumerate(data.get("cards") or ()):
            if isinstance(card, dict) and str(card.get("letter")) == text:
                return composed.span_at(("cards", index, "letter"))
        for index, region in enumerate(data.get("regions") or ()):
            if isinstance(region, dict) and region.get("name") == text:
                return composed.span_at(("regions", index, "name"))
        for key, family in (data.get("families") or {}).items():
            icons = family.get("icons") if isinstance(family, dict) else None
            if isinstance(icons, dict) and text in icons:
                return composed.span_at(("families", key, "icons", text), key=True)
            if isinstance(icons, list) and text in icons:
                return composed.span_at(("families", key, "icons", icons.index(text)))
        return None
