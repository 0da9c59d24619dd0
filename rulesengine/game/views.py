"""What one seat may see of a game, as a plain dict or as a lazy mapping for bots that read little.

A view is the game's own entries (the edition, the seats, the round, the phase; the finished rounds,
the sheet and the seat's pending decisions) around the entries its round's blocks declare (each
block's view_<key>, see game/blocks/base.py), in the blocks' order. A full view (a dict, ready for
JSON) serves terminals, the network and anything that keeps it. A lazy view works out each entry
on first reading: a random bot reads nothing, a greedy bot a few entries, and a view for every
decision must not cost more than the decision. Both are snapshots: a lazy view the caller still
holds when the game moves on is filled in just before, so either kind reads the same. Neither may
ever show what the blocks declare hidden from the seat (Game.hidden), or the seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MethodType


def _round(game, seat: int) -> int:
    rounds = game.edition.round.rounds
    return game.round + 1 if rounds is None else min(game.round + 1, rounds)


HEAD = {   # key -> (game, seat) -> value: the game's own entries, before the blocks'
    "edition": lambda game, seat: game.edition.id,
    "players": lambda game, seat: list(game.players),
    "seat": lambda game, seat: seat,
    "round": _round,
    "rounds": lambda game, seat: game.edition.round.rounds,
    "phase": lambda game, seat: "over" if game.over else game.phase,
}
TAIL = {   # ... and after them
    "history": lambda game, seat: [dict(r) for r in game.history],
    "sheet": lambda game, seat: game.scores.sheet(),
    "pending": lambda game, seat: [d.as_dict() for d in game.pending() if d.seat == seat],
}
GAME_KEYS = (*HEAD, *TAIL)
PUBLIC_GAME_KEYS = ("edition", "players", "round", "rounds", "phase", "history", "sheet")  # not the seat's own


def game_keys(edition, keys: tuple = GAME_KEYS) -> tuple:
    """The game's own keys of a view of this edition (of keys: GAME_KEYS, or PUBLIC_GAME_KEYS), `seat_options`
    after the phase in an edition that declares some (see view_fields)."""
    if not edition.seat_options:
        return keys
    at = keys.index("phase") + 1
    return (*keys[:at], "seat_options", *keys[at:])


def _seat_options(game, seat: int) -> dict:
    """Every seat's options, by name: public, as the table set them (the edition's default where it set none)."""
    values = game.scores.options or (None,) * len(game.players)
    return {name: dict(vars(mine)) if mine is not None else {o.key: o.default for o in game.edition.seat_options}
            for name, mine in zip(game.players, values, strict=True)}


def view_fields(game) -> dict:
    """key -> (game, seat) -> value, in the order a full view lists them: the game's own entries and each block's
    view_<key> bound to that block of this game (the same keys in every game of an edition; `seat_options` only
    in an edition that declares some). Made once a game, at its first view (Game.view)."""
    out = dict(HEAD)
    if game.edition.seat_options:
        out["seat_options"] = _seat_options
    blocks = game.blocks
    out.update((key, MethodType(function, blocks[index])) for key, index, function in game.plan.view)
    out.update(TAIL)
    return out


def full_view(game, seat: int, fields: dict) -> dict:
    """Every entry of the seat's view now (fields: view_fields(game))."""
    return {key: field(game, seat) for key, field in fields.items()}


class LazyView(Mapping):
    """A read-only view whose entries are worked out when first read (see the module docstring)."""

    __slots__ = ("_game", "_seat", "_values", "_fields", "__weakref__")

    def __init__(self, game, seat: int, fields: dict):
        """fields: view_fields(game)."""
        self._game, self._seat, self._values, self._fields = game, seat, {}, fields

    def __getitem__(self, key):
        values = self._values
        if key in values:   # (a test, not a caught KeyError: most keys a bot reads are read first here)
            return values[key]
        if self._game is None or key not in self._fields:
            raise KeyError(key)
        value = values[key] = self._fields[key](self._game, self._seat)
        return value

    def get(self, key, default=None):
        """Mapping.get, without its Python call of __getitem__ (a bot reads a few entries at every decision)."""
        values = self._values
        if key in values:
            return values[key]
        if self._game is None or key not in self._fields:
            return default
        try:
            value = values[key] = self._fields[key](self._game, self._seat)
        except KeyError:   # (as Mapping.get answers it)
            return default
        return value

    def __contains__(self, key) -> bool:
        return key in self._fields

    def __iter__(self) -> Iterator:
        self.fill()
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._fields)

    def fill(self) -> None:
        """Work out every entry now: the game is about to move on."""
        if self._game is not None:
            self._values = {key: self._values[key] if key in self._values else field(self._game, self._seat)
                            for key, field in self._fields.items()}
            self._game = None

    def __reduce__(self):             # copies and pickles are plain dicts, never the game behind
        return (dict, (dict(self.items()),))

    def __repr__(self) -> str:
        return f"LazyView({dict(self.items())!r})"
