"""Scoring-language expressions for fuzzing: from the grammar (mostly ill-typed), by type (well-typed,
so evaluation gets exercised), as random text, and as mutations of the editions' own expressions.
Also random game environments to evaluate them in, and a check that a value has a checked type.
"""

from __future__ import annotations

import string
from types import SimpleNamespace

from hypothesis import strategies as st

from rulesengine.dsl import (
    ANY,
    BOOL,
    CARD,
    CARDS,
    ERROR,
    FAMILY,
    NUMBER,
    REGION,
    REGISTRY,
    SEAT,
    SEATS,
    TABLE,
    IconType,
    LinesType,
    ListType,
    OptionsType,
)
from rulesengine.edition.build import ROUND_VARIABLES
from rulesengine.edition.model import Card, Family, Region, Table
from rulesengine.edition.scopes import AWARD, GAME_END, QUALIFIES, Others, SeatCards, line_keys

KEYWORDS = ["let", "if", "then", "else", "for", "in", "not", "and", "or", "true", "false"]
BINARY = ["or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "+", "-", "*", "//", "%"]
ATTRIBUTES = ["number", "region", "bonus", "cards", "name", "letter", "icons", "__class__"]
LOCALS = ["x", "y", "c", "r", "i", "n", "k"]


def quoted(text: str) -> str:
    return f'"{text}"' if "'" in text else f"'{text}'"


# -- from the grammar ------------------------------------------------------------------------------
def grammar_expressions(edition) -> st.SearchStrategy[str]:
    """Sentences of grammar.lark over the edition's vocabulary plus strangers: few are well typed."""
    language = edition.language
    names = st.sampled_from(
        sorted({*ROUND_VARIABLES, *language.constants, "choice", "place", "region", *LOCALS, "cardz", "_", "Leaves"})
    )
    symbols = st.sampled_from(sorted(language.symbols.table)) | st.text(string.ascii_letters + " @#", max_size=6)
    functions = st.sampled_from(sorted(REGISTRY)) | st.sampled_from(["foo", "print", "len_", "Abs"])
    numbers = st.integers(0, 30).map(str) | st.integers(0, 10**30).map(str) | st.sampled_from(["0", "00", "007"])
    atom = numbers | symbols.map(quoted) | st.sampled_from(["true", "false"]) | names

    def extend(inner):
        def args(n):
            return st.lists(inner, min_size=n[0], max_size=n[1]).map(", ".join)

        return st.one_of(
            st.tuples(inner, st.sampled_from(BINARY), inner).map(" ".join),
            inner.map(lambda e: f"({e})"),
            inner.map(lambda e: f"not {e}"),
            inner.map(lambda e: f"-{e}"),
            st.tuples(inner, st.sampled_from(ATTRIBUTES)).map(lambda t: f"{t[0]}.{t[1]}"),
            st.tuples(functions, args((0, 4)), st.booleans()).map(
                lambda t: f"{t[0]}({t[1]}{', ' if t[2] and t[1] else ''})"
            ),
            args((0, 4)).map(lambda a: f"[{a}]"),
            st.tuples(inner, names, inner, st.none() | inner).map(
                lambda t: f"[{t[0]} for {t[1]} in {t[2]}{'' if t[3] is None else ' if ' + t[3]}]"
            ),
            st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
            st.tuples(names, inner, inner).map(lambda t: f"let {t[0]} = {t[1]}; {t[2]}"),
            st.tuples(inner, st.sampled_from([" # note\n", "\n", "\t", "  "])).map("".join),
        )

    return st.recursive(atom, extend, max_leaves=30)


def random_texts() -> st.SearchStrategy[str]:
    """Text made of the language's characters and words, and arbitrary text."""
    pieces = st.sampled_from(
        [
            *KEYWORDS,
            *BINARY,
            "(",
            ")",
            "[",
            "]",
            ",",
            ".",
            ";",
            "=",
            "'",
            '"',
            "#",
            "\n",
            " ",
            "cards",
            "throw",
            "deck",
            "abs",
            "count",
            "'Leaves'",
            "1",
            "2",
            "x",
            "!",
            "&",
            "|",
            "/",
            "**",
            "@",
            "$",
        ]
    )
    return st.one_of(
        st.lists(pieces, max_size=40).map(" ".join), st.lists(pieces, max_size=40).map("".join), st.text(max_size=80)
    )


def mutated(texts: list[str]) -> st.SearchStrategy[str]:
    """One of texts with a few characters deleted, inserted or replaced."""

    @st.composite
    def build(draw):
        text = draw(st.sampled_from(texts))
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(text)))
            kind = draw(st.sampled_from(["delete", "insert", "replace", "cut"]))
            char = draw(st.sampled_from("()[],.;='\"#-+*/%<>! \nabcxyz019") | st.characters())
            if kind == "delete":
                text = text[:at] + text[at + 1 :]
            elif kind == "insert":
                text = text[:at] + char + text[at:]
            elif kind == "replace":
                text = text[:at] + char + text[at + 1 :]
            else:
                text = text[:at]
        return text

    return build()


# -- by type ---------------------------------------------------------------------------------------
class Typed:
    """Well-typed expressions over an edition, built top-down for a wanted type, reading the variables
    of one scope (a round category's unless told)."""

    def __init__(self, edition, variables: dict | None = None):
        self.edition = edition
        self.variables = dict(ROUND_VARIABLES) if variables is None else dict(variables)
        self.lines = line_keys(edition)
        self.families = edition.families
        self.valued = [f for f in self.families.values() if f.valued]
        self.letters = [c.letter for c in edition.cards]
        self.regions = [r.name for r in edition.regions]
        self.tables = list(edition.tables)

    def expression(self, want, depth: int = 4) -> st.SearchStrategy[str]:
        return st.deferred(lambda: self._build(want, depth, ()))

    def _locals(self, scope, want):
        return [name for name, type_ in scope if type_ == want]

    def _build(self, want, depth, scope):
        @st.composite
        def pick(draw):
            leaves = self._leaves(want, scope)
            compound = self._compound(want, depth - 1, scope) if depth > 0 else []
            # half leaves, half compound, and only the chosen production is built (generation stays fast)
            if compound and draw(st.booleans()):
                return draw(draw(st.sampled_from(compound))())
            return draw(draw(st.sampled_from(leaves)))

        return pick()

    def _let(self, want, depth, scope):
        @st.composite
        def build(draw):
            name = draw(st.sampled_from(LOCALS + ["cards", "throw", "players"]))
            value_type = draw(st.sampled_from([NUMBER, BOOL, CARD, CARDS, REGION]))
            value = draw(self._build(value_type, depth, scope))
            inner = tuple((n, t) for n, t in scope if n != name) + ((name, value_type),)
            body = draw(self._build(want, depth, inner))
            return f"(let {name} = {value}; {body})"

        return build()

    def _comprehension(self, item_want, depth, scope, source_type=None):
        @st.composite
        def build(draw):
            source_type_ = source_type or draw(
                st.sampled_from(
                    [CARDS, ListType(NUMBER), ListType(REGION), SEATS, *[ListType(IconType(f)) for f in self.families]]
                )
            )
            source = draw(self._build(source_type_, depth, scope))
            name = draw(st.sampled_from(LOCALS))
            inner = tuple((n, t) for n, t in scope if n != name) + ((name, source_type_.item),)
            element = draw(self._build(item_want, depth, inner))
            condition = draw(st.none() | self._build(BOOL, depth, inner))
            return f"[{element} for {name} in {source}{'' if condition is None else ' if ' + condition}]"

        return build()

    def _leaves(self, want, scope):
        local = self._locals(scope, want)
        options = [st.sampled_from(local)] if local else []
        shadowed = {name for name, _ in scope}

        def globals_(*names):
            free = [n for n in names if n not in shadowed and n in self.variables]
            return [st.sampled_from(free)] if free else []

        if want == NUMBER:
            options += [
                st.integers(0, 12).map(str),
                st.integers(0, 10**12).map(str),
                *globals_("players", "round", "rounds", "previous", "place", "standing", "sharing"),
            ]
            if "options" in self.variables and "options" not in shadowed and self.edition.seat_options:
                keys = [option.key for option in self.edition.seat_options]
                options += [st.sampled_from(keys).map(lambda key: f"options.{key}")]
        elif want == BOOL:
            options += [st.sampled_from(["true", "false"])]
        elif want == CARD:
            options += [*globals_("throw", "catch"), st.sampled_from(self.letters).map(quoted)]
        elif want == REGION:
            options += [st.sampled_from(self.regions).map(quoted)]
        elif want == CARDS:
            options += [*globals_("cards", "others", "visited"), st.sampled_from(["deck", "[]"])]
        elif want == SEAT:
            options += globals_("left", "right")
        elif want == SEATS:
            options += globals_("opponents")
        elif want == ListType(NUMBER):
            options += [*globals_("round_totals", "totals"), st.just("[]")]
            if "lines" in self.variables and "lines" not in shadowed and self.lines:
                options += [st.sampled_from(self.lines).map(lambda key: f"lines.{key}")]
        elif want == ListType(REGION):
            options += [st.just("regions")]
        elif isinstance(want, IconType):
            options += [st.sampled_from(self.families[want.family].icons).map(quoted)]
        elif isinstance(want, ListType) and isinstance(want.item, IconType):
            options += [st.just(f"kinds({want.item.family})")]
        elif isinstance(want, ListType):
            options += [st.just("[]")]
        return options

    def _compound(self, want, depth, scope):
        """Productions giving want, each a function making its strategy (only the chosen one is made)."""

        def sub(type_):
            return self._build(type_, depth, scope)

        def fmt(template, *parts):
            return lambda: st.tuples(*[p() if callable(p) else p for p in parts]).map(lambda t: template.format(*t))

        def of(type_):
            return lambda: sub(type_)

        ops = st.sampled_from

        def any_icon():  # an icon of some family, or of one of two (an 'if' whose branches differ: the type 'icon')
            one = st.sampled_from([IconType(f) for f in self.families]).flatmap(sub)
            return one | st.tuples(sub(BOOL), one, one).map(lambda t: "(if {} then {} else {})".format(*t))

        options = [fmt("(if {} then {} else {})", of(BOOL), of(want), of(want)), lambda: self._let(want, depth, scope)]
        if want == NUMBER:
            options += [
                fmt("({} {} {})", of(NUMBER), ops(["+", "-", "*", "//", "%"]), of(NUMBER)),
                fmt("-{}", of(NUMBER)),
                fmt("abs({})", of(NUMBER)),
                fmt("{}({}, {})", ops(["min", "max"]), of(NUMBER), of(NUMBER)),
                fmt("{}({})", ops(["min", "max", "sum"]), of(ListType(NUMBER))),
                fmt("len({})", of(CARDS)),
                fmt("len({})", of(ListType(REGION))),
                fmt("count({}, {})", any_icon, of(CARDS)),
                fmt("{}.number", of(CARD)),
                fmt("{}.bonus", of(REGION)),
                fmt("len({})", of(SEATS)),
                fmt("len({})", of(ListType(NUMBER))),
            ]
            if self.valued:
                valued = lambda: st.sampled_from([IconType(f.key) for f in self.valued]).flatmap(sub)  # noqa: E731
                options += [fmt("value({})", valued), fmt("value(if {} then {} else {})", of(BOOL), valued, valued)]
            if self.tables:
                options += [
                    fmt("lookup({}, {})", ops(self.tables), of(NUMBER)),
                    fmt("lookup({}, {}, {})", ops(self.tables), of(NUMBER), of(NUMBER)),
                ]
        elif want == BOOL:
            options += [
                fmt("({} {} {})", of(NUMBER), ops(["==", "!=", "<", "<=", ">", ">="]), of(NUMBER)),
                fmt("({} {} {})", of(BOOL), ops(["and", "or", "==", "!="]), of(BOOL)),
                fmt("({} {} {})", of(CARD), ops(["==", "!="]), of(CARD)),
                fmt("({} {} {})", of(REGION), ops(["==", "!="]), of(REGION)),
                fmt("({} {} {})", of(SEAT), ops(["==", "!="]), of(SEAT)),
                fmt("({} {} {})", of(SEAT), ops(["in", "not in"]), of(SEATS)),
                fmt("({} in {})", of(NUMBER), of(ListType(NUMBER))),
                fmt("({} {} {})", any_icon, ops(["==", "!="]), any_icon),
                fmt("(not {})", of(BOOL)),
                fmt("({} {} {})", of(CARD), ops(["in", "not in"]), of(CARDS)),
                fmt("({} in {})", of(REGION), of(ListType(REGION))),
                fmt("{}({})", ops(["all", "any"]), of(ListType(BOOL))),
                fmt("{}({}, {})", ops(["subset", "intersects"]), of(CARDS), of(CARDS)),
                fmt("connected({}, {}, {})", of(CARDS), of(CARDS), of(CARDS)),
                lambda: st.sampled_from(list(self.families)).flatmap(
                    lambda f: fmt("({} in {})", of(IconType(f)), of(ListType(IconType(f))))()
                ),
            ]
        elif want == REGION:
            options += [fmt("{}.region", of(CARD))]
        elif want == SEAT:
            options += [fmt("{}({})", ops(["first", "last"]), of(SEATS))]
        elif want == SEATS:
            options += [
                lambda: self._comprehension(SEAT, depth, scope, SEATS),
                lambda: st.lists(sub(SEAT), max_size=3).map(lambda items: f"[{', '.join(items)}]"),
            ]
        elif want == CARDS:
            options += [
                fmt("{}.{}", of(SEAT), ops(["cards", "visited"])),
                fmt("{}.cards", of(REGION)),
                lambda: self._comprehension(CARD, depth, scope, CARDS),
                lambda: st.lists(sub(CARD), max_size=3).map(lambda items: f"[{', '.join(items)}]"),
            ]
        elif isinstance(want, ListType) and isinstance(want.item, IconType):
            options += [
                fmt("icons({}, {})", of(CARDS), st.just(want.item.family)),
                lambda: self._comprehension(want.item, depth, scope),
            ]
        elif isinstance(want, ListType):
            options += [
                lambda: self._comprehension(want.item, depth, scope),
                lambda: st.lists(sub(want.item), max_size=3).map(lambda items: f"[{', '.join(items)}]"),
            ]
        return options


# -- environments and values -----------------------------------------------------------------------
def scopes_for(edition) -> dict:
    """Each kind of expression's variables, from the declaration (rulesengine/edition/scopes.py); at
    game end `lines` has the edition's round lines."""
    lines = LinesType(line_keys(edition))
    options = OptionsType(tuple(option.key for option in edition.seat_options))
    game_end = dict(GAME_END.checker_scope({}).variables, lines=lines, options=options)
    return {
        "round": dict(ROUND_VARIABLES, lines=lines, options=options),
        "game_end": game_end,
        "race": QUALIFIES.checker_scope({}, region=True).variables,
        "award": AWARD.checker_scope({}, region=True).variables,
    }


def environments(edition, variables: dict) -> st.SearchStrategy[dict]:
    """A random but possible game environment giving every variable of the scope a value (a test
    checks that none is left out)."""
    deck = list(edition.cards)
    some_cards = st.lists(st.sampled_from(deck), unique_by=lambda c: c.letter, max_size=len(deck))
    numbers = st.integers(-100, 10**6)

    @st.composite
    def build(draw):
        cards = draw(st.lists(st.sampled_from(deck), unique_by=lambda c: c.letter, min_size=1, max_size=len(deck)))
        rounds = draw(st.integers(1, 20))
        seats = tuple(  # the other seats, the left neighbour first: their cards and their visited sites
            SeatCards(draw(some_cards), sorted(draw(some_cards), key=lambda c: c.index))
            for _ in range(draw(st.integers(1, 11)))
        )
        values = {
            "cards": cards,
            "throw": cards[0],
            "catch": cards[-1],
            "others": Others([card for seat in seats for card in seat.cards], seats),
            "opponents": list(seats),
            "left": seats[0],
            "right": seats[-1],
            "visited": sorted(draw(some_cards), key=lambda c: c.index),
            "players": len(seats) + 1,
            "round": draw(st.integers(1, rounds)),
            "rounds": rounds,
            "previous": draw(numbers),
            "place": draw(st.integers(1, 12)),
            "region": draw(st.sampled_from(list(edition.regions))),
            "round_totals": draw(st.lists(numbers, max_size=rounds)),
            "totals": [draw(numbers) for _ in range(len(seats) + 1)],   # every seat's, the seat's own first
            "standing": draw(st.integers(1, len(seats) + 1)),
            "options": SimpleNamespace(**{option.key: draw(st.integers(option.minimum, option.maximum))
                                          for option in edition.seat_options}),
            "sharing": draw(st.integers(1, len(seats) + 1)),
            "lines": SimpleNamespace(**{key: draw(st.lists(numbers, max_size=rounds)) for key in line_keys(edition)}),
        }
        env = {name: values[name] for name in variables if name in values}
        for name, type_ in variables.items():
            if isinstance(type_, IconType):
                env[name] = draw(st.sampled_from(edition.families[type_.family].icons))
        return env

    return build()


def conforms(value, type_, edition) -> bool:
    """Does a value have the type the checker gave its expression?"""
    if type_ in (ANY, ERROR):
        return True
    if type_ == NUMBER:
        return type(value) is int
    if type_ == BOOL:
        return type(value) is bool
    if type_ == CARD:
        return isinstance(value, Card)
    if type_ == REGION:
        return isinstance(value, Region)
    if type_ == FAMILY:
        return isinstance(value, Family)
    if type_ == TABLE:
        return isinstance(value, Table)
    if type_ == SEAT:
        return isinstance(value, SeatCards)
    if isinstance(type_, IconType):
        icons = (
            edition.families[type_.family].icon_set
            if type_.family
            else {i for f in edition.families.values() for i in f.icons}
        )
        return isinstance(value, str) and value in icons
    if isinstance(type_, ListType):
        return isinstance(value, list | tuple) and all(conforms(item, type_.item, edition) for item in value)
    if isinstance(type_, LinesType):   # `lines` alone: each round line's points so far
        return isinstance(value, SimpleNamespace) and set(vars(value)) == set(type_.keys) and all(
            conforms(points, ListType(NUMBER), edition) for points in vars(value).values())
    if isinstance(type_, OptionsType):  # `options` alone (the large profile drew it): each declared option's number
        return isinstance(value, SimpleNamespace) and set(vars(value)) == set(type_.keys or ()) and all(
            type(number) is int for number in vars(value).values())
    return False
