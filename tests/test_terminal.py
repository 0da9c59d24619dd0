"""The terminal game driven end to end by piped input: help, mistakes, choices, hot seat, bots' picks."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.main import main
from cli.terminal import GameAbandoned, TerminalAgent
from rulesengine import Game
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.loop import play

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
NAMES = ["Ana", "Ben", "Cy", "Dee"]


class Scripted:
    """A human who takes the first option (and the first icon of a choice, if any)."""

    def __init__(self, log, seat):
        self.log, self.seat = log, seat

    def decide(self, view, decision):
        icons = [o for o in decision.options if o is not None]
        answer = icons[0] if decision.kind == "choice" and icons else decision.options[0]
        self.log.append((self.seat, decision, answer))
        return answer


def replay(edition, seats, seed):
    """The same seeded game played here: the humans' decisions in the order the terminal asks them."""
    log = []
    agents = [
        Scripted(log, s) if kind == "human" else make_bot(kind, edition, agent_seed(seed, s))
        for s, kind in enumerate(seats)
    ]
    game = play(Game(edition, NAMES[: len(seats)], seed), agents)
    return log, game


def run(args, lines):
    result = CliRunner().invoke(
        main, ["run", str(AUSTRALIA), *map(str, args)], input="\n".join(lines) + "\n", catch_exceptions=False
    )
    assert "Traceback" not in result.output
    return result


def answer_text(decision, answer, number=False):
    if answer is None:
        return "none"
    if decision.kind == "choice" and number:
        return "1"
    return answer


def test_a_whole_game_with_help_mistakes_and_choices(australia, tmp_path):
    log, game = replay(australia, ["human", "random"], 1)
    lines, numbered = [], False
    for index, (_, decision, answer) in enumerate(log):
        if index == 0:
            lines += ["zz", "?", f"?{decision.options[1]}", "?@@"]
        if index == 1:
            lines.append(answer.lower())  # letters are not case-sensitive
            continue
        use_number = decision.kind == "choice" and answer is not None and not numbered
        if decision.kind == "choice" and not numbered:
            lines.append("Nowhere")  # not an option: asked again
        numbered = numbered or use_number
        lines.append(answer_text(decision, answer, use_number))
    record = tmp_path / "game.json"
    result = run(["--players", 2, "--seed", 1, "--seat", "human", "--save-record", record], lines)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "'zz' is not in your hand" in out
    assert "expected round score" in out
    assert "'@@' is not in your hand" in out
    assert "Activities (name or number; 0 or none to skip): " in out
    assert "'Nowhere' is not an option" in out
    assert re.search(r"player +throw +face-up cards +hand +r1 +total", out) and "Final score sheet" in out
    assert "▮ face down" in out  # the other seat's Throw is never shown before the reveal
    assert json.loads(record.read_text()) == game.record()


def test_one_human_sees_the_bots_picks_as_they_happen(australia):
    log, game = replay(australia, ["human", "greedy", "random"], 4)
    result = run(
        ["--players", 3, "--seed", 4, "--seat", "human", "--seat", "greedy", "-q"],
        [answer_text(d, a) for _, d, a in log],
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Since your last turn:" in result.output
    first_pick = game.history[0]["drafts"]["Ben"][1]
    card = australia.card(first_pick)   # a card a line, with its icons and their values
    assert re.search(rf"Ben took \[{first_pick}\] {card.number} {card.name} +{card.region.name} ", result.output)


def test_hot_seat_hides_the_screen_between_players(australia):
    log, game = replay(australia, ["human", "human"], 2)
    lines = []
    for _, decision, answer in log:
        lines += ["", answer_text(decision, answer)]  # Enter once the right player has the terminal
    result = run(["--players", 2, "--seed", 2, "--seat", "human", "--seat", "human", "-q"], lines)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Pass the terminal to Ana" in result.output and "Pass the terminal to Ben" in result.output
    assert result.output.count("Pass the terminal to") == len(log)


def test_the_agent_reads_and_writes_through_what_it_is_given(australia):
    game = Game(australia, ["Ana", "Ben"], 3)
    decision = game.pending()[0]
    answers = iter(["?", decision.options[2].lower()])
    out = io.StringIO()
    agent = TerminalAgent(australia, Console(file=out, width=100), read=lambda prompt: next(answers))
    assert agent.decide(game.view(0), decision) == decision.options[2]
    assert "Your hand:" in out.getvalue() and f"[{decision.options[0]}]" in out.getvalue()

    def closed(prompt):
        raise EOFError

    with pytest.raises(GameAbandoned):
        TerminalAgent(australia, Console(file=io.StringIO()), read=closed).decide(game.view(0), decision)


def _first_choice(game):
    """Play the first options until seat 0 faces a round-end choice with an icon it may pick."""
    while True:
        for decision in game.pending():
            if decision.seat == 0 and decision.kind == "choice" and any(o is not None for o in decision.options):
                return decision
            game.apply(decision.seat, decision.options[0], decision.category)


def test_a_blank_line_at_a_choice_asks_again_and_0_skips(australia):
    game = Game(australia, ["Ana", "Ben"], 1)
    decision = _first_choice(game)
    answers = iter(["", "", "0"])
    out = io.StringIO()
    agent = TerminalAgent(australia, Console(file=out, width=120), read=lambda prompt: next(answers))
    assert agent.decide(game.view(0), decision) is None
    assert out.getvalue().count("Type a name or a number to score Activities this round, or 0 / none to skip it.") == 2


def test_help_at_the_throw_shows_only_what_is_known(australia):
    game = Game(australia, ["Ana", "Ben"], 3)
    decision = game.pending()[0]
    assert decision.kind == "throw"
    answers = iter(["?", decision.options[0]])
    out = io.StringIO()
    agent = TerminalAgent(australia, Console(file=out, width=200), read=lambda prompt: next(answers))
    agent.decide(game.view(0), decision)
    text = " ".join(out.getvalue().split())
    assert "If you throw it (the lines known now, as if it were your only card" in text
    assert "as if it were your last card" not in text
    assert (
        "Throw & Catch also needs your Catch, the last card of the round, which nobody knows yet: "
        "that line is not shown."
    ) in text
    table = text.split("If you throw it", 1)[1].split("Your Throw is", 1)[0]
    assert "Throw & Catch" not in table and "expected round score" in table
