"""What every block of a round is and declares (see blocks/__init__.py for how the game plays them).

A block is made once per game from its step (edition/steps.py) and keeps its own state in its
attributes: per round (reset by begin_round) and per game. What it declares, as class attributes,
is what the rest of boom reads instead of asking which kind of round an edition has:
  places   the places of the table it makes (game/places.py: who may see each)
  view     the keys it adds to a seat's view, each worked out by its method view_<key>(game, seat)
  public   those of its view keys that anyone may see (a spectator too); the others show the seat's own
  entries  for a view key whose value is a list of mappings, the keys of each mapping (the allow-list);
           entries_of(step) when they depend on the step's parameters
  events   each event type it makes -> PUBLIC (told to every seat) or OWN (told to the seat it names)
  history  the keys it adds to a finished round's entry in game.history (end_round)
  record   the keys it adds to the game's record (what `boom score` reads)
  repeats  True when it may ask a seat the very same question more than once in a round (a bid):
           bots then tell the questions apart by the seat's decisions so far this round (made(view))
The words of its decisions are its step's (step.asks()); what a seat cannot see now is hidden(game, seat).
"""

from __future__ import annotations

PUBLIC, OWN = "public", "own"


class Hidden:
    """What one seat cannot see now: lists of cards it cannot see (each a list of the game's: a hand, the
    undealt cards, the deck), single face-down cards as (list, index), and secret values as (mapping, key,
    options). The secrecy test changes every one of them and checks the seat's view stays the same."""

    __slots__ = ("cards", "face_down", "values")

    def __init__(self):
        self.cards: list = []
        self.face_down: list = []
        self.values: list = []


class Block:
    __slots__ = ("step", "__dict__")  # (a block may keep more state in its own slots, or in its __dict__)
    quick = False  # True only for a pick block that takes one card a pass (Game.apply's hot path: see blocks/)
    places: tuple = ()
    view: tuple = ()
    public: tuple = ()
    entries: dict = {}
    events: dict = {}
    history: tuple = ()
    record: tuple = ()
    repeats = False

    def __init__(self, step):
        self.step = step

    # -- the game ------------------------------------------------------------------------------
    def setup(self, game) -> None:
        """At the game's start: make this block's places and its state for the whole game."""

    def begin_round(self, game) -> dict:
        """At a round's start, before any block plays: reset the round's state; the fields it adds to the
        round_start event."""
        return {}

    def start(self, game) -> bool:
        """Begin this block's part of the round; True when it is over at once (it needs no decision)."""
        return True

    def pending(self, game) -> list:
        return []

    def decision_of(self, game, seat: int, category):
        return None

    def apply(self, game, seat: int, answer, category) -> bool:
        raise AssertionError(f"{type(self).__name__} asks no decision")  # Game.apply refuses first (G604)

    def end_round(self, game, entry: dict) -> None:
        """The round is over: add this block's part of it to the round's history entry."""

    def finish(self, game) -> None:
        """The game is over: empty what a finished game no longer shows."""

    def add_record(self, game, record: dict) -> None:
        """Add this block's keys to the game's record."""

    def resume(self, game, position: dict) -> None:
        """Take this block's state out of a position given to Game.at_position (bots' sampled worlds)."""

    # -- what a seat may see ---------------------------------------------------------------------
    def hidden(self, game, seat: int, hidden: Hidden) -> None:
        """Add what this seat cannot see now of this block's places and state."""

    @classmethod
    def hooked(cls, hook: str, step, index: int) -> bool:
        """Whether the game calls this hook (setup, begin_round, end_round, finish) of this block, the step at
        this index of its round: when the block has one of its own (a hook a block does not need for its
        step or its place in the round is not called, once a round of every game)."""
        return getattr(cls, hook) is not getattr(Block, hook)

    @classmethod
    def entries_of(cls, step) -> dict:
        """The entries of this block's view keys for this step (the keys its parameters show): `entries`."""
        return cls.entries

    @staticmethod
    def made(view) -> int:
        """How many decisions of this block the view's seat has made this round, read from its view."""
        return 0
