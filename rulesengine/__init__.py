"""boom's rules engine: editions as data, compiled once, played by a state machine.

The front door: load_edition(path) → Edition; new_game(edition, players, seed) → Game;
score_record(edition, record, source_map) → score sheet.
"""

from .edition.loader import check_edition, load_edition
from .errors import BoomError, Diagnostic, EditionError, GameRuleError, RecordError, render
from .game.records import load_record, score_record
from .game.state import Decision, Game


def new_game(edition, players, seed: int = 0) -> Game:
    return Game(edition, players, seed)


__all__ = [
    "BoomError", "Decision", "Diagnostic", "EditionError", "Game", "GameRuleError", "RecordError",
    "check_edition", "load_edition", "load_record", "new_game", "render", "score_record",
]
