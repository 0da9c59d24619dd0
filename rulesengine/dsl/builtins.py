"""Every function of the scoring language, declared once: its arity, its types and its code.

The checker reads the signatures at compile time; the compiler calls the implementations at run
time. The language sees nothing else: there is no way to reach Python objects from an edition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .types import ANY, BOOL, CARD, CARDS, NUMBER, REGION, TABLE, IconType, ListType, compatible


class DslRuntimeError(Exception):
    """An evaluation that cannot give a value (a missing table row, a division by zero)."""

    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.message = message
        self.node = node


@dataclass(frozen=True)
class Builtin:
    name: str
    summary: str
    check: Callable  # (arg_types, report) -> result type; report(index, message) flags an argument
    run: Callable    # (*values, edition) -> value
    min_args: int
    max_args: int


REGISTRY: dict[str, Builtin] = {}


def builtin(name: str, summary: str, min_args: int, max_args: int | None = None):
    def register(pair):
        check, run = pair
        REGISTRY[name] = Builtin(name, summary, check, run, min_args, max_args if max_args is not None else min_args)
        return pair
    return register


def _expect(arg_types, report, *expected) -> bool:
    ok = True
    for index, (want, got) in enumerate(zip(expected, arg_types, strict=False)):
        if not compatible(want, got):
            report(index, f"expected {want}, got {got}")
            ok = False
    return ok


def _icon_family(arg_type, report, index):
    if not isinstance(arg_type, IconType):
        if arg_type != ANY:
            report(index, f"expected an icon, got {arg_type}")
        return None
    return arg_type.family


def _numbers_or_list(arg_types, report):
    if len(arg_types) == 1:
        if not compatible(ListType(NUMBER), arg_types[0]):
            report(0, f"expected a list of numbers or two numbers or more, got {arg_types[0]}")
    else:
        _expect(arg_types, report, *[NUMBER] * len(arg_types))
    return NUMBER


def _extreme(pick):
    def run(*values):
        items = values[0] if len(values) == 1 else values
        return pick(items) if items else 0
    return run


builtin("abs", "abs(n): n without its sign", 1)((lambda t, r: _expect(t, r, NUMBER) and NUMBER or NUMBER, lambda x: abs(x)))
builtin("min", "min(a, b, ...) or min(list): the smallest number (0 for an empty list)", 1, 8)((_numbers_or_list, _extreme(min)))
builtin("max", "max(a, b, ...) or max(list): the largest number (0 for an empty list)", 1, 8)((_numbers_or_list, _extreme(max)))
builtin("sum", "sum(list): the total of a list of numbers", 1)((lambda t, r: _expect(t, r, ListType(NUMBER)) and NUMBER or NUMBER, sum))


def _check_len(arg_types, report):
    if not isinstance(arg_types[0], ListType) and arg_types[0] != ANY:
        report(0, f"expected a list, got {arg_types[0]}")
    return NUMBER


builtin("len", "len(list): how many items", 1)((_check_len, len))
builtin("all", "all(list): true when every item is true (and for an empty list)", 1)((lambda t, r: _expect(t, r, ListType(BOOL)) and BOOL or BOOL, all))
builtin("any", "any(list): true when some item is true", 1)((lambda t, r: _expect(t, r, ListType(BOOL)) and BOOL or BOOL, any))


def _check_count(arg_types, report):
    _icon_family(arg_types[0], report, 0)
    _expect(arg_types[1:], lambda i, m: report(1, m), CARDS)
    return NUMBER


def _run_count(icon, cards):
    return sum(card.icons.count(icon) for card in cards)


builtin("count", "count(icon, cards): how many times the icon is printed on the cards", 2)((_check_count, _run_count))


def _run_icons(cards, family):
    members = family.icon_set
    return [icon for card in cards for icon in card.icons if icon in members]


def _run_kinds(family):
    return list(family.icons)


def _run_value(icon, edition):
    number = edition.icon_values.get(icon)
    if number is None:  # the checker refuses this; kept so that a gap there cannot crash a game
        raise DslRuntimeError(f"the icon '{icon}' has no value")
    return number


# icons(), kinds() and value() need the family named in the call; the checker handles them
# with the edition at hand (see checker.FAMILY_FUNCTIONS), these entries give arity and code.
REGISTRY["icons"] = Builtin("icons", "icons(cards, family): every icon of the family on the cards, repeats kept", None, _run_icons, 2, 2)
REGISTRY["kinds"] = Builtin("kinds", "kinds(family): the icons of a family, each once", None, _run_kinds, 1, 1)
REGISTRY["value"] = Builtin("value", "value(icon): the number printed on an icon of a valued family", None, _run_value, 1, 1)


def _check_lookup(arg_types, report):
    _expect(arg_types, report, TABLE, NUMBER, NUMBER)
    return NUMBER


def _run_lookup(table, key, *default):
    if key in table.rows:
        return table.rows[key]
    if default:
        return default[0]
    raise DslRuntimeError(f"table '{table.name}' has no row {key} (rows: {', '.join(map(str, table.rows))})")


builtin("lookup", "lookup(table, key[, default]): the table's number for key", 2, 3)((_check_lookup, _run_lookup))


def _check_two_lists(arg_types, report):
    for index, arg in enumerate(arg_types):
        if not isinstance(arg, ListType) and arg != ANY:
            report(index, f"expected a list, got {arg}")
    if all(isinstance(a, ListType) for a in arg_types) and not compatible(arg_types[0], arg_types[1]):
        report(1, f"expected {arg_types[0]}, got {arg_types[1]}")
    return BOOL


def _run_subset(a, b):
    members = set(b)
    return all(x in members for x in a)


def _run_intersects(a, b):
    members = set(b)
    return any(x in members for x in a)


builtin("subset", "subset(a, b): every item of a is in b", 2)((_check_two_lists, _run_subset))
builtin("intersects", "intersects(a, b): some item of a is in b", 2)((_check_two_lists, _run_intersects))


def _check_connected(arg_types, report):
    _expect(arg_types, report, CARDS, CARDS, CARDS)
    return BOOL


def _run_connected(nodes, sources, targets, edition):
    """Is some target reachable from some source using paths whose both ends are in nodes?"""
    inside = set(nodes)
    frontier = [card for card in sources if card in inside]
    seen = set(frontier)
    goals = set(targets)
    while frontier:
        card = frontier.pop()
        if card in goals:
            return True
        for neighbour in edition.paths.get(card, ()):
            if neighbour in inside and neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    return False


builtin("connected", "connected(nodes, from, to): the map's paths inside nodes join a card of from to a card of to", 3)((_check_connected, _run_connected))

NEEDS_EDITION = {"value", "connected"}

ATTRIBUTES = {
    CARD: {"number": NUMBER, "region": REGION},
    REGION: {"bonus": NUMBER, "cards": CARDS},
}
