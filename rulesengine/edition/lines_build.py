"""The sheet's lines of an edition, checked and compiled: its categories (a drafting round's, a flow's), races and
tie-breaks, and the expressions they score with.

Half of the edition's builder (build.py: Builder, which adds the language, the bounds and the Edition). Each
check reports a Diagnostic at the exact key or character and goes on, so an author sees every mistake at once.
"""

from __future__ import annotations

from .. import dsl
from ..dsl import BOOL, ERROR, NUMBER, IconType, Language, LinesType, OptionsType
from ..errors import Diagnostic, suggest
from .deck import DeckBuilder
from .flow import flow_kind
from .model import HOLDINGS, ROUND, Category, Choice, Expression, Located, Positions, Race
from .scopes import AWARD, FLOW_END, GAME_END, QUALIFIES, REQUIRES, ROUND_CATEGORY


class LinesBuilder(DeckBuilder):
    """The expressions and the lines they score (categories, races, tie-breaks), on top of the deck."""

    def expression(self, path, scope, symbols, want):
        text = self.data
        for part in path:
            text = text[part]
        language = Language(symbols, scope.constants, self.lookups, self.bounds)
        self.facts.scopes[tuple(path)] = scope  # what it may read: for editors (rulesengine/lsp)
        checked = dsl.check(text, scope, language, want)
        for problem in checked.problems:
            span = self.map.span_in_value(path, problem.start, problem.end, text)
            self.diagnostics.append(Diagnostic(span, problem.message, problem.code, hint=problem.hint))
        if checked.problems:
            return None
        node = checked.node
        self.facts.expressions[tuple(path)] = (node, checked.resolved, text)
        if self.recovering or checked.type == ERROR:
            return Expression(text, path, None)
        if self.texts is None:
            self.texts = self.map.texts
        if self.positions is None:
            self.positions = Positions(self.map)
        return Expression(
            text,
            path,
            dsl.compile(checked, language, self.runner),
            Located(self.positions, path, text),
            dsl.variable_names(node, checked.resolved),
            self.texts,
            (node, checked.resolved, self.lookups),
        )

    def categories(self, families, constants, symbol_table, keys, stocks=None):
        categories = []
        flow = flow_kind(self.data) == "steps"
        for index, spec in self.entries("categories"):
            path = ("categories", index)
            key = spec["key"]
            if key in keys:
                self.error(path + ("key",), f"category key '{key}' is used twice", "M312")
            keys[key] = path
            when = spec.get("when", ROUND)
            if flow or "majority" in spec:
                category = self.flow_category(path, spec, families, constants, symbol_table, stocks or {})
                if category is not None:
                    categories.append(category)
                continue
            choice_type = None
            choice = None
            if "choice" in spec:
                choice_spec = spec["choice"]
                family = families.get(choice_spec["from"])
                if family is None and not self.cut.covers("families", choice_spec["from"]):
                    self.error(
                        path + ("choice", "from"),
                        f"unknown family '{choice_spec['from']}'",
                        "M313",
                        suggest(choice_spec["from"], families),
                    )
                if when != ROUND:
                    self.error(
                        path + ("choice",),
                        "a choice is made at the end of a round; this category scores at game end",
                        "M314",
                        "remove 'when: game_end' or the choice",
                        key=True,
                    )
                choice_type = IconType(family.key) if family else ERROR
                requires = None
                if "requires" in choice_spec:
                    requires_scope = REQUIRES.checker_scope(constants, choice=choice_type,
                                                            extra=self.sheet_types())
                    requires = self.expression(path + ("choice", "requires"), requires_scope, symbol_table, BOOL)
                if family is not None:
                    once = choice_spec.get("once_per_game", True)  # true, false, or N times (the schema checked)
                    choice = (Choice(family, True, requires, once) if type(once) is int
                              else Choice(family, once, requires))
            if when == ROUND:
                scope = ROUND_CATEGORY.checker_scope(constants, choice=choice_type, extra=self.sheet_types())
            else:
                scope = GAME_END.checker_scope(constants, choice=choice_type, extra=self.sheet_types())
            score = self.expression(path + ("score",), scope, symbol_table, NUMBER)
            if score is not None:
                categories.append(
                    Category(key, spec.get("title", key), when, score, choice, counts=spec.get("counts", True))
                )
        return categories

    def sheet_types(self) -> dict:
        """The types of the sheet's variables whose attributes are the edition's keys: `lines`, `options`."""
        options = self.data.get("seat_options")
        keys = tuple(key for key in options if isinstance(key, str)) if isinstance(options, dict) else ()
        if self.cut.covers("seat_options", None):   # cut for a schema error: which keys it had is no news
            keys = None
        return {"lines": self.lines_type(), "options": OptionsType(keys)}

    def lines_type(self) -> LinesType:
        """`lines` (in a round, and at game end): the round categories' and races' keys, as declared
        (scopes.line_keys once built)."""
        specs = [c for c in self.data.get("categories") or () if isinstance(c, dict) and c.get("when", ROUND) == ROUND]
        specs += [r for r in self.data.get("races") or () if isinstance(r, dict)]
        keys = [spec.get("key") for spec in specs]
        return LinesType(tuple(k for k in keys if isinstance(k, str) and k.isidentifier()))

    def flow_category(self, path, spec, families, constants, symbol_table, stocks):
        """A category of an edition with a flow: at game end, a majority per kind or an expression."""
        if flow_kind(self.data) != "steps":
            self.error(
                path + ("majority",),
                "a majority compares what seats captured: only an edition with a `flow` has that",
                "M336",
                key=True,
            )
            return None
        if spec.get("when", ROUND) != "game_end" or "choice" in spec:
            where = path + (("choice",) if "choice" in spec else ("when",) if "when" in spec else ())
            self.error(
                where,
                "in an edition with a flow, a category scores once at game end, with no choice",
                "M336",
                "write `when: game_end`",
                key="choice" in spec,
            )
            return None
        if "pays" in spec and "majority" not in spec:
            self.error(path + ("pays",), "`pays` says what the places of a majority score: this category has none",
                       "M336", "add `majority: <family>`, or remove `pays`", key=True)
            return None
        if "score" in spec and "majority" in spec:
            self.error(path + ("majority",), "a category has a `score` or a `majority`, not both", "M336", key=True)
            return None
        if "majority" in spec:
            family = families.get(spec["majority"])
            if family is None:
                if not self.cut.covers("families", spec["majority"]):
                    self.error(
                        path + ("majority",),
                        f"unknown family '{spec['majority']}'",
                        "M313",
                        suggest(spec["majority"], families),
                    )
                return None
            return Category(spec["key"], spec.get("title", spec["key"]), HOLDINGS, None, majority=family,
                            pays=tuple(spec.get("pays", (100,))))
        scope = FLOW_END.checker_scope(constants, extra=dict.fromkeys(stocks, NUMBER))
        score = self.expression(path + ("score",), scope, symbol_table, NUMBER)
        return Category(spec["key"], spec.get("title", spec["key"]), HOLDINGS, score) if score is not None else None

    def races(self, constants, symbol_table, keys):
        races = []
        for index, spec in self.entries("races"):
            path = ("races", index)
            key = spec["key"]
            if key in keys:
                self.error(path + ("key",), f"the key '{key}' is already used by a category or race", "M312")
            keys[key] = path
            each = spec.get("each")
            per_region = each == "region"
            qualifies_scope = QUALIFIES.checker_scope(constants, region=per_region)
            qualifies = self.expression(path + ("qualifies",), qualifies_scope, symbol_table, BOOL)
            award_scope = AWARD.checker_scope(constants, region=per_region)
            award = self.expression(path + ("award",), award_scope, symbol_table, NUMBER)
            if qualifies and award:
                races.append(Race(key, spec.get("title", key), each, qualifies, award))
        return races

    def tie_breaks(self, keys, stocks=()):
        for index, entry in self.entries("tie_breaks"):
            key = tie_break_key(entry)
            if key in stocks:
                continue
            removed = getattr(self.map, "removed", {}).get(key)
            if removed is not None and self.map.span_at(("tie_breaks", index)).file == removed.file:
                removed = None  # the same file names it: the error is at its tie_breaks
            if key not in keys and removed is not None:
                message = f"'{key}' is removed here, but the tie_breaks of the edition it extends still name it"
                example = ", ".join(list(keys)[:1])
                hint = f"set tie_breaks in this file too, e.g. tie_breaks: [{example}], or [] for none"
                self.diagnostics.append(Diagnostic(removed, message, "M315", hint=hint))
            elif key not in keys and not self.cut.covers("categories", key) and not self.cut.covers("races", key):
                self.error(
                    ("tie_breaks", index),
                    f"unknown category or race '{key}'",
                    "M315",
                    suggest(key, keys) or (f"keys: {', '.join(keys)}" if keys else None),
                )


def tie_break_key(entry) -> str:
    """A tie-break is a key, or {key: ..., order: highest|lowest}."""
    return entry["key"] if isinstance(entry, dict) else entry
