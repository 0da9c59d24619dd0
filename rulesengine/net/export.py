"""A table from the server's database as files the rest of boom reads: a record and a game log.

`boom score` reads the record, `boom replay` the log (with the edition file beside it). The seed is
in the log's header, so only a finished table is exported: while a game runs, its seed stays secret.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import BoomError, Diagnostic
from ..game.outputs import write_atomic
from ..game.saves import file_digest, replay_decisions
from ..game.state import Game
from .editions import edition_from_data, edition_text
from .storage import Store, StoredTable


def finished_game(store: Store, code: str) -> tuple[Game, StoredTable]:
    """The finished game of this table, replayed from the database, and the table as stored."""
    stored = store.load(code)
    if stored is None:
        known = ", ".join(store.codes()[-10:]) or "none"
        raise BoomError(Diagnostic(None, f"there is no table {code} in this database (last tables: {known})", "N401"))
    if not stored.finished:
        raise BoomError(
            Diagnostic(None, f"the game at table {code} is not finished; only a finished game is exported", "N402")
        )
    edition = edition_from_data(stored.edition)
    players = [name for _, name, _, _ in stored.seats]
    given = stored.seat_options or {}
    game = Game(edition, players, stored.seed, deal_version=stored.deal,
                seat_options={players[int(seat) - 1]: values for seat, values in given.items()})
    replay_decisions(game, in_the_loops_order(game, stored.decisions))
    return game, stored


def in_the_loops_order(game: Game, decisions) -> list:
    """The decisions in the order the game loop asks them (seat by seat within a turn), not in the
    order they reached the server: within a turn the picks are simultaneous, so the game is the same,
    and `boom replay --verify` checks a log's decisions in that order. `game` is not changed."""
    probe = Game(game.edition, game.players, game.seed, deal_version=game.deal_version, seat_options=game.seat_options)
    remaining, ordered = [list(d) for d in decisions], []
    while remaining and not probe.over:
        asked = probe.pending()
        for question in asked:
            found = next((d for d in remaining if d[0] == question.seat and d[2] == question.category), None)
            if found is None:  # not answered yet: the stored game stops here
                return ordered + remaining
            remaining.remove(found)
            probe.apply(*found)
            ordered.append(found)
    return ordered + remaining


def export_table(store: Store, code: str) -> dict:
    """The finished table's record: what `boom score` reads."""
    game, _ = finished_game(store, code)
    return game.record()


def log_edition_path(log_path: str | Path) -> Path:
    """Where the edition of an exported log is written: beside it, for `boom replay` to read."""
    log_path = Path(log_path)
    return log_path.with_name(log_path.stem + ".edition.json")


def write_log(store: Store, code: str, log_path: str | Path) -> Path:
    """Write the finished table's game log (for `boom replay`) and its edition beside it; return the edition's path."""
    game, stored = finished_game(store, code)
    edition_path = log_edition_path(log_path)
    write_atomic(edition_path, edition_text(stored.edition) + "\n")
    header = {  # a player's seat is "human" (its decisions are taken as given); a server bot's, its kind
        "type": "header",
        "format": game.deal_version,
        "edition": str(edition_path.resolve()),
        "edition_id": game.edition.id,
        "edition_sha256": file_digest(edition_path),
        "players": game.players,
        "seats": ["human" if kind == "player" else stored.bot_kind for _, _, kind, _ in stored.seats],
        "seed": game.seed,
        "options": {},
        **({"seat_options": game.seat_options} if game.seat_options else {}),
    }
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(event, ensure_ascii=False) for event in game.events]
    write_atomic(log_path, "\n".join(lines) + "\n")
    return edition_path
