"""Playing and scoring a game: the state machine, the score sheet, records, saves and logs.

It reads an Edition and never a YAML file's text; it never talks to a terminal or a socket, and it
never decides for a seat (that is the bots' job and the players').
Each name is imported when first used (PEP 562): a module of this package (save_fields, ranking) is
read without loading the engine, so a command's options and help start without it.
"""

from __future__ import annotations

import importlib

_WHERE = {"play": ".loop", "load_record": ".records", "score_record": ".records", "Decision": ".state",
          "Game": ".state"}


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Decision", "Game", "load_record", "play", "score_record"]
