"""Seat options: numbers each seat has, which the edition declares and the table sets.

An edition declares them under `seat_options:` (a key, a default and the range a table may set); a
table sets them seat by seat (`boom run --seat-option Ana.handicap=-5`, the same on `boom host`);
saves and logs record what it set, so a resumed or replayed game scores alike; an expression reads
its seat's own as `options.KEY`, a variable of the score sheet so far (scopes.SheetSoFar). This
module builds the declarations and checks what a table sets against them; it knows no game.
"""

from __future__ import annotations

from types import SimpleNamespace

from ..errors import Diagnostic, GameRuleError
from .model import SeatOption

LIMIT = 1000   # the schema's bound on a default, a minimum and a maximum
CODE = "G607"  # a value a table set that the edition does not take


def declared(data: dict, error) -> tuple:
    """The edition's SeatOptions from its (schema-checked) data; error(path, message, code) for a default
    outside its range or a range that holds nothing (M341)."""
    found = []
    for key, spec in (data.get("seat_options") or {}).items():
        default, low, high = spec["default"], spec.get("minimum", -LIMIT), spec.get("maximum", LIMIT)
        if low > high:
            error(("seat_options", key, "minimum"), f"the seat option '{key}' has a minimum ({low}) above its "
                  f"maximum ({high})", "M341")
        elif not low <= default <= high:
            error(("seat_options", key, "default"), f"the default of the seat option '{key}' ({default}) is outside "
                  f"its range {low}..{high}", "M341")
        found.append(SeatOption(key, spec.get("title", key), spec.get("description", ""), default, low, high))
    return tuple(found)


def parse(texts) -> dict:
    """name -> key -> value from `NAME.KEY=VALUE` texts (the command line's --seat-option); ValueError
    saying what is wrong with the first that is not one. A name may hold dots: the key is after the last."""
    given: dict = {}
    for text in texts:
        seat, equals, value = text.partition("=")
        name, dot, key = seat.rpartition(".")
        if not equals or not dot or not name or not key:
            raise ValueError(f"'{text}' is not NAME.OPTION=NUMBER (e.g. Ana.handicap=-5)")
        try:
            number = int(value.strip())
        except ValueError:
            raise ValueError(f"'{text}': the value of a seat option is a whole number, not '{value}'") from None
        if key in given.get(name, {}):
            raise ValueError(f"'{text}': {name}'s {key} is given twice")
        given.setdefault(name, {})[key] = number
    return given


def as_named(given: dict, players) -> dict:
    """given, each name spelt as the players spell theirs (a name is read without regard to case, as --seat)."""
    by_case = {name.casefold(): name for name in players}
    return {by_case.get(name.casefold(), name): values for name, values in given.items()}


def problems(edition, players, given: dict) -> list[str]:
    """Why what a table set cannot be played with this edition and these players: each problem once."""
    found, options = [], {option.key: option for option in edition.seat_options}
    for name, values in given.items():
        if name not in players:
            found.append(f"no player is named '{name}' (players: {', '.join(players)})")
            continue
        for key, value in values.items():
            option = options.get(key)
            if option is None:
                known = ", ".join(options) or "none"
                found.append(f"{edition.name} has no seat option '{key}' (its seat options: {known})")
            elif type(value) is not int or not option.minimum <= value <= option.maximum:
                found.append(f"{name}'s {key} must be a whole number from {option.minimum} to {option.maximum}, "
                             f"not {value!r}")
    return found


def seat_values(edition, players, given: dict | None) -> tuple:
    """Each seat's `options` (a SimpleNamespace, defaults where the table set nothing), or GameRuleError
    (G607) naming every value the edition does not take."""
    given = given or {}
    found = problems(edition, players, given)
    if found:
        raise GameRuleError([Diagnostic(None, message, CODE) for message in found])
    return tuple(SimpleNamespace(**{option.key: given.get(name, {}).get(option.key, option.default)
                                    for option in edition.seat_options}) for name in players)


def in_words(edition, given: dict) -> str:
    """What the table set, for a player to read: 'Ana handicap -5, Ben handicap 3' ('' for nothing)."""
    titles = {option.key: option.title for option in edition.seat_options}
    return ", ".join(f"{name} {titles.get(key, key).lower()} {value:+d}" if isinstance(value, int) else
                     f"{name} {key} {value}" for name, values in given.items() for key, value in values.items())
