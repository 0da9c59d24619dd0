"""What one seat may see of a game, as a plain dict or as a lazy mapping for bots that read little.

A full view (a dict, ready for JSON) serves terminals, the network and anything that keeps it.
A lazy view works out each entry on first reading: a random bot reads nothing, a greedy bot a
few entries, and a view for every decision must not cost more than the decision. Both are
snapshots: a lazy view the caller still holds when the game moves on is filled in just before,
so either kind reads the same. Neither may ever show another seat's hand, a face-down Throw
while it is face down, or the seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping


def _table(game, seat: int) -> list:
    table = []
    revealed = game.phase == "choice"
    for other in range(len(game.players)):
        cards = game.drafts[other] if not game.over else []
        face_up = [c.letter for c in (cards if revealed else cards[1:])]
        table.append({"name": game.players[other], "face_up": face_up, "throw_down": bool(cards) and not revealed,
                      "hand_size": len(game.hands[other])})
    return table


def _hand(game, seat: int) -> list:
    """The seat's hand, less the cards it has already chosen on a pass of several (view["picked"])."""
    chosen = game.partial.get(seat) if game.partial else None
    if not chosen:
        return [c.letter for c in game.hands[seat]]
    return [c.letter for c in game.hands[seat] if c not in chosen]


def _throw(game, seat: int):
    mine = game.drafts[seat]
    return mine[0].letter if mine else None


FIELDS = {   # key -> (game, seat) -> value, in the order a full view lists them
    "edition": lambda game, seat: game.edition.id,
    "players": lambda game, seat: list(game.players),
    "seat": lambda game, seat: seat,
    "round": lambda game, seat: min(game.round + 1, game.edition.rounds),
    "rounds": lambda game, seat: game.edition.rounds,
    "phase": lambda game, seat: "over" if game.over else game.phase,
    "hand": lambda game, seat: _hand(game, seat),
    "throw": _throw,
    "seen_hands": lambda game, seat: [[c.letter for c in hand] for hand in game.seen_hands[seat]],
    "picked": lambda game, seat: [c.letter for c in game.partial.get(seat, ())],  # own, on a pass of several
    "direction": lambda game, seat: game.edition.passing.direction(min(game.round, game.edition.rounds - 1)),
    "table": _table,
    "history": lambda game, seat: [dict(r) for r in game.history],
    "used_choices": lambda game, seat: {k: sorted(v) for k, v in game.scores.used_choices[seat].items()},
    "sheet": lambda game, seat: game.scores.sheet(),
    "pending": lambda game, seat: [d.as_dict() for d in game.pending() if d.seat == seat],
}


def full_view(game, seat: int) -> dict:
    return {key: field(game, seat) for key, field in FIELDS.items()}


class LazyView(Mapping):
    """A read-only view whose entries are worked out when first read (see the module docstring)."""

    __slots__ = ("_game", "_seat", "_values", "__weakref__")

    def __init__(self, game, seat: int):
        self._game, self._seat, self._values = game, seat, {}

    def __getitem__(self, key):
        try:
            return self._values[key]
        except KeyError:
            if self._game is None or key not in FIELDS:
                raise
        value = self._values[key] = FIELDS[key](self._game, self._seat)
        return value

    def __contains__(self, key) -> bool:
        return key in FIELDS

    def __iter__(self) -> Iterator:
        self.fill()
        return iter(self._values)

    def __len__(self) -> int:
        return len(FIELDS)

    def fill(self) -> None:
        """Work out every entry now: the game is about to move on."""
        if self._game is not None:
            self._values = {key: self._values[key] if key in self._values else field(self._game, self._seat)
                            for key, field in FIELDS.items()}
            self._game = None

    def __reduce__(self):             # copies and pickles are plain dicts, never the game behind
        return (dict, (dict(self.items()),))

    def __repr__(self) -> str:
        return f"LazyView({dict(self.items())!r})"
