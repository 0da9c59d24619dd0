"""What `boom join --watch` prints: a spectator's table at a terminal, from the frames a spectator is sent.

It reads only `watching` and `spectate` frames (the public view through the server's allow-list, live or a round
behind as the host chose), so it can show nothing a spectator is not sent: no hand, no face-down Throw, no
pending decision. tests/test_net_secrecy_differential.py prints a game's spectator frames through it twice,
with one secret decision changed, and compares the text.
"""

from __future__ import annotations

from rulesengine.net.editions import edition_from_data

from .cards import table_view
from .sheets import print_sheet, round_table

DELAYS = {"live": "live", "round": "a round behind (the table as it was when the current round began)"}


class Watcher:
    """Prints a watched table as its frames come: who has what face up at each change, each round's sheet once
    scored, the final sheet. Reconnected, it skips the events the new snapshot repeats."""

    def __init__(self, console, quiet: bool = False):
        self.console, self.quiet = console, quiet
        self.edition = None
        self.seen = 0  # public events printed so far
        self.skip = 0  # events of a new snapshot already printed before a reconnect
        self.over: dict | None = None  # the view once the game is over

    def on_message(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "watching":
            first = self.edition is None
            self.edition = self.edition or edition_from_data(message["edition"])
            self.skip, self.seen = self.seen, 0
            if first and not self.quiet:
                delay = DELAYS.get(message["delay"], message["delay"])
                self.console.print(f"watching table {message['table']} ({self.edition.name}), {delay}")
        elif kind == "spectate":
            self._spectate(message)
        elif kind == "error" and not self.quiet:
            self.console.print(f"server: {message['message']}")

    def _spectate(self, message: dict) -> None:
        view, new = message["view"], []
        for event in message["events"]:
            self.seen += 1
            if self.seen > self.skip:
                new.append(event)
        if not new and self.seen <= self.skip:
            return
        if any(event["type"] == "game_over" for event in new):
            self.over = view
        if self.quiet:
            return
        if self.over is not None:
            pass  # the last round's sheet below, then finish() prints the final one
        elif "table" not in view:  # a round with no table of picks (the 2010 hunt): its moves so far
            self.console.print(f"round {view['round']}, {view['phase']}: {len(view.get('moves', []))} moves")
        else:
            self.console.print(f"round {view['round']} of {view['rounds']}, {view['phase']}")
            self.console.print(table_view(self.edition, view | {"seat": None, "throw": None}))
        for event in new:
            if event["type"] == "round_scored" and event["round"] <= len(view.get("history", [])):
                self.console.print(round_table(self.edition, view["sheet"], event["round"] - 1))

    def finish(self) -> None:
        """The final sheet, once the game is over."""
        if self.over is not None:
            print_sheet(self.console, self.edition, self.over["sheet"], per_round=False)
