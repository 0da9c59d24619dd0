"""Edition data (schema-valid, or cut down to its valid part) → the frozen Edition, checking meaning.

Each check reports a Diagnostic at the exact key or character; the builder goes on after an error
so that an author sees every mistake at once. When the schema check cut broken entries out (see
recovery.usable_part), references to what was cut are not reported again and no Edition is made.
Expressions are parsed, checked and compiled once per edition (lines_build.py, with the categories,
races and tie-breaks they score); the checks that look at the edition as a whole live in checks.py.
"""

from __future__ import annotations

from dataclasses import replace

from .. import dsl
from ..dsl import (
    CARD,
    CARDS,
    ERROR,
    FAMILY,
    REGION,
    TABLE,
    Bounds,
    IconType,
    Language,
    ListType,
    Scope,
    Symbols,
)
from ..errors import Diagnostic
from . import wording  # noqa: F401  (registers the checks of descriptions)
from .checks import run_checks
from .draft import draft_options
from .flow import Catch, Deal, PickAndPass, build_flow, default_drafting, flow_kind
from .goals import build_goals, goal_line
from .guarantee import guarantee
from .lines_build import LinesBuilder, tie_break_key
from .model import Edition, Passing, Table
from .rules_digest import rules_digest
from .scopes import GAME_END, ROUND_CATEGORY
from .seat_options import declared as declared_seat_options

ROUND_VARIABLES = ROUND_CATEGORY.checker_scope({}).variables  # a round category's, without a choice
NAME_SECTIONS = ("families", "tables", "card_sets")


class Builder(LinesBuilder):
    """Builds the frozen Edition: the deck (DeckBuilder), the expressions and lines (LinesBuilder), the language
    they read and the bounds of their lists."""

    # -- expressions -----------------------------------------------------------------------
    def list_bounds(self, families, regions, cards, paths) -> Bounds:
        """The largest list of each kind an expression can meet in a game of this edition."""

        def whole(value, fallback):
            return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else fallback

        deck, players = len(cards), self.data.get("players")
        declared = declared_shape(self.data)  # a flow's deal and end, where it declares them
        hand = min(whole(declared.get("hand", self.data.get("hand_size")), deck), deck)
        seats = whole(players.get("max") if isinstance(players, dict) else None, 1)
        rounds = whole(declared.get("rounds", self.data.get("rounds")), 2 * deck + 1)
        visited = min(hand * rounds, deck)
        variables = {"cards": hand, "others": min(hand * (seats - 1), deck), "visited": visited,
                     "opponents": max(seats - 1, 1), "round_totals": rounds, "lines": rounds, "totals": seats}
        if flow_kind(self.data) == "steps":
            variables.update(circle=deck, captured=deck)  # a flow's variables (scopes.UNTIL, FLOW_END)
        return Bounds(
            deck,
            variables,
            region_cards=max((len(r.cards) for r in regions.values()), default=0),
            icons_per_card=max((len(c.icons) for c in cards), default=0),
            paths=sum(len(ends) for ends in paths.values()) // 2,
            family_icons=max((len(f.icons) for f in families.values()), default=0),
            card_number=max((abs(c.number) for c in cards), default=0),
            region_bonus=max((abs(r.bonus) for r in regions.values()), default=0),
            icon_value=max((abs(v) for f in families.values() if f.values for v in f.values.values()), default=0),
        )

    def language(self, families, icon_owner, regions, cards, tables, card_sets):
        """The quoted names (symbols) and the edition constants the expressions may use."""
        symbols = {}
        for icon, family in icon_owner.items():
            symbols[icon] = (IconType(family), icon)
        region_index = {spec["name"]: index for index, spec in reversed(self.entries("regions"))}
        for name, region in regions.items():
            if name in symbols:
                self.error(
                    ("regions", region_index[name], "name"),
                    f"'{name}' is both an icon and a region",
                    "M310",
                    "a quoted name must mean one thing: rename the region or the icon",
                )
            symbols[name] = (REGION, region)
        for card in cards:
            symbols.setdefault(card.letter, (CARD, card))
        for section in ("icons", "regions", "cards"):
            for name in self.cut.names.get(section, ()):
                symbols.setdefault(name, (ERROR, None))
        lenient = bool(self.cut.sections & {"families", "icons", "regions", "cards", "tables", "card_sets"})
        symbol_table = Symbols(symbols, families, lenient)

        constants = {"regions": (ListType(REGION), tuple(regions.values())), "deck": (CARDS, tuple(cards))}
        for key, family in families.items():
            constants[key] = (FAMILY, family)
        for name, table in tables.items():
            constants[name] = (TABLE, table)
        for name, members in card_sets.items():
            if name in constants:
                self.error(
                    ("card_sets", name),
                    f"the name '{name}' is already used by a family or table",
                    "M311",
                    "rename the card set",
                    key=True,
                )
                continue
            constants[name] = (CARDS, members)
        for section in NAME_SECTIONS:
            for name in self.cut.names.get(section, ()):
                constants.setdefault(name, (ERROR, None))
        return symbol_table, constants

    def build(self) -> Edition | None:
        data = self.data
        families, icon_owner = self.families()
        regions = self.regions()
        cards, by_letter = self.cards(regions, icon_owner)
        self.game_shape(cards)

        tables = {
            name: Table(name, {int(k): v for k, v in rows.items()}) for name, rows in data.get("tables", {}).items()
        }
        card_sets = {
            name: self.letters(("card_sets", name), letters, by_letter)
            for name, letters in data.get("card_sets", {}).items()
        }
        paths = self.map_paths(by_letter)
        map_marks = self.map_reconstructed(paths, card_sets, by_letter)
        icon_values = {icon: value for f in families.values() if f.values for icon, value in f.values.items()}
        self.lookups.icon_values, self.lookups.paths = icon_values, paths
        symbol_table, constants = self.language(families, icon_owner, regions, cards, tables, card_sets)
        self.symbols, self.constants = symbol_table, constants  # kept for editors, even when errors stop the build
        self.bounds = self.list_bounds(families, regions, cards, paths)

        keys: dict = {}
        stocks = dict(data.get("stocks") or {})
        for name in stocks:
            if name in constants:
                self.error(
                    ("stocks", name),
                    f"the name '{name}' is already used by a family, table or card set",
                    "M311",
                    key=True,
                )
        declared = build_flow(self, families, constants, symbol_table, stocks, deck=len(cards))
        round_ = default_drafting(data) if declared is None else declared
        flow = declared if flow_kind(data) == "steps" else None  # a round that bids for what it claims
        if stocks and flow is None:
            self.error(
                ("stocks",),
                "stocks are thrown and taken by a flow's bidding: this edition has no `flow`",
                "M339",
                key=True,
            )
        categories = self.categories(families, constants, symbol_table, keys, stocks)
        races = self.races(constants, symbol_table, keys)
        if flow is not None and data.get("races"):
            self.error(("races",), "races score rounds of drafting: an edition with a flow has none", "M339", key=True)
        self.tie_breaks(keys, stocks if flow is not None else ())
        end_scope = GAME_END.checker_scope(constants, extra=self.sheet_types())
        goals = build_goals(self, end_scope, symbol_table, keys, flow is not None)
        if goals is not None:  # a step of the round before the others (it draws at setup) and a line of the sheet
            categories.append(goal_line())
            round_ = replace(round_, steps=(goals, *round_.steps))
        seat_options = declared_seat_options(data, self.error)

        facts = self.facts
        facts.families, facts.icon_owner, facts.regions, facts.cards, facts.by_letter = (
            families,
            icon_owner,
            regions,
            cards,
            by_letter,
        )
        facts.card_sets, facts.paths, facts.tables = card_sets, paths, tables
        self.diagnostics.extend(
            run_checks(facts, has_errors=self.recovering or any(d.severity == "error" for d in self.diagnostics))
        )

        if self.recovering or any(d.severity == "error" for d in self.diagnostics):
            return None
        reconstructed = sum(len(c.reconstructed) for c in cards) + sum(
            len(r.get("reconstructed", ())) for _, r in self.entries("regions")
        )
        reconstructed += map_marks
        edition = Edition(
            id=data["id"],
            name=data["name"],
            file=self.map.file,
            players_min=data["players"]["min"],
            players_max=data["players"]["max"],
            **drafting_shape(round_ if flow is None else None, data),
            families=families,
            regions=tuple(regions.values()),
            cards=tuple(cards),
            tables=tables,
            categories=tuple(categories),
            races=tuple(races),
            tie_breaks=tuple(tie_break_key(entry) for entry in data.get("tie_breaks", ())),
            lowest_first=frozenset(
                tie_break_key(e)
                for e in data.get("tie_breaks", ())
                if isinstance(e, dict) and e.get("order") == "lowest"
            ),
            paths=paths,
            card_sets=card_sets,
            icon_values=icon_values,
            provenance=data.get("provenance", ""),
            reconstructed_facts=reconstructed,
            draft=draft_options(data.get("draft")),
            language=Language(symbol_table, constants, self.lookups, self.bounds),
            round=round_,
            stocks=stocks,
            seat_options=seat_options,
            rules_sha256=rules_digest(data),
            runner=self.runner,
        )
        found, problems = guarantee(edition, self.bounds, lambda path: self.map.span_at(path, key=True))
        self.diagnostics.extend(problems)
        if any(d.severity == "error" for d in problems):
            return None
        return replace(edition, guarantee=found)


def drafting_shape(drafting, data) -> dict:
    """rounds, hand_size and passing as the drafting round's blocks say (a steps round: as written)."""
    if drafting is None:
        passing = data.get("passing", {})
        return dict(
            rounds=data.get("rounds", 0),
            hand_size=data.get("hand_size", 0),
            passing=Passing(tuple(passing.get("directions", ("left",))), passing.get("catch", "same")),
        )
    deal, picks, catch = drafting.step(Deal), drafting.step(PickAndPass), drafting.step(Catch)
    return dict(rounds=drafting.end, hand_size=deal.cards,
                passing=Passing(picks.directions, catch.side, picks.pass_directions))


def declared_shape(data) -> dict:
    """The hand (the largest a deal gives) and the rounds a declared flow says, as far as they are numbers:
    what the work budget's bounds read before the flow is built (it is checked there)."""
    flow = data.get("flow") if isinstance(data, dict) else None
    shape = {}
    if not isinstance(flow, dict):
        return shape
    for step in flow.get("round") or ():
        deal = step.get("deal") if isinstance(step, dict) else None
        cards = deal.get("cards") if isinstance(deal, dict) else None
        sizes = [n for n in (cards if isinstance(cards, list) else [cards]) if isinstance(n, int)]
        if sizes:
            shape["hand"] = max(sizes)
    end = flow.get("end")
    if isinstance(end, dict) and isinstance(end.get("rounds"), int):
        shape["rounds"] = end["rounds"]
    return shape


def compile_expression(edition: Edition, text: str, variables: dict | None = None, runner: str | None = None):
    """Compile one more expression against an edition (round scope by default), for tools and tests,
    with the edition's runner unless another is given.

    Raises EditionError whose diagnostics carry offsets into text (as columns of line 1).
    """
    from ..errors import EditionError, Span

    scope_variables = dict(ROUND_VARIABLES) if variables is None else variables
    language = edition.language
    checked = dsl.check(text, Scope(scope_variables, language.constants), language)
    if checked.problems:
        raise EditionError(
            [
                Diagnostic(Span("<expression>", 1, p.start + 1, 1, p.end + 1), p.message, p.code, hint=p.hint)
                for p in checked.problems
            ]
        )
    return dsl.compile(checked, language, runner or edition.runner)
