"""The types of the scoring language, and the scope an expression is checked in.

Types are plain frozen values so the checker can compare them with ==.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Type:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class IconType:
    """An icon of one family (family None: any family, only for the empty list)."""

    family: str | None

    def __str__(self) -> str:
        return f"{self.family} icon" if self.family else "icon"


@dataclass(frozen=True, slots=True)
class IconOfFamilies(IconType):
    """An icon of one of several known families (an `if` or a list mixing them): family is None."""

    families: frozenset = frozenset()

    def __str__(self) -> str:
        return "icon"


@dataclass(frozen=True, slots=True)
class ListType:
    item: object

    def __str__(self) -> str:
        return f"list of {plural(self.item)}"


@dataclass(frozen=True, slots=True)
class LinesType:
    """The score sheet's round lines at game end (`lines.KEY`): each line's points, round by round.
    Its attributes are the edition's round categories and races, so the type carries their keys."""

    keys: tuple = ()

    def __str__(self) -> str:
        return "lines of the sheet"


@dataclass(frozen=True, slots=True)
class OptionsType:
    """A seat's options (`options.KEY`): the numbers the edition declares under `seat_options:`, each set
    by the table seat by seat. Its attributes are their keys, so the type carries them (None: not known, for
    a declaration that broke the schema; any key is then taken)."""

    keys: tuple | None = ()

    def __str__(self) -> str:
        return "seat options"


NUMBER = Type("number")
BOOL = Type("true/false")
CARD = Type("card")
REGION = Type("region")
FAMILY = Type("family")
TABLE = Type("table")
ANY = Type("anything")
ERROR = Type("<error>")

CARDS = ListType(CARD)
SEAT = Type("seat")                 # another seat at the table: its cards this round and visited so far
SEATS = ListType(SEAT)


def plural(item) -> str:
    text = str(item)
    if isinstance(item, ListType):
        return "lists"
    return {"true/false": "true/false values", "anything": "anything", "family": "families"}.get(text, text + "s")


def compatible(expected, actual) -> bool:
    """Can a value of type actual be used where expected is wanted?"""
    if expected == actual or ERROR in (expected, actual) or ANY in (expected, actual):
        return True
    if isinstance(expected, ListType) and isinstance(actual, ListType):
        return compatible(expected.item, actual.item)
    if isinstance(expected, IconType) and isinstance(actual, IconType):
        return expected.family is None or actual.family is None or expected.family == actual.family
    return False


def unify(a, b):
    """The common type of two branches (if/else, list items), or None when there is none."""
    if a == ERROR or b == ERROR:
        return ERROR
    if a == ANY:
        return b
    if b == ANY:
        return a
    if isinstance(a, ListType) and isinstance(b, ListType):
        item = unify(a.item, b.item)
        return None if item is None else ListType(item)
    if isinstance(a, IconType) and isinstance(b, IconType):
        if a.family == b.family:
            return a
        return IconType(None)
    return a if a == b else None


@dataclass(frozen=True)
class Scope:
    """What an expression may name: game variables (bound at run time) and edition constants."""

    variables: dict = field(default_factory=dict)      # name -> type
    constants: dict = field(default_factory=dict)      # name -> (type, value)
    unavailable: dict = field(default_factory=dict)    # name -> why it cannot be used here
