"""Playing and scoring a game: the state machine, the score sheet, records, saves and logs.

It reads an Edition and never a YAML file's text; it never talks to a terminal or a socket, and it
never decides for a seat (that is the bots' job and the players').
"""

from .loop import play
from .records import load_record, score_record
from .state import Decision, Game

__all__ = ["Decision", "Game", "load_record", "play", "score_record"]
