"""A table's per-move clock: how long each seat may take over the question it is asked, and what happens then.

The host sets it when opening the table: seconds for a live game, hours for a slow one (`move`), and what
happens when a seat's time runs out (`on_time`): the table's bot makes that move (and goes on playing the seat
while its player is away), or the seat forfeits (a bot plays it to the end, its player may only look on, and
the final message names it). A seat's clock starts when it is asked a new question (a decision id it was not
asked before) and stops when it has nothing to answer. Deadlines are times of the wall clock, kept in the
store with the seats who forfeited, so a server started again goes on with them; one that passed while the
server was down, or is nearer than a short grace, is moved to that grace after the restart (the players must
find the table again before they can answer).
A table with a clock waits for a player who left (no away timeout): the clock alone hands the seat to a bot.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

ON_TIME = ("bot", "forfeit")
MOVE_MIN, MOVE_MAX = 5, 7 * 24 * 3600  # seconds a move: five seconds to a week
GRACE = 60.0  # seconds a seat whose deadline passed while the server was down gets after the restart (at most)


@dataclass
class Clock:
    move: float  # seconds each seat has for each question
    on_time: str  # "bot" or "forfeit" (ON_TIME)
    due: dict[int, tuple[tuple[str, ...], float]] = field(default_factory=dict)  # seat: (question's ids, deadline)
    forfeited: set[int] = field(default_factory=set)
    ran_out: set[int] = field(default_factory=set)  # seats whose question a bot answers now (on_time "bot")

    def settings(self) -> dict:
        """What the lobby, `hosted` and every state say of it."""
        return {"move": self.move, "on_time": self.on_time}

    def to_text(self) -> str:
        due = {str(seat): [list(ids), at] for seat, (ids, at) in sorted(self.due.items())}
        return json.dumps(self.settings() | {"due": due, "forfeited": sorted(self.forfeited)}, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> Clock:
        data = json.loads(text)
        due = {int(seat): (tuple(ids), float(at)) for seat, (ids, at) in data.get("due", {}).items()}
        return cls(float(data["move"]), data["on_time"], due, set(data.get("forfeited", ())))

    def restarted(self, now: float) -> None:
        """After a restart: a deadline nearer than a short grace from now (or passed while the server was down)
        moves to it."""
        grace = min(GRACE, self.move)
        self.due = {seat: (ids, max(at, now + grace)) for seat, (ids, at) in self.due.items()}

    def ask(self, questions: dict[int, tuple[str, ...]], now: float) -> bool:
        """The ids each clocked seat is asked now: a new question starts its clock, none stops it; True if the
        deadlines changed (to be written)."""
        due = {}
        for seat, ids in questions.items():
            if not ids:
                continue
            known = self.due.get(seat)
            due[seat] = known if known is not None and known[0] == ids else (ids, now + self.move)
        self.ran_out = {seat for seat in self.ran_out if seat in due and due[seat] == self.due.get(seat)}
        changed = due != self.due
        self.due = due
        return changed

    def late(self, now: float) -> list[int]:
        """The seats whose time for their question ran out."""
        return sorted(seat for seat, (_, at) in self.due.items() if now >= at and seat not in self.ran_out)

    def left(self, seat: int, now: float) -> float | None:
        """Seconds this seat has left for its question, or None when it is asked nothing."""
        known = self.due.get(seat)
        return None if known is None else max(0.0, round(known[1] - now, 1))


def describe(settings: dict) -> str:
    """A clock's settings in words, as the terminal says them: '30 s a move; then a bot plays it'."""
    then = "a bot plays it" if settings["on_time"] == "bot" else "the seat forfeits"
    return f"{span(settings['move'])} a move; then {then}"


def span(seconds: float) -> str:
    """Seconds as a person says them: 45 s, 2 min, 24 h, 2 d 3 h."""
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    if seconds < 2 * 86400:
        return f"{seconds // 3600} h" + (f" {seconds % 3600 // 60} min" if seconds % 3600 else "")
    return f"{seconds // 86400} d" + (f" {seconds % 86400 // 3600} h" if seconds % 86400 >= 3600 else "")


def parse_span(text: str) -> int:
    """'30s', '90', '5m', '24h', '2d' as seconds; ValueError saying what is expected."""
    text = text.strip().lower()
    units = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}
    for unit in sorted(units, key=len, reverse=True):
        if text.endswith(unit):
            number, scale = text[: -len(unit)].strip(), units[unit]
            break
    else:
        number, scale = text, 1
    if not number.isdigit():
        raise ValueError(f"'{text}' is not a time: a whole number with s, m, h or d (30s, 5m, 24h, 2d)")
    seconds = int(number) * scale
    if not MOVE_MIN <= seconds <= MOVE_MAX:
        raise ValueError(f"a move's clock is {MOVE_MIN} s to {MOVE_MAX // 86400} days, not {span(seconds)}")
    return seconds
