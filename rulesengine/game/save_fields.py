"""The header a save and a log share, checked field by field: files read back are data, not instructions.

Every field is checked for its type and range (NaN and infinities refused) and each bad field gets
its own located error. Nothing here chooses where to write: the header has no output path (a
format 1 file's `options.log` is read and ignored), output paths come from the command line only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import Diagnostic, Span
from ..escaping import bidi_problem
from .dealing import DEAL_VERSION

SAVE_FORMAT = DEAL_VERSION  # the format of files written now
# 1: before the round-robin deal, replayed with it; 1, 2: bots drew from string seeds; 3-6: bots.seeding;
# 5: a mulligan never draws a hand returned in the same round (4 and before replay their mulligans as played);
# 6: the guided bot plans its once-per-game choices (5 and before re-decide with the greedy bot's)
FORMATS = (1, 2, 3, 4, 5, 6)
MAX_ROLLOUTS = 10_000  # a search seat's budget per decision, here and on the command line
MAX_SEARCH_SECONDS = 600.0
MAX_PLAYERS = 12
MAX_NAME = 40
MAX_SEED = 2**63


@dataclass(frozen=True)
class Header:
    format: int
    edition_path: str
    edition_id: str
    edition_sha256: str
    players: tuple[str, ...]
    seats: tuple[str, ...]
    seed: int
    options: dict = field(hash=False)  # search_rollouts and/or search_seconds only
    rules_sha256: str | None = None  # what the edition plays, without its words (none before boom wrote it)
    # what the table set of the edition's seat options: name -> option -> number (absent: nothing set). The
    # edition's check of them (a declared option, in its range) is the Game's, which the file names.
    seat_options: dict = field(default_factory=dict, hash=False)
    # the public goals drawn (their ids), in an edition that has some (absent in every other file); the edition's
    # check of them (goals of its deck) is the caller's (goal_problem)
    goals: tuple | None = None


def name_problem(name) -> str | None:
    """Why a player name cannot be used, or None."""
    if not isinstance(name, str) or not name.strip():
        return "a player name must be some text, not empty or only spaces"
    if len(name) > MAX_NAME:
        return f"a player name is at most {MAX_NAME} characters"
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in name):
        return "a player name cannot hold control characters"
    if bidi_problem(name):  # it would show the name, and what follows it, in another order
        return f"a player name cannot hold {bidi_problem(name)[1]}"
    return None


def option_problem(key: str, value) -> str | None:
    """Why a search option is out of its type or range, or None (the same bounds as the command line)."""
    if key == "search_rollouts":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_ROLLOUTS:
            return f"'search_rollouts' must be a whole number from 1 to {MAX_ROLLOUTS}, not {value!r}"
    elif key == "search_seconds":
        ok = (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and 0 < value <= MAX_SEARCH_SECONDS
        )
        if not ok:
            return (
                f"'search_seconds' must be a number of seconds above 0 "
                f"and at most {MAX_SEARCH_SECONDS:g}, not {value!r}"
            )
    else:
        return f"unknown option '{key}' (options: search_rollouts, search_seconds)"
    return None


def check_header(
    data: dict, where: Callable[[tuple], Span], what: str, seat_kinds
) -> tuple[Header | None, list[Diagnostic]]:
    """The header of a save or a log (what: "saved game" or "log"), or every problem of its fields.
    seat_kinds: the kinds a seat may be (the game does not know the bots; its caller does)."""
    problems: list[Diagnostic] = []

    def bad(path: tuple, message: str) -> None:
        problems.append(Diagnostic(where(path), f"the {what}'s '{'.'.join(map(str, path))}': {message}", "F903"))

    def get(key, test, message):
        value = data.get(key)
        if key not in data:
            problems.append(Diagnostic(where(()), f"the {what} has no '{key}'", "F903"))
            return None
        if not test(value):
            bad((key,), message)
            return None
        return value

    def is_int(value):
        return isinstance(value, int) and not isinstance(value, bool)

    version = get(
        "format",
        lambda v: is_int(v) and v in FORMATS,
        f"must be one of {', '.join(map(str, FORMATS))} (the formats boom reads)",
    )
    edition = get(
        "edition",
        lambda v: isinstance(v, str) and v.strip() != "" and "\x00" not in v,
        "must be the path of the edition file",
    )
    edition_id = get("edition_id", lambda v: isinstance(v, str) and v != "", "must be the edition's id")
    digest = get(
        "edition_sha256",
        lambda v: isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v) is not None,
        "must be 64 hex digits",
    )
    players = get(
        "players",
        lambda v: isinstance(v, list) and 1 <= len(v) <= MAX_PLAYERS,
        f"must be a list of 1 to {MAX_PLAYERS} names",
    )
    seats = get("seats", lambda v: isinstance(v, list), "must be a list of seat kinds")
    seed = get("seed", lambda v: is_int(v) and -MAX_SEED <= v < MAX_SEED, "must be a whole number of at most 64 bits")
    options = get("options", lambda v: isinstance(v, dict), "must be a mapping")
    rules = data.get("rules_sha256")  # optional: older saves and logs have only the file's digest
    if "rules_sha256" in data and not (isinstance(rules, str) and re.fullmatch(r"[0-9a-f]{64}", rules)):
        bad(("rules_sha256",), "must be 64 hex digits")
    seat_options = data.get("seat_options", {})
    if not _seat_options_shape(seat_options, players):
        bad(("seat_options",), "must map player names to {option: whole number}")
        seat_options = {}
    goals = data.get("goals")
    if "goals" in data and not (isinstance(goals, list) and all(isinstance(g, str) for g in goals)):
        bad(("goals",), "must be a list of goal ids")
    if players is not None:
        for index, name in enumerate(players):
            problem = name_problem(name)
            if problem:
                bad(("players", index), problem)
        names = [p for p in players if isinstance(p, str)]
        if len(set(names)) != len(names):
            bad(("players",), "player names must differ")
    if seats is not None:
        for index, kind in enumerate(seats):
            if not isinstance(kind, str) or kind not in seat_kinds:
                bad(("seats", index), f"{kind!r} is not a seat kind (kinds: {', '.join(seat_kinds)})")
        if players is not None and len(seats) != len(players):
            bad(("seats",), f"one seat kind per player is needed: {len(players)} players, {len(seats)} seats")
    clean_options = {}
    if options is not None:
        for key, value in options.items():
            if key == "log" and version == 1:  # format 1 kept the log's path here; never used now
                continue
            problem = option_problem(key, value)
            if problem:
                bad(("options", key), problem)
            else:
                clean_options[key] = value
    if problems:
        return None, problems
    return Header(version, edition, edition_id, digest, tuple(players), tuple(seats), seed, clean_options,
                  rules, seat_options, tuple(goals) if "goals" in data else None), []


def header_goals(edition, header: Header, where: Callable[[tuple], Span], what: str) -> list | None:
    """The public goals a save or log names (its `goals`), checked against the edition's deck: None for an
    edition without goals; a BoomError (F903) where they are missing, unknown or not a draw of the deck."""
    from ..edition.goals import goal_problem, goals_of
    from ..errors import BoomError

    goals = goals_of(edition)
    if goals is None and header.goals is None:
        return None
    if goals is None:
        problem = (), f"{edition.name} has no public goals"
    elif header.goals is None:
        raise BoomError(Diagnostic(where(()), f"the {what} has no 'goals' ({edition.name} draws {goals.draw} public "
                                   "goals a game)", "F903"))
    else:
        problem = goal_problem(goals, list(header.goals))
    if problem:
        at, message = problem
        raise BoomError(Diagnostic(where(("goals", *at)), f"the {what}'s 'goals': {message}", "F903"))
    return list(header.goals)


def _seat_options_shape(value, players) -> bool:
    """A header's seat_options: {player name: {option key: whole number}} (the edition checks the rest)."""
    def number(v):
        return isinstance(v, int) and not isinstance(v, bool) and -MAX_SEED <= v < MAX_SEED

    return isinstance(value, dict) and all(
        isinstance(name, str) and (players is None or name in players) and isinstance(values, dict)
        and all(isinstance(key, str) and number(v) for key, v in values.items())
        for name, values in value.items())
