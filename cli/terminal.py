"""A human seat at the terminal: shows what the seat may see, reads a letter, explains, re-asks.

Input and output are injected (a rich Console and a read function), so a test can pipe a whole
game through it. It knows only the seat's view: the numbers of the `?` help and of the choice
prompts come from rulesengine.bots.advice. End of input or Ctrl-C raises GameAbandoned; the caller
saves the game. With several humans at one terminal (hot seat) the screen is cleared and the
next player is called before a hand is shown, and cleared again once the decision is made, the
scrollback too (ESC[3J), so nobody scrolls up to the previous player's hand and Throw.
"""

from __future__ import annotations

import click
from rich.console import Console

from rulesengine.bots.advice import card_advice, choice_advice, sheet_keys

from . import flow_terminal
from .cards import advice_table, card_box, cards_row, catch_keys, chip_line, choice_table, sheet_so_far, table_view
from .common import text_console

NONE_WORDS = ("none", "-", "no", "0")
SCROLLBACK_CLEAR = "\x1b[3J"


class GameAbandoned(Exception):
    """The player closed the input (end of file) or pressed Ctrl-C."""


def _prompt(text: str) -> str:
    return click.prompt(text, default="", show_default=False)


class TerminalAgent:
    kind = "human"

    def __init__(self, edition, console: Console | None = None, read=None, *, hot_seat: bool = False):
        self.edition = edition
        self.console = console or text_console()
        self.read = read or _prompt
        self.hot_seat = hot_seat
        self._seen: tuple | None = None         # (round, face-up cards per seat) at this seat's last decision

    # -- what the seat sees ----------------------------------------------------------------
    def decide(self, view: dict, decision):
        name = view["players"][view["seat"]]
        if self.hot_seat:
            self._clear()
            self._ask(f"Pass the terminal to {name} and press Enter when only {name} can see it")
        try:
            return self._decide(view, decision, name)
        finally:
            if self.hot_seat:
                self._clear()

    def _clear(self) -> None:
        """Clear the screen and the scrollback (ESC[3J): the next player must not scroll up to a hand."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(SCROLLBACK_CLEAR)
            self.console.file.flush()

    def _decide(self, view: dict, decision, name: str):
        out = self.console
        if view.get("flow"):
            out.print()
            flow_terminal.show(out, self.edition, view, decision)
            return flow_terminal.ask(self, view, decision)
        out.print()
        out.rule(f"{name}: round {view['round']} of {view['rounds']}, {self._what(decision)}")
        self._show_news(view)
        sheet = sheet_so_far(self.edition, view)
        if sheet is not None:
            out.print(sheet)
        out.print(table_view(self.edition, view))
        if decision.kind == "choice":
            return self._choose(view, decision)
        if decision.kind == "mulligan":
            out.print("Your hand:")
            out.print(cards_row(self.edition, view["hand"]))
            return self._mulligan()
        if view["throw"]:
            out.print(cards_row(self.edition, [view["throw"]], {view["throw"]: "your Throw (face down)"}))
        out.print("Your hand:")
        out.print(cards_row(self.edition, view["hand"]))
        return self._pick(view, decision)

    @staticmethod
    def _what(decision) -> str:
        if decision.kind == "mulligan":
            return "keep this hand, or take your mulligan"
        if decision.kind == "throw":
            return "choose your Throw card (kept face down until the round ends)"
        if decision.kind == "draft":
            return "draft a card (the rest of the hand passes on)"
        return "end of the round"

    def _show_news(self, view: dict) -> None:
        """What the other seats took face up since this seat last decided (and, at the round's end,
        the Throws revealed and the cards caught)."""
        now = (view["round"], tuple(tuple(t["face_up"]) for t in view["table"]))
        before, self._seen = self._seen, now
        if before is None or before[0] != now[0]:
            return
        lines = []
        for seat, (old, new) in enumerate(zip(before[1], now[1], strict=True)):
            if seat == view["seat"] or new == old:
                continue
            if view["phase"] == "choice":
                picks, extra = new[len(old) + 1:-1], f"; caught {self._named(new[-1])}; Throw: {self._named(new[0])}"
            else:
                picks, extra = new[len(old):], ""
            words = ", ".join(self._named(x) for x in picks)
            lines.append(f"  {view['players'][seat]} took {words or 'nothing more'}{extra}")
        if lines:
            self.console.print("Since your last turn:")
            for line in lines:
                self.console.print(line)

    def _named(self, letter: str) -> str:
        return f"{letter} {self.edition.card(letter).name}"

    # -- reading answers -------------------------------------------------------------------
    def _mulligan(self) -> str:
        self.console.print("k: keep this hand; m: take your mulligan (a new hand from the undealt cards)")
        while True:
            answer = self._ask("keep or mulligan").strip().lower()
            if answer in ("k", "keep"):
                return "keep"
            if answer in ("m", "mulligan"):
                return "mulligan"
            self.console.print(f"'{answer}' is neither; type k to keep the hand or m for a mulligan")

    def _pick(self, view: dict, decision):
        options = decision.options
        self.console.print(f"Type a letter ({' '.join(options)}); ? explains every card; ?X explains card X.")
        while True:
            answer = self._ask("card").strip()
            if answer.startswith("?"):
                self._explain(view, decision, answer[1:].strip().upper())
                continue
            letter = answer.upper()
            if letter in options:
                return letter
            self.console.print(f"'{answer}' is not in your hand; type one of: {' '.join(options)} (or ? for help)")

    def _explain(self, view: dict, decision, letter: str) -> None:
        advice = card_advice(self.edition, view, decision)
        if letter and letter not in decision.options:
            self.console.print(f"'{letter}' is not in your hand; ask ? alone, or ?X for a card X of your hand")
            return
        if letter:
            advice = [a for a in advice if a.letter == letter]
            self.console.print(card_box(self.edition, letter))
        throw = decision.kind == "throw"
        self.console.print(advice_table(self.edition, advice, sheet_keys(self.edition), throw=throw))
        if throw and not letter:
            titles = ", ".join(c.title for c in self.edition.categories if c.key in catch_keys(self.edition))
            self.console.print("Your Throw is the first card you keep; it stays face down until the round ends. "
                               f"{titles or 'Nothing'} also needs your Catch, the last card of the round, which nobody "
                               "knows yet: that line is not shown.")
        if not letter:
            self.console.print("Expected round score: the greedy bot's estimate of everything this round adds to "
                               "your total (not only this card's share) if you take the card now and the rest at "
                               "random from the cards still in play.")

    def _choose(self, view: dict, decision):
        category = next(c for c in self.edition.choice_categories if c.key == decision.category)
        cards = view["table"][view["seat"]]["face_up"]
        self.console.print("Your cards this round:", chip_line(self.edition, cards))
        options = choice_advice(self.edition, view, decision)
        self.console.print(choice_table(self.edition, category, options))
        allowed = [o.icon for o in options if not o.note or o.icon is None]
        while True:
            answer = self._ask(f"{category.title} (name or number; 0 or none to skip)").strip()
            if answer == "":
                self.console.print(f"Type a name or a number to score {category.title} this round, "
                                   "or 0 / none to skip it.")
                continue
            if answer.lower() in NONE_WORDS:
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(allowed):
                return allowed[int(answer) - 1]
            matches = [icon for icon in allowed if icon is not None and icon.lower() == answer.lower()]
            if matches:
                return matches[0]
            shown = ", ".join(icon for icon in allowed if icon is not None)
            self.console.print(f"'{answer}' is not an option; type one of: {shown or '(none allowed)'}, or none")

    def _ask(self, text: str) -> str:
        try:
            return self.read(text)
        except (EOFError, click.Abort, KeyboardInterrupt):
            raise GameAbandoned() from None
