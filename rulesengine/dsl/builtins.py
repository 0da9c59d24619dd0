"""Every function of the scoring language, declared once as data: its parameters, its result, its
code, its cost class and how it folds, like jmespath's signature registry.

The checker reads the parameters and results, the compiler the code, constant folding the folds and
the work budget the cost classes; nothing else may keep its own list of function names. The
language sees nothing else: there is no way to reach Python objects from an edition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .signatures import (
    A_FAMILY,
    A_LIST,
    A_NUMBER,
    A_SET,
    A_SET_LIKE_THE_FIRST,
    A_VALUED_ICON,
    AN_ICON,
    NUMBERS,
    SOME_CARDS,
    IconsOf,
    ItemOf,
    Param,
    exactly,
)
from .types import (
    BOOL,
    CARD,
    CARDS,
    NUMBER,
    REGION,
    SEAT,
    TABLE,
    ListType,
)

UNKNOWN = object()  # a value constant folding cannot know


class DslRuntimeError(Exception):
    """An evaluation that cannot give a value (a missing table row, a division by zero)."""

    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.message = message
        self.node = node


# Cost classes: how the work of one call grows with its arguments (see budget.py and docs/limits.md).
ONE = "one"  # a few steps whatever its arguments
ITEMS = "items"  # a step per item of its list arguments
ICONS = "icons"  # a step per icon printed on the cards it is given
RESULT = "result"  # a step per item of the list it gives
MAP = "map"  # a step per card it is given and per path of the map
COSTS = (ONE, ITEMS, ICONS, RESULT, MAP)


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple  # one Param per argument
    result: object  # the type of the value, or IconsOf(index)
    run: Callable  # (*values[, lookups]) -> value
    cost: str  # one of COSTS
    summary: str
    optional: int = 0  # how many of the last params may be left out
    repeat: int = 0  # how many more arguments like the last param may follow
    alone: Param | None = None  # the parameter when the call has one argument: min(list)
    needs_edition: bool = False  # run gets the edition's lookups (icon values, map paths) last
    fails: bool = False  # run may raise DslRuntimeError on game data the checker cannot rule out:
    # the compiler locates it at the call
    fold: Callable | None = None  # (values, constants) -> value, for constant folding

    @property
    def min_args(self) -> int:
        return len(self.params) - self.optional

    @property
    def max_args(self) -> int:
        return len(self.params) + self.repeat

    def param(self, index: int, count: int) -> Param:
        if count == 1 and self.alone is not None:
            return self.alone
        return self.params[min(index, len(self.params) - 1)]


REGISTRY: dict[str, Builtin] = {}


def builtin(name: str, params: tuple, result, cost: str, summary: str, **options):
    """Declare the function `name`, run by the decorated Python function."""

    def register(run):
        fold = options.pop("fold", None)
        fold = _by_running(run) if fold is True else fold
        REGISTRY[name] = Builtin(name, params, result, run, cost, summary, fold=fold, **options)
        return run

    return register


def _by_running(run):
    def fold(values, constants):
        return UNKNOWN if any(v is UNKNOWN for v in values) else run(*values)

    return fold


@builtin("abs", (A_NUMBER,), NUMBER, ONE, "abs(n): n without its sign", fold=True)
def _abs(n):
    return abs(n)


def _extreme(pick):
    def run(*values):
        items = values[0] if len(values) == 1 else values
        return pick(items) if items else 0

    return run


builtin(
    "min",
    (A_NUMBER, A_NUMBER),
    NUMBER,
    ITEMS,
    "min(a, b, ...) or min(list): the smallest number (0 for an empty list)",
    optional=1,
    repeat=6,
    alone=NUMBERS,
    fold=True,
)(_extreme(min))
builtin(
    "max",
    (A_NUMBER, A_NUMBER),
    NUMBER,
    ITEMS,
    "max(a, b, ...) or max(list): the largest number (0 for an empty list)",
    optional=1,
    repeat=6,
    alone=NUMBERS,
    fold=True,
)(_extreme(max))
builtin("sum", (exactly(ListType(NUMBER)),), NUMBER, ITEMS, "sum(list): the total of a list of numbers", fold=True)(sum)
builtin("len", (A_LIST,), NUMBER, ONE, "len(list): how many items", fold=True)(len)
builtin(
    "all",
    (exactly(ListType(BOOL)),),
    BOOL,
    ITEMS,
    "all(list): true when every item is true (and for an empty list)",
    fold=True,
)(all)
builtin("any", (exactly(ListType(BOOL)),), BOOL, ITEMS, "any(list): true when some item is true", fold=True)(any)


def _item(position: int, word: str):
    def run(items):
        if not items:
            raise DslRuntimeError(f"{word}() of an empty list")
        return items[position]

    return run


builtin("first", (A_LIST,), ItemOf(0), ONE, "first(list): its first item (an error for an empty list)", fails=True)(
    _item(0, "first")
)
builtin("last", (A_LIST,), ItemOf(0), ONE, "last(list): its last item (an error for an empty list)", fails=True)(
    _item(-1, "last")
)


@builtin(
    "largest",
    (A_NUMBER, exactly(ListType(NUMBER))),
    ListType(NUMBER),
    ITEMS,
    "largest(n, numbers): the n largest numbers, largest first (all of them when fewer)",
    fold=True,
)
def _largest(n, numbers):
    return sorted(numbers, reverse=True)[: max(n, 0)]


@builtin(
    "count", (AN_ICON, SOME_CARDS), NUMBER, ICONS, "count(icon, cards): how many times the icon is printed on the cards"
)
def _count(icon, cards):
    return sum(card.icons.count(icon) for card in cards)


@builtin(
    "icons",
    (SOME_CARDS, A_FAMILY),
    IconsOf(1),
    ICONS,
    "icons(cards, family): every icon of the family on the cards, repeats kept",
)
def _icons(cards, family):
    members = family.icon_set
    return [icon for card in cards for icon in card.icons if icon in members]


@builtin("kinds", (A_FAMILY,), IconsOf(0), RESULT, "kinds(family): the icons of a family, each once")
def _kinds(family):
    return list(family.icons)


@builtin(
    "value",
    (A_VALUED_ICON,),
    NUMBER,
    ONE,
    "value(icon): the number printed on an icon of a valued family",
    needs_edition=True,
)
def _value(icon, edition):
    number = edition.icon_values.get(icon)
    if number is None:  # the checker refuses this; kept so that a gap there cannot crash a game
        raise DslRuntimeError(f"the icon '{icon}' has no value")
    return number


def _fold_lookup(values, constants):
    """A table whose every row (and the default) is the same number gives that number for any key."""
    rows = getattr(constants[0], "rows", None)
    if not rows:
        return UNKNOWN
    numbers = set(rows.values())
    if len(values) == 3:
        if values[2] is UNKNOWN:
            return UNKNOWN
        numbers.add(values[2])
    elif values[1] is not UNKNOWN:
        return rows.get(values[1], UNKNOWN)
    return numbers.pop() if len(numbers) == 1 else UNKNOWN


@builtin(
    "lookup",
    (exactly(TABLE), A_NUMBER, A_NUMBER),
    NUMBER,
    ONE,
    "lookup(table, key[, default]): the table's number for key",
    optional=1,
    fails=True,
    fold=_fold_lookup,
)
def _lookup(table, key, *default):
    if key in table.rows:
        return table.rows[key]
    if default:
        return default[0]
    raise DslRuntimeError(f"table '{table.name}' has no row {key} (rows: {', '.join(map(str, table.rows))})")


@builtin("subset", (A_SET, A_SET_LIKE_THE_FIRST), BOOL, ITEMS, "subset(a, b): every item of a is in b")
def _subset(a, b):
    members = set(b)
    return all(x in members for x in a)


@builtin("intersects", (A_SET, A_SET_LIKE_THE_FIRST), BOOL, ITEMS, "intersects(a, b): some item of a is in b")
def _intersects(a, b):
    members = set(b)
    return any(x in members for x in a)


@builtin(
    "connected",
    (SOME_CARDS, SOME_CARDS, SOME_CARDS),
    BOOL,
    MAP,
    "connected(nodes, from, to): the map's paths inside nodes join a card of from to a card of to",
    needs_edition=True,
)
def _connected(nodes, sources, targets, edition):
    """Is some target reachable from some source using paths whose both ends are in nodes?"""
    inside = nodes if type(nodes) is frozenset else set(nodes)   # generated code may pass the visited cards' set
    if inside.isdisjoint(targets):   # no path can end on a target outside nodes
        return False
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


ATTRIBUTES = {
    CARD: {"number": NUMBER, "region": REGION},
    REGION: {"bonus": NUMBER, "cards": CARDS},
    SEAT: {"cards": CARDS, "visited": CARDS},
}
