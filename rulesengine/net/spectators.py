"""What a spectator of a table is sent: the public view and the public events, live or one round behind.

A spectator holds no seat: it is sent what every seat sees of the table (face-up cards, the sizes of hands,
which seats have chosen, the bids, the finished rounds and the sheet) through an allow-list of its own, and
the events addressed to no seat. The host chooses the delay: `live`, or `round` (the table as it was when the
current round began, so that nothing a spectator tells a player is news), or `off`. It never adds a hand, a
face-down Throw, a secret choice, a pending decision or the seed: a key the engine adds to its views later is
not sent until its block declares it public (Block.public).
"""

from __future__ import annotations

from ..game.blocks import round_plan
from ..game.state import Game
from ..game.views import PUBLIC_GAME_KEYS, game_keys
from .protocol import encode
from .secrecy import seat_events, seat_view

DELAYS = ("live", "round", "off")


def public_keys(edition) -> tuple:
    """The view keys a spectator is sent: the game's public ones and those the round's blocks declare public."""
    plan = round_plan(edition)
    return (*game_keys(edition, PUBLIC_GAME_KEYS), *(key for cls, _ in plan.made for key in cls.public))
NOBODY = -1  # the seat number no event is addressed to: seat_events then gives the public ones alone


def public_view(game: Game) -> dict:
    """The table as anyone may see it (seat 0's view, through the spectators' allow-list)."""
    view = seat_view(game, 0, advice=False)
    return {key: view[key] for key in public_keys(game.edition) if key in view}


class Gallery:
    """The spectators' side of one table: the game they are shown (the live one, or one kept a round behind)
    and how many of its events they were sent."""

    def __init__(self, delay: str, edition, players, seed: int, deal: int, seat_options: dict | None = None):
        self.delay = delay
        self.cursor = 0
        self.behind = (Game(edition, players, seed, deal_version=deal, seat_options=seat_options)
                       if delay == "round" else None)
        self.behind_at = 0  # decisions the game kept behind has played
        self.last = ""  # the view last sent: a frame goes out only when what spectators see changed

    def shown(self, live: Game) -> Game:
        return self.behind if self.behind is not None else live

    def catch_up(self, live: Game, round_starts: list[int]) -> bool:
        """Move the game kept behind to the start of the live game's current round (or its end); True if moved."""
        if self.behind is None:
            return True
        target = len(live.decisions) if live.over else round_starts[-1]
        moved = False
        for seat, answer, category in live.decisions[self.behind_at : target]:
            self.behind.apply(seat, answer, category)
            moved = True
        self.behind_at = max(self.behind_at, target)
        return moved

    def snapshot(self, code: str, live: Game, round_starts: list[int]) -> dict:
        """Everything a new spectator is shown: the view and every public event so far."""
        self.catch_up(live, round_starts)
        game = self.shown(live)
        events, _ = seat_events(game, NOBODY, 0)
        self.cursor = max(self.cursor, 0)
        return {"type": "spectate", "table": code, "delay": self.delay, "view": public_view(game), "events": events}

    def news(self, code: str, live: Game, round_starts: list[int]) -> dict | None:
        """What the spectators have not been sent yet, or None when nothing they are shown changed."""
        self.catch_up(live, round_starts)
        game = self.shown(live)
        events, self.cursor = seat_events(game, NOBODY, self.cursor)
        view = public_view(game)
        seen = encode(view)
        if not events and seen == self.last:  # a face-down pick: nothing public changed, and no frame says so
            return None
        self.last = seen
        return {"type": "spectate", "table": code, "delay": self.delay, "view": view, "events": events}
