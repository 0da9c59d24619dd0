"""boom's rules engine: editions as data, compiled once, played by a state machine.

The front door: load_edition(path) → Edition; new_game(edition, players, seed) → Game;
score_record(edition, record, source_map) → score sheet.
Each entry point's module is imported when the name is first used (PEP 562), so `boom validate`
never loads the game and `boom score` never loads the bots.
"""

from __future__ import annotations

import importlib

from .errors import BoomError, Diagnostic, EditionError, GameRuleError, RecordError, render

DISTRIBUTION = "boomerang-rules"   # the name pip knows us by (pyproject.toml: the index's "boom" is another project)

_ENTRY_POINTS = {   # name -> the module that defines it
    "check_edition": ".edition.loader", "load_edition": ".edition.loader",
    "load_record": ".game.records", "score_record": ".game.records",
    "Decision": ".game.state", "Game": ".game.state",
}


def __getattr__(name: str):
    if name in _ENTRY_POINTS:
        value = getattr(importlib.import_module(_ENTRY_POINTS[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def new_game(edition, players, seed: int = 0):
    from .game.state import Game
    return Game(edition, players, seed)

__all__ = [
    "DISTRIBUTION", "BoomError", "Decision", "Diagnostic", "EditionError", "Game", "GameRuleError", "RecordError",
    "check_edition", "load_edition", "load_record", "new_game", "render", "score_record",
]
