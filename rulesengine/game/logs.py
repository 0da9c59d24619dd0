"""Reading a game log back and checking it: `boom replay --verify` and `boom replay --seat`.

A log is data, never instructions: it is read with bounds (line size, file size, valid UTF-8, no NaN
or infinities), its header is checked field by field (see save_fields), and nothing read from it
chooses where to write. The replay asks the decisions in the order the game loop asks them and
re-decides every bot seat (bots are stateless and seeded), so a changed seat kind or two decisions
swapped within a turn are found, not only events that differ.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

from ..errors import BoomError, Diagnostic, Span
from .save_fields import check_header, header_goals
from .saves import _saved_edition, file_digest, replay_decisions
from .state import Game

MAX_LOG_LINE = 1_000_000  # bytes; the longest line of a game is a few kilobytes
MAX_LOG_BYTES = 50_000_000


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number a log may hold")


def _refuse_duplicates(pairs: list) -> dict:
    """A JSON object of the log, refused when a key is given twice (JSON would keep the last silently,
    so a line could say two things; a save refuses the same)."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def read_log(path: str | Path) -> tuple[dict, list[tuple[int, dict]]]:
    """The header and the (line number, event) pairs of a JSONL game log."""
    file = str(path)
    entries = []
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise BoomError(Diagnostic(None, f"cannot read {file}: it is not a regular file", "F905"))
            total = 0
            for number, raw in enumerate(iter(lambda: stream.readline(MAX_LOG_LINE + 1), b""), 1):
                total += len(raw)
                if len(raw) > MAX_LOG_LINE:
                    raise BoomError(
                        Diagnostic(Span(file, number, 1), f"line longer than the limit of {MAX_LOG_LINE} bytes", "F906")
                    )
                if total > MAX_LOG_BYTES:
                    raise BoomError(
                        Diagnostic(
                            Span(file, number, 1), f"the log is longer than the limit of {MAX_LOG_BYTES} bytes", "F906"
                        )
                    )
                entries.append((number, _entry(file, number, raw)))
    except (OSError, ValueError) as exc:
        raise BoomError(
            Diagnostic(None, f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", "F905")
        ) from None
    entries = [(number, entry) for number, entry in entries if entry is not None]
    if not entries or entries[0][1].get("type") != "header":
        raise BoomError(
            Diagnostic(Span(file, 1, 1), f"{file} is not a game log: a log starts with its header line", "F906")
        )
    return entries[0][1], entries[1:]


def _entry(file: str, number: int, raw: bytes) -> dict | None:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoomError(
            Diagnostic(Span(file, number, exc.start + 1), f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", "F906")
        ) from None
    if not line.strip():
        return None
    try:
        entry = json.loads(line, parse_constant=_refuse_constant, object_pairs_hook=_refuse_duplicates)
    except json.JSONDecodeError as exc:
        raise BoomError(Diagnostic(Span(file, number, exc.colno), f"not JSON: {exc.msg}", "F906")) from None
    except (ValueError, RecursionError) as exc:
        raise BoomError(Diagnostic(Span(file, number, 1), f"not a log line: {exc}", "F906")) from None
    if not isinstance(entry, dict):
        raise BoomError(Diagnostic(Span(file, number, 1), "each line of a log is a JSON object", "F906"))
    return entry


def replay_log(path: str | Path, *, seat_kinds, bots: Callable | None = None,
               notes: list | None = None, runner: str = "compiled") -> tuple[Game, list[str]]:
    """Re-play a log from its seed and decisions; return the game and every difference found.
    bots(header, edition) gives the agent of each seat to re-decide (bots.seats.recorded_bots; the
    game does not know the bots), or None to check the events only. An edition file changed since
    the game (its words, say) is a difference only when the replay differs too; otherwise it is said
    in notes: every decision and event replaying identically is what verifies a log. runner: how the
    edition's scoring runs (game/program.py; the tests replay through the reference too)."""
    game, found, changed = _replay_log(path, seat_kinds, bots, runner)
    if changed:
        if found:
            found.insert(0, changed)
        elif notes is not None:
            notes.append(f"{changed}; every decision and event still replays identically")
    return game, found


def _replay_log(path, seat_kinds, bots, runner) -> tuple[Game, list[str], str | None]:
    header_entry, entries = read_log(path)
    file = str(path)
    header, problems = check_header(header_entry, lambda where: Span(file, 1, 1), "log", seat_kinds)
    if problems:
        raise BoomError(problems)
    edition = _saved_edition(header, lambda key: Span(file, 1, 1), True, lambda message: None, "log", runner)
    found: list[str] = []
    changed = None
    if header.edition_sha256 != file_digest(header.edition_path):
        changed = f"{file}:1: the edition file {header.edition_path} differs from the one the game was played with"
        if header.rules_sha256 == edition.rules_sha256:
            changed += ", in its words only (the rules are the same)"
    elif header.rules_sha256 not in (None, edition.rules_sha256):
        changed = (f"{file}:1: the rules of {header.edition_path} differ from the ones the game was played with "
                   "(an edition it extends or borrows from changed)")
    goals = header_goals(edition, header, lambda where: Span(file, 1, 1), "log")
    try:
        game = Game(edition, list(header.players), header.seed, deal_version=header.format,
                    seat_options=header.seat_options, goals=goals)
    except BoomError as exc:   # a seat option the edition does not take (G607): the header's
        raise BoomError([Diagnostic(Span(file, 1, 1), d.message, d.code) for d in exc.diagnostics]) from None
    agents = bots(header, edition) if bots else {}
    decided = [(number, e) for number, e in entries if e.get("type") == "decision"]
    asked: list = []
    for number, event in decided:
        item = [event.get("seat"), event.get("answer"), event.get("category")]
        relabelled = _changed_kind(header, event)
        if relabelled:
            found.append(f"{file}:{number}: {relabelled}")
            break
        if not asked:
            asked = list(game.pending())  # as the game loop asks: one batch, in this order
        if not asked:
            break  # the game is over: replay_decisions reports the extra decision
        expected = asked.pop(0)
        if (item[0], item[2]) != (expected.seat, expected.category):
            found.append(
                f"{file}:{number}: the game asks {_who(game, expected)} here, but the log has a decision of "
                f"seat {item[0]!r}{'' if item[2] is None else f' for {item[2]!r}'} (decisions out of order or swapped)"
            )
            break
        if expected.seat in agents:
            answer = agents[expected.seat].decide(game.view(expected.seat), expected)
            if answer != item[1]:
                found.append(
                    f"{file}:{number}: seat {expected.seat} ({game.players[expected.seat]}) "
                    f"is a {header.seats[expected.seat]} bot, "
                    f"which decides {answer!r} here, but the log has {item[1]!r} (a changed seat kind or decision?)"
                )
                break
        replay_decisions(game, [item], lambda _, number=number: Span(file, number, 1))
    if found:
        return game, found, changed
    logged = [json.dumps(_as_played(e), ensure_ascii=False, sort_keys=True) for _, e in entries]
    replayed = [json.dumps(e, ensure_ascii=False, sort_keys=True) for e in game.events]
    for position, (number, _) in enumerate(entries):
        if position >= len(replayed):
            found.append(f"{file}:{number}: the log has an event the replay does not produce")
            break
        if logged[position] != replayed[position]:
            found.append(f"{file}:{number}: logged {logged[position]} but the replay gives {replayed[position]}")
            break
    if len(replayed) > len(logged) and not found:
        found.append(f"{file}: the replay goes on past the end of the log ({len(replayed) - len(logged)} more events)")
    return game, found, changed


def _changed_kind(header, event: dict) -> str | None:
    """Why a decision's origin (its `by`, where the log records it) differs from its seat's kind in the header."""
    seat, by = event.get("seat"), event.get("by")
    if by is None or not isinstance(seat, int) or not 0 <= seat < len(header.seats) or by == header.seats[seat]:
        return None
    return (f"seat {seat} ({header.players[seat]}) is {header.seats[seat]!r} in the header, but this decision "
            f"was made by {by!r} (a changed seat kind?)")


def _as_played(event: dict) -> dict:
    """An event as the game made it: a decision's `by` is the log's, checked against the header above."""
    if event.get("type") == "decision" and "by" in event:
        return {key: value for key, value in event.items() if key != "by"}
    return event


def _who(game: Game, decision) -> str:
    what = f"the choice for {decision.category!r}" if decision.category else f"the {decision.kind}"
    return f"seat {decision.seat} ({game.players[decision.seat]}) for {what}"
