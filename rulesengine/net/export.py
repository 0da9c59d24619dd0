"""A table from the server's database as files the rest of boom reads: a record and a game log.

`boom score` reads the record, `boom replay` the log (with the edition file beside it). The seed is
in the log's header, so only a finished table is exported: while a game runs, its seed stays secret.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import BoomError, Diagnostic
from ..game.saves import SAVE_FORMAT, file_digest, replay_decisions, write_atomic
from ..game.state import Game
from .editions import edition_from_data, edition_text
from .storage import Store


def finished_game(store: Store, code: str) -> tuple[Game, dict]:
    """The finished game of this table, replayed from the database, and its edition data."""
    stored = store.load(code)
    if stored is None:
        known = ", ".join(store.codes()[-10:]) or "none"
        raise BoomError(Diagnostic(None, f"there is no table {code} in this database (last tables: {known})", "N401"))
    if not stored.finished:
        raise BoomError(
            Diagnostic(None, f"the game at table {code} is not finished; only a finished game is exported", "N402")
        )
    edition = edition_from_data(stored.edition)
    game = Game(edition, [name for _, name, _, _ in stored.seats], stored.seed)
    replay_decisions(game, stored.decisions)
    return game, stored.edition


def export_table(store: Store, code: str) -> dict:
    """The finished table's record: what `boom score` reads."""
    game, _ = finished_game(store, code)
    return game.record()


def write_log(store: Store, code: str, log_path: str | Path) -> Path:
    """Write the finished table's game log (for `boom replay`) and its edition beside it; return the edition's path."""
    game, data = finished_game(store, code)
    log_path = Path(log_path)
    edition_path = log_path.with_name(log_path.stem + ".edition.json")
    write_atomic(edition_path, edition_text(data) + "\n")
    stored = store.load(code)
    header = {
        "type": "header",
        "format": SAVE_FORMAT,
        "edition": str(edition_path.resolve()),
        "edition_id": game.edition.id,
        "edition_sha256": file_digest(edition_path),
        "players": game.players,
        "seats": [kind for _, _, kind, _ in stored.seats],
        "seed": game.seed,
        "options": {"table": code},
    }
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(event, ensure_ascii=False) for event in game.events]
    write_atomic(log_path, "\n".join(lines) + "\n")
    return edition_path
