"""What a builtin's arguments must be and what it gives: the signatures the checker reads.

Each parameter kind says, for an argument's type, what is wrong with it (or None), in words an author
reads at the argument's position; a result may depend on the arguments (IconsOf, ItemOf). Kept apart
from the registry (builtins.py) so that the table of functions reads as a table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .types import ANY, BOOL, CARD, CARDS, ERROR, FAMILY, NUMBER, REGION, IconOfFamilies, IconType, ListType, compatible


@dataclass(frozen=True)
class Param:
    """What an argument must be. problem(type, families, arg_types) says what is wrong with an
    argument of that type (families: the edition's, key -> Family), or gives None."""

    text: str
    problem: Callable


def exactly(want) -> Param:
    def problem(got, families, arg_types):
        return None if compatible(want, got) else f"expected {want}, got {got}"

    return Param(str(want), problem)


def _a_list(got, families, arg_types):
    return None if isinstance(got, ListType) or got == ANY else f"expected a list, got {got}"


def _like_the_first(got, families, arg_types):
    """A list whose items can be compared with those of the first argument."""
    first = arg_types[0]
    if isinstance(got, ListType) and isinstance(first, ListType) and not compatible(first, got):
        return f"expected {first}, got {got}"
    return _a_list(got, families, arg_types)


def _comparable_as_set(got) -> str | None:
    """subset and intersects compare items as a set: cards, icons, numbers, regions, families and
    true/false are; a list (of lists), a seat or a table is not (a seat's cards change with the round)."""
    item = got.item if isinstance(got, ListType) else None
    if item is None or item in (NUMBER, BOOL, CARD, REGION, FAMILY, ANY, ERROR) or isinstance(item, IconType):
        return None
    return f"expected a list of cards, icons, numbers or regions, got {got} (the items are compared as a set)"


def _a_set(got, families, arg_types):
    return _a_list(got, families, arg_types) or _comparable_as_set(got)


def _a_set_like_the_first(got, families, arg_types):
    return _like_the_first(got, families, arg_types) or _comparable_as_set(got)


def _an_icon(got, families, arg_types):
    return None if isinstance(got, IconType) or got == ANY else f"expected an icon, got {got}"


def _a_family(got, families, arg_types):
    return None if got == FAMILY else f"expected a family ({', '.join(families)}), got {got}"


def _a_valued_icon(got, families, arg_types):
    if got == ERROR:
        return None
    if not isinstance(got, IconType):
        return f"expected an icon, got {got}"
    if got.family is not None:
        return None if families[got.family].valued else f"icons of the family '{got.family}' have no value"
    possible = got.families if isinstance(got, IconOfFamilies) else families
    unvalued = [key for key in possible if key in families and not families[key].valued]
    if unvalued:
        return (
            f"this can be an icon of {' or '.join(sorted(possible))}, "
            f"and icons of {' or '.join(unvalued)} have no value"
        )
    return None


A_NUMBER = exactly(NUMBER)
SOME_CARDS = exactly(CARDS)
A_LIST = Param("a list", _a_list)
A_SET = Param("a list of cards, icons, numbers or regions", _a_set)
A_SET_LIKE_THE_FIRST = Param("a list of the same kind", _a_set_like_the_first)
AN_ICON = Param("an icon", _an_icon)
A_FAMILY = Param("a family", _a_family)
A_VALUED_ICON = Param("an icon of a family with values", _a_valued_icon)
NUMBERS = Param(
    "a list of numbers",
    lambda got, families, arg_types: (
        None if compatible(ListType(NUMBER), got) else f"expected a list of numbers or two numbers or more, got {got}"
    ),
)


@dataclass(frozen=True)
class IconsOf:
    """A result type that depends on a call's arguments: a list of icons of the family given as
    argument `index` (the family the checker resolved)."""

    index: int

    def __str__(self) -> str:
        return "list of icons"


@dataclass(frozen=True)
class ItemOf:
    """A result type that depends on a call's arguments: an item of the list given as argument
    `index` (first(cards) is a card, first(opponents) a seat)."""

    index: int

    def __str__(self) -> str:
        return "an item of the list"
