"""Reading an edition: YAML with positions, extends, the JSON Schema, the frozen model, the checks.

The stage before any game: a path goes in, a checked, immutable Edition (or every diagnostic) comes
out. Nothing here knows how a game is played.
"""

from __future__ import annotations

import importlib

_WHERE = {"check_edition": ".loader", "load_edition": ".loader", "Edition": ".model"}


def __getattr__(name: str):
    """Each name imported when first used (PEP 562): the model and the shipped editions' list are read
    without loading the YAML, the JSON Schema and the scoring language's parser."""
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Edition", "check_edition", "load_edition"]
