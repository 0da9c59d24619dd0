"""Reading an edition: YAML with positions, extends, the JSON Schema, the frozen model, the checks.

The stage before any game: a path goes in, a checked, immutable Edition (or every diagnostic) comes
out. Nothing here knows how a game is played.
"""

from .loader import check_edition, load_edition
from .model import Edition

__all__ = ["Edition", "check_edition", "load_edition"]
