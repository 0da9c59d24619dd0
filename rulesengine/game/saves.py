"""A game with its outputs: the saved state after every decision, the event log, and their replay.

A saved game is the seed, the seats and the decisions so far: the engine is deterministic and the
bots are stateless, so replaying the decisions rebuilds the exact state. Files are written
atomically (a temporary file renamed over the old one), so a crash leaves the previous complete
save, never half of one.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..edition.loader import load_edition
from ..edition.source import load_yaml
from ..errors import BoomError, Diagnostic, EditionError, Span
from .state import Game

SAVE_FORMAT = 1


def file_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def unwritable(path: str | Path) -> BoomError:
    return BoomError(Diagnostic(None, f"cannot write {path}: its folder does not exist or is not writable", "F907"))


def check_writable(*paths) -> None:
    """Refuse output paths that cannot be written before a game starts, not after it ends."""
    for path in paths:
        if path is None:
            continue
        folder = Path(path).resolve().parent
        if not folder.is_dir() or not os.access(folder, os.W_OK) or Path(path).is_dir():
            raise unwritable(path)


def write_atomic(path: str | Path, text: str) -> None:
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError:
        raise unwritable(path) from None


@dataclass
class Session:
    """One game being played, and where its state and log go."""

    edition_path: str
    game: Game
    seats: list[str]                          # agent kind per seat: human, random, greedy, ...
    save_path: str | None = None
    log_path: str | None = None
    options: dict = field(default_factory=dict)
    _logged: int = 0

    @classmethod
    def start(cls, edition_path, players, seats, seed, save_path=None, log_path=None, options=None) -> Session:
        edition = load_edition(edition_path)
        check_writable(save_path, log_path)
        session = cls(str(edition_path), Game(edition, players, seed), list(seats), save_path, log_path, dict(options or {}))
        session.checkpoint()
        return session

    def header(self) -> dict:
        return {"type": "header", "format": SAVE_FORMAT, "edition": str(Path(self.edition_path).resolve()),
                "edition_id": self.game.edition.id, "edition_sha256": file_digest(self.edition_path),
                "players": self.game.players, "seats": self.seats, "seed": self.game.seed, "options": self.options}

    def checkpoint(self) -> None:
        """Write the save file and the new log lines; called after every decision."""
        if self.save_path:
            state = dict(self.header(), type="saved_game", decisions=self.game.decisions, over=self.game.over)
            write_atomic(self.save_path, json.dumps(state, ensure_ascii=False) + "\n")
        if self.log_path:
            try:
                self._append_log()
            except OSError:
                raise unwritable(self.log_path) from None

    def _append_log(self) -> None:
        events = self.game.events
        if self._logged == 0:
            with open(self.log_path, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(self.header(), ensure_ascii=False) + "\n")
        with open(self.log_path, "a", encoding="utf-8") as handle:
            for event in events[self._logged:]:
                handle.write(json.dumps(event, ensure_ascii=False) + "\n")
            handle.flush()
        self._logged = len(events)

def replay_decisions(game: Game, decisions, where=lambda index: None) -> Game:
    """Apply saved decisions in order; a decision the game refuses is reported where it was read."""
    for index, item in enumerate(decisions):
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int) and not isinstance(item[0], bool)):
            raise BoomError(Diagnostic(where(index), "a decision is written [seat, answer, category]", "F901"))
        seat, answer, category = item
        if not 0 <= seat < len(game.players):
            raise BoomError(Diagnostic(where(index), f"decision {index + 1}: there is no seat {seat}", "F902"))
        try:
            game.apply(seat, answer, category)
        except BoomError as exc:
            raise BoomError([Diagnostic(where(index), f"decision {index + 1}: {d.message}", "F902") for d in exc.diagnostics]) from None
    return game


def _field(data: dict, key: str, kind, source_map, file: str):
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        span = source_map.span_at((key,)) if key in data else Span(file, 1, 1)
        raise BoomError(Diagnostic(span, f"the saved game has no valid '{key}'", "F903"))
    return value


def resume(save_path: str | Path, warn=lambda message: None) -> Session:
    """Rebuild a saved game exactly where it stopped."""
    try:
        data, source_map = load_yaml(save_path)
    except EditionError as exc:
        raise BoomError(exc.diagnostics) from None
    try:
        return _resume(save_path, warn, data, source_map)
    except BoomError as exc:
        raise exc.quoting(source_map.texts) from None


def _resume(save_path: str | Path, warn, data, source_map) -> Session:
    file = str(save_path)
    if not isinstance(data, dict) or data.get("type") != "saved_game":
        raise BoomError(Diagnostic(Span(file, 1, 1), "this is not a saved boom game", "F903"))
    edition_path = _field(data, "edition", str, source_map, file)
    players = _field(data, "players", list, source_map, file)
    seats = _field(data, "seats", list, source_map, file)
    seed = _field(data, "seed", int, source_map, file)
    decisions = _field(data, "decisions", list, source_map, file)
    if not Path(edition_path).is_file():
        raise BoomError(Diagnostic(source_map.span_at(("edition",)), f"the edition {edition_path} is gone", "F904"))
    if file_digest(edition_path) != data.get("edition_sha256"):
        warn(f"warning: {edition_path} changed since the game was saved; the game continues with the file as it is now")
    if len(seats) != len(players) or not all(isinstance(s, str) for s in seats):
        raise BoomError(Diagnostic(source_map.span_at(("seats",)), "one seat kind per player is needed", "F903"))
    edition = load_edition(edition_path)
    game = Game(edition, players, seed)
    replay_decisions(game, decisions, lambda index: source_map.span_at(("decisions", index)))
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    session = Session(edition_path, game, seats, str(save_path), options.get("log"), options)
    return session


def read_log(path: str | Path) -> tuple[dict, list[tuple[int, dict]]]:
    """The header and the (line number, event) pairs of a JSONL game log."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoomError(Diagnostic(None, f"cannot read {path}: {exc}", "F905")) from None
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BoomError(Diagnostic(Span(str(path), number, exc.colno), f"not JSON: {exc.msg}", "F906")) from None
        if not isinstance(entry, dict):
            raise BoomError(Diagnostic(Span(str(path), number, 1), "each line of a log is a JSON object", "F906"))
        entries.append((number, entry))
    if not entries or entries[0][1].get("type") != "header":
        raise BoomError(Diagnostic(Span(str(path), 1, 1), "a game log starts with its header line", "F906"))
    return entries[0][1], entries[1:]


def replay_log(path: str | Path) -> tuple[Game, list[str]]:
    """Re-play a log from its seed and decisions; return the game and every difference found."""
    header, entries = read_log(path)
    file = str(path)
    for key, kind in (("edition", str), ("players", list), ("seed", int)):
        if not isinstance(header.get(key), kind):
            raise BoomError(Diagnostic(Span(file, 1, 1), f"the log header has no valid '{key}'", "F906"))
    edition = load_edition(header["edition"])
    problems = []
    if header.get("edition_sha256") != file_digest(header["edition"]):
        problems.append(f"{file}:1: the edition file {header['edition']} differs from the one the game was played with")
    game = Game(edition, header["players"], header["seed"])
    decisions = [[e.get("seat"), e.get("answer"), e.get("category")] for _, e in entries if e.get("type") == "decision"]
    lines = {i: number for i, (number, e) in enumerate(e for e in entries if e[1].get("type") == "decision")}
    replay_decisions(game, decisions, lambda index: Span(file, lines.get(index, 1), 1))
    logged = [json.dumps(e, ensure_ascii=False, sort_keys=True) for _, e in entries]
    replayed = [json.dumps(e, ensure_ascii=False, sort_keys=True) for e in game.events]
    for index, (number, _) in enumerate(entries):
        if index >= len(replayed):
            problems.append(f"{file}:{number}: the log has an event the replay does not produce")
            break
        if logged[index] != replayed[index]:
            problems.append(f"{file}:{number}: logged {logged[index]} but the replay gives {replayed[index]}")
            break
    if len(replayed) > len(logged) and not problems:
        problems.append(f"{file}: the replay goes on past the end of the log ({len(replayed) - len(logged)} more events)")
    return game, problems
