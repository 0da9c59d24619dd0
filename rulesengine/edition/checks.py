"""Checks of an edition as a whole, once its pieces are built: one small function per check.

Each check reads the Facts the builder gathered (the data, the built cards, families, regions,
card sets, map paths and the checked expressions) and yields Diagnostics placed at the key or
character concerned. Checks never change the facts and never stop the others: every problem and
every warning is reported at once. Add a check by decorating a function with @check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .. import dsl
from ..dsl import MAP, REGISTRY, UNKNOWN, constant_value
from ..errors import Diagnostic, Note, suggest

CHECKS = []  # (function, only_when_valid)


def check(function=None, *, only_when_valid=False):
    """Register a check; only_when_valid: skip it while the edition has errors (they would skew it)."""

    def register(function):
        CHECKS.append((function, only_when_valid))
        return function

    return register(function) if function else register


@dataclass
class Facts:
    data: dict
    map: object  # SourceMap or ComposedSourceMap: path -> span
    cut: object  # recovery.Cut: what the schema check took out
    families: dict = field(default_factory=dict)
    icon_owner: dict = field(default_factory=dict)
    regions: dict = field(default_factory=dict)
    cards: list = field(default_factory=list)
    by_letter: dict = field(default_factory=dict)
    card_sets: dict = field(default_factory=dict)
    paths: dict = field(default_factory=dict)
    tables: dict = field(default_factory=dict)
    expressions: dict = field(default_factory=dict)  # path -> (ast node, resolved constants, text)
    scopes: dict = field(default_factory=dict)  # path of an expression -> the checker's Scope it was checked in

    def error(self, path, message, code, hint=None, key=False):
        return Diagnostic(self.map.span_at(path, key=key), message, code, hint=hint)

    def warning(self, path, message, code, hint=None, key=False):
        return Diagnostic(self.map.span_at(path, key=key), message, code, severity="warning", hint=hint)

    def at_node(self, path, node, message, code, severity="error", hint=None):
        _, _, text = self.expressions[path]
        return Diagnostic(
            self.map.span_in_value(path, node.start, node.end, text), message, code, severity=severity, hint=hint
        )

    def entries(self, section):
        return [(i, e) for i, e in enumerate(self.data.get(section) or ()) if e is not None]


def run_checks(facts: Facts, has_errors: bool = False) -> list[Diagnostic]:
    out = []
    for function, only_when_valid in CHECKS:
        if not (only_when_valid and has_errors):
            out.extend(function(facts))
    return out


# -- the deck against what the author declared ---------------------------------------------------
@check
def declared_icon_counts(facts: Facts):
    """families.X.counts: how often each icon is printed on the deck, as the rulebook says."""
    if facts.cut.sections & {"cards", "icons"} or facts.cut.names.get("cards"):
        return
    printed = Counter(icon for card in facts.cards for icon in card.icons)
    for key, spec in facts.data.get("families", {}).items():
        for icon, declared in (spec.get("counts") or {}).items():
            path = ("families", key, "counts", icon)
            owner = facts.icon_owner.get(icon)
            if owner is None:
                yield facts.error(
                    path,
                    f"unknown icon '{icon}' in the counts of the family '{key}'",
                    "M305",
                    suggest(str(icon), facts.families[key].icons) if key in facts.families else None,
                    key=True,
                )
            elif owner != key:
                yield facts.error(path, f"icon '{icon}' is in the family '{owner}', not '{key}'", "M317", key=True)
            elif printed[icon] != declared:
                on = sorted((c for c in facts.cards if icon in c.icons), key=lambda c: c.index)
                yield facts.error(
                    path,
                    f"the deck shows '{icon}' {printed[icon]} time{'s' if printed[icon] != 1 else ''}, "
                    f"but {declared} {'are' if declared != 1 else 'is'} declared",
                    "M316",
                    f"on the cards {', '.join(c.letter for c in on)}" if on else "no card shows it",
                )


@check
def declared_region_letters(facts: Facts):
    """regions[i].letters: the letters of a region's cards, as the score sheet prints them."""
    if facts.cut.sections & {"cards"} or facts.cut.names.get("cards"):
        return
    for index, spec in facts.entries("regions"):
        letters = spec.get("letters")
        region = facts.regions.get(spec["name"])
        if letters is None or region is None:
            continue
        for position, letter in enumerate(letters):
            card = facts.by_letter.get(letter)
            path = ("regions", index, "letters", position)
            if card is None:
                yield facts.error(
                    path,
                    f"region '{region.name}' lists the letter '{letter}', but no card has it",
                    "M306",
                    suggest(str(letter), facts.by_letter),
                )
            elif card.region is not region:
                yield facts.error(
                    path,
                    f"region '{region.name}' lists '{letter}', "
                    f"but card '{letter}' ({card.name}) is in '{card.region.name}'",
                    "M318",
                )
        for card in region.cards:
            if card.letter not in letters:
                where = _card_path(facts, card)
                yield facts.error(
                    where + ("region",),
                    f"card '{card.letter}' ({card.name}) is in '{region.name}', "
                    "but the region's letters do not list it",
                    "M318",
                    f"the region lists {', '.join(map(str, letters))}",
                )


def _card_path(facts: Facts, card) -> tuple:
    for index, spec in facts.entries("cards"):
        if spec.get("letter") == card.letter:
            return ("cards", index)
    return ("cards",)


# -- the map ------------------------------------------------------------------------------------
def _map_calls(facts: Facts):
    """Calls of the functions that follow the map (cost class MAP): nodes first, then where from and to."""
    for path, (node, _, _) in facts.expressions.items():
        for call in dsl.walk(node):
            if isinstance(call, dsl.Call) and REGISTRY[call.function].cost == MAP:
                if len(call.args) == REGISTRY[call.function].max_args:
                    yield path, call


@check
def map_for_connected(facts: Facts):
    """connected() follows the map: it needs paths, and the towns it starts from or aims at need one."""
    if "map" in facts.cut.sections or facts.cut.sections & {"cards", "card_sets"}:
        return
    for path, call in _map_calls(facts):
        if not facts.paths:
            yield facts.at_node(
                path,
                call,
                f"{call.function}() follows the map's paths, but this edition has no map",
                "M320",
                hint="add map: {paths: [['A', 'B'], ...]} joining the cards (towns)",
            )
            continue
        for arg in call.args[1:]:
            if (
                isinstance(arg, dsl.Name)
                and arg.name in facts.card_sets
                and arg.name in facts.data.get("card_sets", {})
            ):
                letters = facts.data["card_sets"][arg.name]
                unreached = [(index, letter, facts.by_letter.get(letter)) for index, letter in enumerate(letters)
                             if facts.by_letter.get(letter) is not None and facts.by_letter[letter] not in facts.paths]
                here = facts.map.file
                if unreached and facts.map.span_at(("map", "paths")).file == here \
                        and facts.map.span_at(("card_sets", arg.name)).file != here:
                    # the house rule's map.paths left the parent's towns unreached: one error at its paths
                    towns = ", ".join(f"'{letter}' ({card.name})" for _, letter, card in unreached)
                    yield Diagnostic(
                        facts.map.span_at(("map", "paths"), key=True),
                        f"no path of this map.paths reaches the towns {towns} of '{arg.name}', "
                        f"so {call.function}() can never reach them", "M319",
                        hint="to add to the parent's paths: paths: {add: [...]}",
                        notes=(Note(facts.map.span_at(("card_sets", arg.name), key=True),
                                    f"'{arg.name}' is here"),))
                    continue
                for index, letter, card in unreached:
                    yield facts.error(
                        ("card_sets", arg.name, index),
                        f"town '{letter}' ({card.name}) of '{arg.name}' has no path on the map, "
                        f"so {call.function}() can never reach it",
                        "M319",
                        "add a path to it under map.paths",
                    )


# -- what can never score --------------------------------------------------------------------------
@check(only_when_valid=True)
def categories_that_never_score(facts: Facts):
    for index, spec in facts.entries("categories"):
        path = ("categories", index)
        score = facts.expressions.get(path + ("score",))
        if score is not None:
            value = constant_value(score[0], score[1])
            if value is not UNKNOWN and not isinstance(value, bool) and value == 0:
                yield facts.at_node(
                    path + ("score",),
                    score[0],
                    f"the category '{spec['key']}' always scores 0",
                    "W403",
                    severity="warning",
                )
        requires = facts.expressions.get(path + ("choice", "requires"))
        if requires is not None and constant_value(requires[0], requires[1]) is False:
            yield facts.at_node(
                path + ("choice", "requires"),
                requires[0],
                f"this requirement is never met, so '{spec['key']}' can never be chosen or score",
                "W403",
                severity="warning",
            )


@check(only_when_valid=True)
def division_by_zero(facts: Facts):
    """`1 // 0` fails whenever it is evaluated: say so at validate time, not in the middle of a game."""
    for path, (node, resolved, _) in facts.expressions.items():
        for part in dsl.walk(node):
            if isinstance(part, dsl.Binary) and part.op in ("//", "%"):
                divisor = constant_value(part.right, resolved)
                if divisor is not UNKNOWN and not isinstance(divisor, bool) and divisor == 0:
                    message = f"'{part.op}' by 0: a division by zero whenever this is evaluated"
                    yield facts.at_node(
                        path,
                        part,
                        message,
                        "W407",
                        severity="warning",
                        hint="a game that evaluates it stops with error R501",
                    )


@check(only_when_valid=True)
def choice_icons_on_no_card(facts: Facts):
    if facts.cut.sections & {"cards", "icons"} or facts.cut.names.get("cards"):
        return
    shown = {icon for card in facts.cards for icon in card.icons}
    for index, spec in facts.entries("categories"):
        family = facts.families.get((spec.get("choice") or {}).get("from"))
        if family is not None and not shown & family.icon_set:
            yield facts.warning(
                ("categories", index, "choice", "from"),
                f"no card shows an icon of the family '{family.key}', so '{spec['key']}' can never score",
                "W404",
            )


@check(only_when_valid=True)
def races_never_won(facts: Facts):
    for index, spec in facts.entries("races"):
        path = ("races", index)
        qualifies = facts.expressions.get(path + ("qualifies",))
        if qualifies is not None and constant_value(qualifies[0], qualifies[1]) is False:
            yield facts.at_node(
                path + ("qualifies",),
                qualifies[0],
                f"no seat can ever qualify for the race '{spec['key']}'",
                "W405",
                severity="warning",
            )
            continue
        award = facts.expressions.get(path + ("award",))
        if award is not None:
            value = constant_value(award[0], award[1])
            if value is not UNKNOWN and not isinstance(value, bool) and value == 0:
                yield facts.at_node(
                    path + ("award",), award[0], f"the race '{spec['key']}' always awards 0", "W405", severity="warning"
                )


@check(only_when_valid=True)
def icons_on_no_card(facts: Facts):
    if facts.cut.sections & {"cards", "icons"} or facts.cut.names.get("cards"):
        return
    shown = {icon for card in facts.cards for icon in card.icons}
    choice_families = {(spec.get("choice") or {}).get("from") for _, spec in facts.entries("categories")}
    for key, family in facts.families.items():
        missing = [icon for icon in family.icons if icon not in shown]
        if not missing or (len(missing) == len(family.icons) and key in choice_families):
            continue  # a choice family on no card has its own warning (W404)
        if len(missing) == len(family.icons):
            yield facts.warning(("families", key), f"no card shows an icon of the family '{key}'", "W406", key=True)
            continue
        for icon in missing:
            yield facts.warning(
                ("families", key, "icons", icon if family.valued else family.icons.index(icon)),
                f"no card shows the icon '{icon}'",
                "W406",
                key=family.valued,
            )


# -- what is reconstructed ---------------------------------------------------------------------------
@check
def reconstructed_summary(facts: Facts):
    """One warning per edition saying how much of it is reconstructed rather than published."""
    fields = Counter(name for card in facts.cards for name in card.reconstructed)
    bonuses = sum(len(spec.get("reconstructed", ())) for _, spec in facts.entries("regions"))
    cards = sum(1 for card in facts.cards if card.reconstructed)
    marks = (facts.data.get("map") or {}).get("reconstructed") or {}
    map_paths = len(marks.get("paths") or ())
    set_members = sum(len(v) for v in (marks.get("card_sets") or {}).values() if isinstance(v, list))
    if not fields and not bonuses and not map_paths and not set_members:
        return
    parts = []
    if fields:
        detail = ", ".join(f"{name} {count}" for name, count in sorted(fields.items()))
        parts.append(
            f"{sum(fields.values())} card field{'s' if sum(fields.values()) != 1 else ''} "
            f"on {cards} card{'s' if cards != 1 else ''} ({detail})"
        )
    if bonuses:
        parts.append(f"{bonuses} region bonus{'es' if bonuses != 1 else ''}")
    if map_paths:
        parts.append(f"{map_paths} map path{'s' if map_paths != 1 else ''}")
    if set_members:
        parts.append(f"{set_members} card set member{'s' if set_members != 1 else ''} (map.reconstructed)")
    where = ("provenance",) if "provenance" in facts.data else _first_reconstructed(facts)
    yield facts.warning(
        where,
        f"reconstructed, not published: {' and '.join(parts)}",
        "W402",
        "each is marked `reconstructed:` on its card, its region or the map; the printed game may differ",
    )


def _first_reconstructed(facts: Facts) -> tuple:
    for section in ("cards", "regions"):
        for index, spec in facts.entries(section):
            if spec.get("reconstructed"):
                return (section, index, "reconstructed")
    return ()
