"""Edition data (already schema-valid) → the frozen Edition, with every semantic check on the way.

Each check reports a Diagnostic at the exact key or character; the builder goes on after an error
so that an author sees every mistake at once. Expressions are parsed, checked and compiled here,
once per edition.
"""

from __future__ import annotations

from types import SimpleNamespace

from .dsl.checker import Symbols, check
from .dsl.compiler import compile_checked
from .dsl.parser import DslSyntaxError, parse
from .dsl.types import BOOL, CARD, CARDS, FAMILY, NUMBER, REGION, TABLE, IconType, ListType, Scope, compatible
from .errors import Diagnostic, suggest
from .model import ROUND, Card, Category, Choice, Edition, Expression, Family, Passing, Race, Region, Table
from .source import SourceMap

ROUND_VARIABLES = {"cards": CARDS, "throw": CARD, "catch": CARD, "others": CARDS, "visited": CARDS, "players": NUMBER, "round": NUMBER, "previous": NUMBER}
NOT_AT_GAME_END = "at game end only 'visited' and 'players' are known"


class Builder:
    def __init__(self, data: dict, source_map: SourceMap):
        self.data = data
        self.map = source_map
        self.diagnostics: list[Diagnostic] = []
        self.lookups = SimpleNamespace(icon_values={}, paths={})

    # -- reporting -------------------------------------------------------------------------
    def error(self, path, message, code, hint=None, key=False):
        self.diagnostics.append(Diagnostic(self.map.span_at(path, key=key), message, code, hint=hint))

    def warning(self, path, message, code, hint=None):
        self.diagnostics.append(Diagnostic(self.map.span_at(path), message, code, severity="warning", hint=hint))

    # -- pieces ----------------------------------------------------------------------------
    def families(self):
        families, owner = {}, {}
        for key, spec in self.data["families"].items():
            icons = spec["icons"]
            values = dict(icons) if isinstance(icons, dict) else None
            names = tuple(icons)
            for index, icon in enumerate(names):
                where = ("families", key, "icons", icon if values is not None else index)
                if icon in owner:
                    self.error(where, f"icon '{icon}' is already in the family '{owner[icon]}'", "M301", "an icon name must be unique across families", key=values is not None)
                owner.setdefault(icon, key)
            families[key] = Family(key, spec.get("title", key), names, values, frozenset(names))
        return families, owner

    def regions(self):
        regions = {}
        for index, spec in enumerate(self.data["regions"]):
            if spec["name"] in regions:
                self.error(("regions", index, "name"), f"region '{spec['name']}' is defined twice", "M302")
                continue
            regions[spec["name"]] = Region(spec["name"], spec.get("bonus", 0))
        return regions

    def cards(self, regions, icon_owner):
        cards, by_letter = [], {}
        for index, spec in enumerate(self.data["cards"]):
            path = ("cards", index)
            letter = spec["letter"]
            if letter in by_letter:
                self.error(path + ("letter",), f"card letter '{letter}' is used twice", "M303", f"the first card with it is '{by_letter[letter].name}'")
                continue
            region = regions.get(spec["region"])
            if region is None:
                self.error(path + ("region",), f"unknown region '{spec['region']}'", "M304", suggest(spec["region"], regions))
                region = Region(spec["region"], 0)
            for icon_index, icon in enumerate(spec["icons"]):
                if icon not in icon_owner:
                    self.error(path + ("icons", icon_index), f"unknown icon '{icon}'", "M305", suggest(icon, icon_owner))
            card = Card(letter, spec["name"], region, spec["number"], tuple(spec["icons"]), len(cards), tuple(spec.get("reconstructed", ())))
            cards.append(card)
            by_letter[letter] = card
        for region in regions.values():
            members = tuple(c for c in cards if c.region is region)
            object.__setattr__(region, "cards", members)
            if not members:
                path = ("regions", [r["name"] for r in self.data["regions"]].index(region.name))
                self.warning(path, f"region '{region.name}' has no card", "W401")
        return cards, by_letter

    def letters(self, path, letters, by_letter):
        out = []
        for index, letter in enumerate(letters):
            card = by_letter.get(str(letter))
            if card is None:
                self.error(path + (index,), f"unknown card letter '{letter}'", "M306", suggest(str(letter), by_letter))
            else:
                out.append(card)
        return tuple(out)

    def game_shape(self, cards):
        players = self.data["players"]
        if players["min"] > players["max"]:
            self.error(("players", "min"), f"players.min ({players['min']}) is more than players.max ({players['max']})", "M307")
        needed = self.data["hand_size"] * players["max"]
        if needed > len(cards):
            self.error(("hand_size",), f"{players['max']} players need {needed} cards ({self.data['hand_size']} each) but the deck has {len(cards)}", "M308")

    # -- expressions -----------------------------------------------------------------------
    def expression(self, path, scope, symbols, want):
        text = self.data
        for part in path:
            text = text[part]
        try:
            node = parse(text)
        except DslSyntaxError as exc:
            self.diagnostics.append(Diagnostic(self.map.span_in_value(path, exc.start, exc.end, text), f"syntax: {exc.message}", "D100", hint=exc.hint))
            return None
        checked = check(node, scope, symbols)
        for problem in checked.problems:
            self.diagnostics.append(Diagnostic(self.map.span_in_value(path, problem.start, problem.end, text), problem.message, problem.code, hint=problem.hint))
        if not checked.problems and not compatible(want, checked.type):
            self.diagnostics.append(Diagnostic(self.map.span_in_value(path, node.start, node.end, text), f"this expression gives {checked.type}, but {want} is needed here", "D208"))
            return None
        if checked.problems:
            return None
        source_map = self.map
        return Expression(text, path, compile_checked(node, checked.resolved, self.lookups),
                          lambda start, end: source_map.span_in_value(path, start, end, text))

    def build(self) -> Edition | None:
        data = self.data
        families, icon_owner = self.families()
        regions = self.regions()
        cards, by_letter = self.cards(regions, icon_owner)
        self.game_shape(cards)

        tables = {name: Table(name, {int(k): v for k, v in rows.items()}) for name, rows in data.get("tables", {}).items()}
        card_sets = {name: self.letters(("card_sets", name), letters, by_letter) for name, letters in data.get("card_sets", {}).items()}
        paths: dict = {}
        for index, pair in enumerate(data.get("map", {}).get("paths", [])):
            ends = self.letters(("map", "paths", index), pair, by_letter)
            if len(ends) == 2:
                a, b = ends
                if a is b:
                    self.error(("map", "paths", index), f"a path from '{a.letter}' to itself", "M309")
                paths.setdefault(a, []).append(b)
                paths.setdefault(b, []).append(a)
        paths = {card: tuple(neighbours) for card, neighbours in paths.items()}
        icon_values = {icon: value for f in families.values() if f.values for icon, value in f.values.items()}
        self.lookups.icon_values, self.lookups.paths = icon_values, paths

        symbols = {}
        for icon, family in icon_owner.items():
            symbols[icon] = (IconType(family), icon)
        for name, region in regions.items():
            if name in symbols:
                self.error(("regions",), f"'{name}' is both an icon and a region", "M310")
            symbols[name] = (REGION, region)
        for card in cards:
            symbols.setdefault(card.letter, (CARD, card))
        symbol_table = Symbols(symbols, families)

        constants = {"regions": (ListType(REGION), tuple(regions.values())), "deck": (CARDS, tuple(cards))}
        for key, family in families.items():
            constants[key] = (FAMILY, family)
        for name, table in tables.items():
            constants[name] = (TABLE, table)
        for name, members in card_sets.items():
            if name in constants:
                self.error(("card_sets", name), f"the name '{name}' is already used by a family or table", "M311", key=True)
            constants[name] = (CARDS, members)

        categories, keys = [], {}
        for index, spec in enumerate(data["categories"]):
            path = ("categories", index)
            key = spec["key"]
            if key in keys:
                self.error(path + ("key",), f"category key '{key}' is used twice", "M312")
            keys[key] = path
            when = spec.get("when", ROUND)
            variables = dict(ROUND_VARIABLES) if when == ROUND else {"visited": CARDS, "players": NUMBER}
            unavailable = {} if when == ROUND else {n: NOT_AT_GAME_END for n in ROUND_VARIABLES if n not in variables}
            choice = None
            if "choice" in spec:
                choice_spec = spec["choice"]
                family = families.get(choice_spec["from"])
                if family is None:
                    self.error(path + ("choice", "from"), f"unknown family '{choice_spec['from']}'", "M313", suggest(choice_spec["from"], families))
                if when != ROUND:
                    self.error(path + ("choice",), "a choice is made at the end of a round; this category scores at game end", "M314")
                variables["choice"] = IconType(family.key if family else None)
                requires = None
                if "requires" in choice_spec:
                    requires = self.expression(path + ("choice", "requires"), Scope(variables, constants), symbol_table, BOOL)
                if family is not None:
                    choice = Choice(family, choice_spec.get("once_per_game", True), requires)
            else:
                unavailable["choice"] = "'choice' exists only in a category with a 'choice:' section"
            score = self.expression(path + ("score",), Scope(variables, constants, unavailable), symbol_table, NUMBER)
            if score is not None:
                categories.append(Category(key, spec.get("title", key), when, score, choice))

        races = []
        for index, spec in enumerate(data.get("races", [])):
            path = ("races", index)
            key = spec["key"]
            if key in keys:
                self.error(path + ("key",), f"the key '{key}' is already used by a category or race", "M312")
            keys[key] = path
            each = spec.get("each")
            extra = {"region": REGION} if each == "region" else {}
            unavailable = {} if each else {"region": "'region' exists only in a race with 'each: region'"}
            qualifies = self.expression(path + ("qualifies",), Scope({"cards": CARDS, "visited": CARDS, "players": NUMBER, "round": NUMBER, **extra}, constants, unavailable), symbol_table, BOOL)
            award = self.expression(path + ("award",), Scope({"place": NUMBER, "players": NUMBER, "round": NUMBER, **extra}, constants, unavailable), symbol_table, NUMBER)
            if qualifies and award:
                races.append(Race(key, spec.get("title", key), each, qualifies, award))

        for index, key in enumerate(data.get("tie_breaks", [])):
            if key not in keys:
                self.error(("tie_breaks", index), f"unknown category or race '{key}'", "M315", suggest(key, keys))

        reconstructed = sum(len(c.reconstructed) for c in cards) + sum(len(r.get("reconstructed", ())) for r in data["regions"])
        if any(d.severity == "error" for d in self.diagnostics):
            return None
        edition = Edition(
            id=data["id"], name=data["name"], file=self.map.file,
            players_min=data["players"]["min"], players_max=data["players"]["max"],
            rounds=data["rounds"], hand_size=data["hand_size"],
            passing=Passing(tuple(data["passing"]["directions"]), data["passing"].get("catch", "same")),
            families=families, regions=tuple(regions.values()), cards=tuple(cards), tables=tables,
            categories=tuple(categories), races=tuple(races), tie_breaks=tuple(data.get("tie_breaks", ())),
            paths=paths, card_sets=card_sets,
            icon_values=icon_values,
            provenance=data.get("provenance", ""), reconstructed_facts=reconstructed,
            language=SimpleNamespace(symbols=symbol_table, constants=constants, lookups=self.lookups),
        )
        return edition


def compile_expression(edition: Edition, text: str, variables: dict | None = None):
    """Compile one more expression against an edition (round scope by default), for tools and tests.

    Raises EditionError whose diagnostics carry offsets into text (as columns of line 1).
    """
    from .errors import EditionError, Span

    scope_variables = dict(ROUND_VARIABLES) if variables is None else variables
    def at(start, end):
        return Span("<expression>", 1, start + 1, 1, end + 1)
    try:
        node = parse(text)
    except DslSyntaxError as exc:
        raise EditionError(Diagnostic(at(exc.start, exc.end), f"syntax: {exc.message}", "D100", hint=exc.hint)) from None
    language = edition.language
    checked = check(node, Scope(scope_variables, language.constants), language.symbols)
    if checked.problems:
        raise EditionError([Diagnostic(at(p.start, p.end), p.message, p.code, hint=p.hint) for p in checked.problems])
    return compile_checked(node, checked.resolved, language.lookups)
