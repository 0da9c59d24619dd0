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
from rich.text import Text

from rulesengine.bots.advice import card_advice, catch_keys, choice_advice
from rulesengine.edition.steps import CARD, Throw
from rulesengine.game.blocks import round_plan

from . import rounds
from .cards import advice_table, card_box, card_lines, chip, chip_line, choice_table, table_view
from .common import text_console

NONE_WORDS = ("none", "-", "no", "0")
SCROLLBACK_CLEAR = "\x1b[3J"


def phase_prompt(edition, view: dict, decision) -> str:
    """The prompt at a card decision, naming the phase: `Throw card`, `draft 3 of 5` (the drafts of
    this round: the cards this seat keeps face up, less the Catch, the last card, handed to it; the
    cards discarded are not kept)."""
    if decision.kind == "throw":
        return "Throw card"
    if decision.kind == "discard":
        return "discard a card (out of the round)"
    throws = edition.round.step(Throw) is not None
    picked = view.get("picked") or []   # chosen on this pass of several: the Throw first, before the seat has one
    drafted = len(view["table"][view["seat"]]["face_up"]) + len(picked) - (throws and bool(picked) and not
                                                                            view.get("throw"))
    kept = edition.round.kept(view["round"] - 1)   # the Throw and the Catch among them
    return f"draft {drafted + 1} of {kept - 1 - throws}"


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
        self._memory: dict = {}                 # what the block panels showed at this seat's last decision

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
        asked = round_plan(self.edition).asks[decision.kind]  # the decision in its block's words
        if asked.answer != CARD and not asked.points:  # a word or an icon: each block's panel, then the question
            of = f" of {view['rounds']}" if view["rounds"] else ""
            out.rule(f"{name} · round {view['round']}{of} · {asked.title}", characters="─")
            rounds.show(out, self.edition, view, self._memory)
            return self._word(decision, asked)
        passing = "left" if view["direction"] > 0 else "right"
        out.rule(f"{name} · round {view['round']} of {view['rounds']} · {self._what(view, decision, asked)} · "
                 f"passing {passing}", characters="─")
        own = ([view.get("throw")] if view.get("throw") else []) + list(view["table"][view["seat"]]["face_up"])
        if decision.kind == "choice":   # the rule, the seat's cards, the options with a header, the prompt
            family = next(c for c in self.edition.choice_categories if c.key == decision.category).choice.family
            needed = 1 + len(own) + 1 + len(family.icons) + 1 + 2 + 1
        else:   # the rule, the table (a header, a seat a line), the cards, the hand, the help, the prompt
            needed = 1 + 1 + len(view["table"]) + (len(own) + 1 if own else 0) + len(view["hand"]) + 1 + 2
            needed += len(rounds.reminded(self.edition, view))
        self._show_news(view, room=max(self.console.height - needed, 2))
        if decision.kind == "choice":      # the round is over: the cards and the choice, not the table
            return self._choose(view, decision)
        out.print(table_view(self.edition, view))
        rounds.remind(out, self.edition, view)
        self._show_own(view)
        out.print("Your hand:")
        out.print(card_lines(self.edition, view["hand"], out.width))
        return self._pick(view, decision)

    def _show_own(self, view: dict) -> None:
        """This seat's cards of the round, one a line with their icons and values: the Throw first."""
        own = ([view.get("throw")] if view.get("throw") else []) + list(view["table"][view["seat"]]["face_up"])
        if own:
            first = " (the first, your Throw, is face down)" if view.get("throw") else ""
            self.console.print(f"Your cards this round{first}:")
            self.console.print(card_lines(self.edition, own, self.console.width))

    def _what(self, view: dict, decision, asked) -> str:
        """The decision in a few words: its block's title; a draft names its phase, as the prompt does."""
        return phase_prompt(self.edition, view, decision) if decision.kind == "draft" else asked.title

    def _show_news(self, view: dict, room: int) -> None:
        """What the other seats took face up since this seat last decided, a card a line with its icons
        when room lines hold them, else as short chips (at the round's end, in one line a seat: the last
        cards, the Catch and the Throw revealed)."""
        now = (view["round"], tuple(tuple(t["face_up"]) for t in view["table"]))
        before, self._seen = self._seen, now
        if before is None or before[0] != now[0]:
            return
        news, taken = [], []
        for seat, (old, new) in enumerate(zip(before[1], now[1], strict=True)):
            if seat == view["seat"] or new == old:
                continue
            who = view["players"][seat]
            if view["phase"] == "choice":
                took = chip_line(self.edition, new[len(old) + 1:-1])
                line = Text(f"{who} took ") + (took if took.plain else Text("nothing more"))
                news.append(line + Text(", caught ") + chip(self.edition, new[-1]) + Text(", Throw ")
                            + chip(self.edition, new[0]))
            else:
                taken += [(who, letter) for letter in new[len(old):]]
        if taken and len(taken) + 1 > room:      # a big table: the picks in a paragraph of chips
            chips = Text("; ").join(Text(f"{who} took ") + chip(self.edition, letter) for who, letter in taken)
            news.append(chips)
        elif taken:             # one card a line, aligned as the seat's own cards are
            width = max(len(who) for who, _ in taken)
            cards = card_lines(self.edition, [letter for _, letter in taken], self.console.width - width - 5)
            news += [Text(f"{who:<{width}} took") + line for (who, _), line in zip(taken, cards.split("\n"),
                                                                                   strict=True)]
        if len(news) + 1 > room:    # a big table at the round's end: the seats in one paragraph
            news = [Text("; ").join(news)]
        if news:
            self.console.print("Since your last turn:")
            for line in news:
                self.console.print(line)

    def _named(self, letter: str) -> str:
        return f"{letter} {self.edition.card(letter).name}"

    # -- reading answers -------------------------------------------------------------------
    def _word(self, decision, asked):
        """One of a few options, by its number, its name, or (when no two options share it) its first letter;
        each option in its block's words."""
        options = list(decision.options)
        letters = [str(o)[:1].lower() for o in options]
        short = len(set(letters)) == len(letters)
        said = [asked.options.get(o, str(o)) for o in options]
        if short and asked.options:
            self.console.print("; ".join(f"{letter}: {words}" for letter, words in zip(letters, said, strict=True)))
            shown = " or ".join(map(str, options))
        else:
            shown = ", ".join(f"{i}. {words}" for i, words in enumerate(said, 1))
        self.console.print("? explains this decision.")
        while True:
            answer = self._ask(shown).strip()
            lowered = answer.lower()
            if answer.startswith("?"):
                self._explain_word(decision)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            matches = [o for o in options if str(o).lower() == lowered]
            if not matches and short and lowered:
                matches = [o for o, letter in zip(options, letters, strict=True) if letter == lowered]
            if matches:
                return matches[0]
            if short:
                hint = ", ".join(f"{letter} ({o})" for letter, o in zip(letters, options, strict=True))
            else:
                hint = ", ".join(map(str, options))
            self.console.print(f"'{answer}' is not an option; type one of: {hint} (or its number)")

    def _explain_word(self, decision) -> None:
        """`?` at a word or icon: the rule of the block that asks, as `boom rules` words it."""
        for step in self.edition.round.steps:
            if any(asked.kind == decision.kind for asked in step.asks()):
                self.console.print(step.rules(self.edition))

    def _pick(self, view: dict, decision):
        options = decision.options
        self.console.print("Type a letter; ? explains every card, ?X card X; table: the others' cards.")
        while True:
            answer = self._ask(phase_prompt(self.edition, view, decision)).strip()
            if not answer:          # a blank line (Enter pressed twice): ask again, quietly
                continue
            if answer.lower() == "table":
                self._show_table(view)
                continue
            if answer.startswith("?"):
                self._explain(view, decision, _letter(answer[1:].strip(), options))
                continue
            letter = _letter(answer, options)
            if letter in options:
                return letter
            self.console.print(f"'{answer}' is not in your hand; type one of: {' '.join(options)} (or ? for help)")

    def _show_table(self, view: dict) -> None:
        """Every other seat's face-up cards of this round, one a line with their icons and values."""
        for seat, seat_view in enumerate(view["table"]):
            if seat == view["seat"]:
                continue
            down = ", its Throw face down" if seat_view["throw_down"] else ""
            self.console.print(f"{seat_view['name']}: {len(seat_view['face_up'])} face up{down}")
            if seat_view["face_up"]:
                self.console.print(card_lines(self.edition, seat_view["face_up"], self.console.width))

    def _explain(self, view: dict, decision, letter: str) -> None:
        advice = card_advice(self.edition, view, decision)
        if letter and letter not in decision.options:
            self.console.print(f"'{letter}' is not in your hand; ask ? alone, or ?X for a card X of your hand")
            return
        if letter:
            advice = [a for a in advice if a.letter == letter]
            self.console.print(card_box(self.edition, letter))
        throw = decision.kind == "throw"
        self.console.print(advice_table(self.edition, advice, decision.kind))
        if throw and not letter:
            titles = ", ".join(c.title for c in self.edition.categories if c.key in catch_keys(self.edition))
            self.console.print("Your Throw is the first card you keep; it stays face down until the round ends. "
                               f"{titles or 'Nothing'} also needs your Catch, the last card of the round, which nobody "
                               "knows yet: that line is not shown.")
        if not letter:
            taking = ("if you took the card instead of discarding it" if decision.kind == "discard"
                      else "if you take the card now")
            self.console.print("Expected round score: the greedy bot's estimate of everything this round adds to "
                               f"your total (not only this card's share) {taking} and the rest at random from the "
                               "cards still in play.")

    def _choose(self, view: dict, decision):
        category = next(c for c in self.edition.choice_categories if c.key == decision.category)
        cards = view["table"][view["seat"]]["face_up"]
        self.console.print("Your cards this round (the first your Throw, the last your Catch):")
        self.console.print(card_lines(self.edition, cards, self.console.width))
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
            if not matches:         # a unique prefix is enough: `bush` for Bushwalking
                matches = [icon for icon in allowed if icon is not None and icon.lower().startswith(answer.lower())]
            if len(matches) == 1:
                return matches[0]
            if matches:
                self.console.print(f"'{answer}' could be {' or '.join(matches)}; type more of the name")
                continue
            shown = ", ".join(icon for icon in allowed if icon is not None)
            self.console.print(f"'{answer}' is not an option; type one of: {shown or '(none allowed)'}, or none")

    def _ask(self, text: str) -> str:
        try:
            return self.read(text)
        except (EOFError, click.Abort, KeyboardInterrupt):
            raise GameAbandoned() from None


def _letter(answer: str, options) -> str:
    """The card a typed answer names: its letter as typed, else the one letter of the hand it is in
    another case ('b' for B; a mixed deck has both A and a, each typed as it is)."""
    if answer in options:
        return answer
    matches = [option for option in options if option.lower() == answer.lower()]
    return matches[0] if len(matches) == 1 else answer.upper()
