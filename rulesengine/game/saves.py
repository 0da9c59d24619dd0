"""A game with its outputs: the saved state after every decision, the event log, and their replay.

A saved game is the seed, the seats and the decisions so far: the engine is deterministic and the
bots are stateless, so replaying the decisions rebuilds the exact state. Files are written
atomically (a temporary file renamed over the old one), so a crash leaves the previous complete
save, never half of one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..edition.guarantee import MAX_GAME_DECISIONS
from ..edition.loader import load_edition
from ..edition.seat_options import CODE as SEAT_OPTION
from ..edition.shipped import resolve_edition
from ..edition.source import MAX_FILE_BYTES, SAVE, load_yaml
from ..errors import BoomError, Diagnostic, EditionError, Note, Span
from .outputs import AppendedFile, check_outputs, lock_outputs, write_atomic
from .save_fields import Header, check_header, header_goals
from .state import Game

# A save is its header and 4 nodes a decision ([seat, answer, category]); an edition's game has at
# most MAX_GAME_DECISIONS decisions (edition/guarantee.py), so every validated edition's save is read.
SAVE_MAX_NODES = 4 * MAX_GAME_DECISIONS + 20_000


def file_digest(path: str | Path) -> str:
    """The SHA-256 of an edition file, reading no more than an edition may hold (a larger file is no
    edition: its digest differs and loading it refuses it)."""
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read(MAX_FILE_BYTES + 1)).hexdigest()


@dataclass
class Session:
    """One game being played, and where its state and log go (paths from the command line only)."""

    edition_path: str
    game: Game
    seats: list[str]  # agent kind per seat: human, random, greedy, ...
    save_path: str | None = None
    log_path: str | None = None
    options: dict = field(default_factory=dict)  # the search budget: search_rollouts, search_seconds
    _logged: int = 0
    _locks: list = field(default_factory=list)
    _log: AppendedFile | None = None  # the log's one descriptor, kept open for the game

    @classmethod
    def start(cls, edition_path, players, seats, seed, save_path=None, log_path=None, options=None, *,
              seat_options=None) -> Session:
        """seat_options: name -> option -> number, what the table set of the edition's seat options."""
        edition_path = resolve_edition(edition_path)  # a shipped edition's name: its file
        edition = load_edition(edition_path)
        check_outputs(save_path, log_path)
        game = Game(edition, players, seed, seat_options=seat_options)
        session = cls(str(edition_path), game, list(seats), save_path, log_path, dict(options or {}))
        session.lock()
        session.checkpoint()
        return session

    def lock(self) -> None:
        """Hold the save and the log for this game's life: a second game given them is refused."""
        self._locks = lock_outputs(self.save_path, self.log_path)

    def unlock(self) -> None:
        """The game is over here: close the log and let other games have the files."""
        if self._log is not None:
            self._log.close()
            self._log = None
        for held in self._locks:
            held.release()
        self._locks = []

    def header(self) -> dict:
        return {
            "type": "header",
            "format": self.game.deal_version,
            "edition": str(Path(self.edition_path).resolve()),
            "edition_id": self.game.edition.id,
            "edition_sha256": file_digest(self.edition_path),
            "rules_sha256": self.game.edition.rules_sha256,
            "players": self.game.players,
            "seats": self.seats,
            "seed": self.game.seed,
            "options": self.options,
            # only where the table set some: every file written before seat options reads the same (format 5)
            **({"seat_options": self.game.seat_options} if self.game.seat_options else {}),
            # only in an edition with public goals (blocks/goals.py): the goals drawn
            **({"goals": list(self.game.places.goals)} if "goals" in vars(self.game.places) else {}),
        }

    def checkpoint(self) -> None:
        """Write the save file and the new log lines; called after every decision."""
        if self.save_path:
            state = dict(self.header(), type="saved_game", decisions=self.game.decisions, over=self.game.over)
            write_atomic(self.save_path, save_text(state), private=True)
        if self.log_path:
            self._append_log()

    def _append_log(self) -> None:
        """The log is made new at the first checkpoint, then only appended to through its descriptor."""
        events = self.game.events
        if self._log is None:
            self._log = AppendedFile(self.log_path, json.dumps(self.header(), ensure_ascii=False) + "\n")
            self._logged = 0
        self._log.write("".join(json.dumps(self._logged_event(event), ensure_ascii=False) + "\n"
                                for event in events[self._logged :]))
        self._logged = len(events)

    def _logged_event(self, event: dict) -> dict:
        """A decision is logged with who made it (`by`: the seat's kind), so that `replay --verify` finds a
        header whose seat kinds were changed alone (a bot seat relabelled human, its decisions rewritten)."""
        if event.get("type") == "decision" and isinstance(event.get("seat"), int) and event["seat"] < len(self.seats):
            return {**event, "by": self.seats[event["seat"]]}
        return event


def save_text(state: dict) -> str:
    """A save as JSON with one field a line and one decision a line, so that an error in it points at a
    short line (a one-line save quoted 2 KB around its caret)."""
    fields = []
    for key, value in state.items():
        if key == "decisions" and value:
            rows = ",\n".join(f"  {json.dumps(decision, ensure_ascii=False)}" for decision in value)
            fields.append(f" {json.dumps(key)}: [\n{rows}\n ]")
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def replay_decisions(game: Game, decisions, where=lambda index: None) -> Game:
    """Apply saved decisions in order; a decision the game refuses is reported where it was read."""
    for index, item in enumerate(decisions):
        if not (
            isinstance(item, list) and len(item) == 3 and isinstance(item[0], int) and not isinstance(item[0], bool)
        ):
            raise BoomError(Diagnostic(where(index), "a decision is written [seat, answer, category]", "F901"))
        seat, answer, category = item
        if not 0 <= seat < len(game.players):
            raise BoomError(Diagnostic(where(index), f"decision {index + 1}: there is no seat {seat}", "F902"))
        try:
            game.apply(seat, answer, category)
        except BoomError as exc:
            raise BoomError(
                [Diagnostic(where(index), f"decision {index + 1}: {d.message}", "F902") for d in exc.diagnostics]
            ) from None
    return game


def resume(
    save_path: str | Path,
    log_path: str | None = None,
    *,
    seat_kinds,
    allow_changed_edition: bool = False,
    warn=lambda message: None,
) -> Session:
    """Rebuild a saved game exactly where it stopped. Every field of the save is checked; the save
    chooses nothing about where to write: the save goes back to save_path, the log to log_path."""
    file = str(save_path)
    check_outputs(save_path, log_path)
    try:
        data, source_map = load_yaml(save_path, kind=SAVE, max_nodes=SAVE_MAX_NODES)
    except EditionError as exc:
        raise BoomError(exc.diagnostics) from None
    try:
        return _resume(file, log_path, data, source_map, seat_kinds, allow_changed_edition, warn)
    except BoomError as exc:
        raise exc.quoting(source_map.texts) from None


def _resume(file: str, log_path, data, source_map, seat_kinds, allow_changed_edition: bool, warn) -> Session:
    if not isinstance(data, dict) or data.get("type") != "saved_game":
        raise BoomError(Diagnostic(Span(file, 1, 1), f"{file} is not a saved boom game", "F903"))
    header, problems = check_header(data, source_map.span_at, "saved game", seat_kinds)
    decisions = data.get("decisions")
    if not isinstance(decisions, list):
        where = source_map.span_at(("decisions",))
        problems.append(Diagnostic(where, "the saved game's 'decisions' must be a list", "F903"))
    if "over" in data and not isinstance(data["over"], bool):
        where = source_map.span_at(("over",))
        problems.append(Diagnostic(where, "the saved game's 'over' must be true or false", "F903"))
    if problems:
        raise BoomError(problems)
    def where(key):
        return source_map.span_at((key,))

    # a save of an earlier boom has only its file's digest: a changed file is accepted if the decisions replay
    older = header.rules_sha256 is None and not allow_changed_edition and _file_changed(header)
    edition = _saved_edition(header, where, allow_changed_edition or older,
                             (lambda message: None) if older else warn, "saved game")
    goals = header_goals(edition, header, source_map.span_at, "saved game")
    try:
        game = Game(edition, list(header.players), header.seed, deal_version=header.format,
                    seat_options=header.seat_options, goals=goals)
    except BoomError as exc:
        raise BoomError([Diagnostic(source_map.span_at(("seat_options",) if d.code == SEAT_OPTION else ("players",)),
                                    d.message, d.code) for d in exc.diagnostics]) from None
    try:
        replay_decisions(game, decisions, lambda index: source_map.span_at(("decisions", index)))
    except BoomError as exc:
        if not older:
            raise
        message = f"{header.edition_path} changed since the game was saved, and the game no longer replays with it"
        raise BoomError(Diagnostic(where("edition_sha256"), message, "F904",
                                   notes=tuple(Note(d.span, d.message) for d in exc.diagnostics))) from None
    if older:
        if data.get("over", game.over) != game.over:
            state = "over" if game.over else "not over"
            raise BoomError(Diagnostic(where("edition_sha256"), f"{header.edition_path} changed since the game "
                                       f"was saved: its decisions replay to a game {state}, which the save is not",
                                       "F904", hint="resume with --allow-changed-edition to go on all the same"))
        warn(f"note: {header.edition_path} changed since the game was saved (by a boom that did not record the "
             f"digest of the rules); its {len(game.decisions)} decisions replay legally with the file as it is "
             "now, and the game goes on with it")
    session = Session(header.edition_path, game, list(header.seats), file, log_path, dict(header.options))
    session.lock()
    return session


def _file_changed(header: Header) -> bool:
    try:
        return Path(header.edition_path).is_file() and file_digest(header.edition_path) != header.edition_sha256
    except OSError:
        return False  # _saved_edition says what is wrong with the file


def _saved_edition(header: Header, where, allow_changed: bool, warn, what: str, runner: str = "compiled"):
    """The edition a save or log names, refused if what it plays changed since (unless allowed) or is another
    one. A header with the rules' digest (Edition.rules_sha256) is compared by it: a file changed only in its
    words is the same game (said in a note), and a parent's change is found though the file is the same; an
    older header has only the file's digest. runner: how its scoring runs (game/program.py)."""
    path = header.edition_path
    try:
        regular = Path(path).is_file()
    except (OSError, ValueError):
        regular = False
    if not regular:
        raise BoomError(Diagnostic(where("edition"), f"the edition {path} is gone (or is not a regular file)", "F904"))
    changed_file = file_digest(path) != header.edition_sha256
    if changed_file and header.rules_sha256 is None and not allow_changed:
        raise BoomError(
            Diagnostic(
                where("edition_sha256"),
                f"{path} changed since the game was saved",
                "F904",
                hint="resume with --allow-changed-edition to go on with the file as it is now",
            )
        )
    edition = load_edition(path, quote=False, runner=runner)
    if edition.id != header.edition_id:
        message = f"the {what} is a game of '{header.edition_id}', but {path} is the edition '{edition.id}'"
        raise BoomError(Diagnostic(where("edition_id"), message, "F904"))
    if header.rules_sha256 is not None and header.rules_sha256 != edition.rules_sha256:
        if not allow_changed:
            raise BoomError(Diagnostic(where("rules_sha256"), f"the rules of {path} changed since the game was saved"
                                       + ("" if changed_file else " (in an edition it extends or borrows from)"),
                                       "F904", hint="resume with --allow-changed-edition to go on with the rules as "
                                                    "they are now"))
        warn(f"warning: the rules of {path} changed since the game was saved; the game continues with them as they "
             "are now")
    elif changed_file and header.rules_sha256 is not None:
        warn(f"note: {path} changed since the game was saved, in its words only: the rules are the same")
    elif changed_file:
        warn(f"warning: {path} changed since the game was saved; the game continues with the file as it is now")
    return edition
