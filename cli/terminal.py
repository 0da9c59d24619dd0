"""A human seat at the terminal: shows what the seat may see, reads a letter, re-asks on a mistake."""

from __future__ import annotations

import click


class GameAbandoned(Exception):
    """The player closed the input (end of file) or pressed Ctrl-C."""


class TerminalAgent:
    kind = "human"

    def __init__(self, edition, echo=click.echo, prompt_input=None):
        self.edition = edition
        self.echo = echo
        self.read = prompt_input or (lambda text: click.prompt(text, default="", show_default=False))

    def describe(self, letter: str) -> str:
        card = self.edition.card(letter)
        return f"{card.letter} {card.name} [{card.number}] {', '.join(card.icons)}"

    def decide(self, view: dict, decision):
        name = view["players"][view["seat"]]
        self.echo("")
        self.echo(f"== {name}, round {view['round']}: {decision.kind} ==")
        if view["throw"]:
            self.echo(f"Your Throw card (face down): {self.describe(view['throw'])}")
        for seat_view in view["table"]:
            if seat_view["face_up"]:
                self.echo(f"  {seat_view['name']}: {' '.join(seat_view['face_up'])}")
        if decision.kind == "choice":
            options = [o for o in decision.options if o is not None]
            self.echo(f"Choose {decision.category} for this round: {', '.join(options) or '(nothing allowed)'}; or 'none'")
            while True:
                answer = self._ask(f"{decision.category}")
                if answer.lower() in ("none", "-", ""):
                    return None
                matches = [o for o in options if o.lower() == answer.lower()]
                if matches:
                    return matches[0]
                self.echo(f"'{answer}' is not an option; type one of: {', '.join(options)}, or none")
        self.echo("Your hand:")
        for letter in view["hand"]:
            self.echo(f"  {self.describe(letter)}")
        while True:
            answer = self._ask("card letter").strip().upper()
            if answer in decision.options:
                return answer
            self.echo(f"'{answer}' is not in your hand; type one of: {' '.join(decision.options)}")

    def _ask(self, text: str) -> str:
        try:
            return self.read(text)
        except (EOFError, click.Abort, KeyboardInterrupt):
            raise GameAbandoned() from None
