"""The small frictions of issue 33, each shown: a unique prefix at a choice, a blank line at a card prompt
asked again quietly, `table` at a card prompt, "after 1 decision", the once-a-game rule said once,
"reconstructed (N facts)" explained, and long notes wrapped at words."""

from __future__ import annotations

import io

from click.testing import CliRunner
from conftest import EDITIONS
from rich.console import Console

from cli.main import main
from cli.terminal import TerminalAgent
from rulesengine import Game
from rulesengine.game.saves import Session


def invoke(*args, **kwargs):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, **kwargs)
    assert "Traceback" not in result.output
    return result


def agent(edition, answers, width=80):
    out = io.StringIO()
    return TerminalAgent(edition, Console(file=out, width=width, color_system=None), read=lambda _: next(answers)), out


def first_choice(game, options: int):
    """Play the first options until seat 0 faces a round-end choice with at least that many icons."""
    while True:
        for decision in game.pending():
            icons = [o for o in decision.options if o is not None]
            if decision.seat == 0 and decision.kind == "choice" and len(icons) >= options:
                return decision
            game.apply(decision.seat, decision.options[0], decision.category)


def test_a_unique_prefix_names_the_icon_at_a_choice_and_an_ambiguous_one_asks_for_more(australia):
    game = Game(australia, ["Ana", "Ben"], 1)
    decision = first_choice(game, 2)
    icons = [o for o in decision.options if o is not None]
    shared = next((a[:1] for a in icons for b in icons if a != b and a[:1] == b[:1]), None)
    answers = ([shared] if shared else []) + [icons[1][:4].lower()]
    terminal, out = agent(australia, iter(answers))
    assert terminal.decide(game.view(0), decision) == icons[1]
    if shared:
        matching = [icon for icon in icons if icon.startswith(shared)]
        assert f"'{shared}' could be {' or '.join(matching)}; type more of the name" in out.getvalue()


def test_a_blank_line_at_a_card_prompt_asks_again_quietly(australia):
    game = Game(australia, ["Ana", "Ben"], 3)
    decision = game.pending()[0]
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return ["", "  ", decision.options[1]][len(prompts) - 1]

    out = io.StringIO()
    terminal = TerminalAgent(australia, Console(file=out, width=80, color_system=None), read=read)
    assert terminal.decide(game.view(0), decision) == decision.options[1]
    assert prompts == ["Throw card"] * 3
    assert "is not in your hand" not in out.getvalue()


def test_table_at_a_card_prompt_shows_the_other_seats_cards_a_card_a_line(australia):
    game = Game(australia, ["Ana", "Ben", "Cy"], 3)
    for _ in range(2):      # the Throws, then one draft each
        for decision in game.pending():
            game.apply(decision.seat, decision.options[0], decision.category)
    decision = next(d for d in game.pending() if d.seat == 0)
    terminal, out = agent(australia, iter(["TABLE", decision.options[0]]))
    terminal.decide(game.view(0), decision)
    shown = out.getvalue().split("table: the others' cards.\n", 1)[1]
    for seat, name in ((1, "Ben"), (2, "Cy")):
        letter = game.view(seat)["table"][seat]["face_up"][0]
        card = australia.card(letter)
        assert f"{name}: 1 face up, its Throw face down\n" in shown
        assert f" [{letter}] {card.number} {card.name}" in shown


def test_resume_counts_one_decision_in_the_singular(tmp_path):
    save = tmp_path / "g.json"
    session = Session.start(str(EDITIONS / "australia.yaml"), ["Ana", "Ben"], ["human", "random"], 3,
                            save_path=str(save))
    ben = next(d for d in session.game.pending() if d.seat == 1)
    session.game.apply(1, ben.options[0], None)
    session.checkpoint()
    session.unlock()
    resumed = invoke("resume", save, "-q", input="")
    assert resumed.exit_code == 130
    assert resumed.output.startswith("Boomerang: Australia: resumed in round 1 after 1 decision\n")


def test_the_once_a_game_rule_of_activities_is_said_once():
    text = " ".join(invoke("rules", "australia").output.split())
    assert text.count("once per game") == 1
    assert ("At the end of the round you may choose one Activities icon (Indigenous Culture, Sightseeing, "
            "Bushwalking, Swimming); without a choice the category scores 0. You may choose only an activity "
            "shown on at least one of your cards this round, and each activity once per game") in text


def test_reconstructed_facts_are_explained_where_they_are_counted():
    listed = invoke("editions").output
    assert "reconstructed (144 facts)" in listed
    assert ("reconstructed (N facts): N fields of the deck (a card's name, number, region or icons...) filled in "
            "by a stated rule, not read from a printed card; docs/sources.md says how, and `boom validate --verbose "
            "NAME` lists them") in " ".join(listed.split())


def test_a_long_note_wraps_at_words(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    lines = invoke("rules", "usa").output.split("\n")
    note = lines[:lines.index(next(line for line in lines if line.endswith("them)."))) + 1]
    assert len(note) == 3 and all(len(line) <= 59 for line in note)
    assert " ".join(note) == ("Note: 159 facts of Boomerang: USA are reconstructed, not printed cards; if your "
                              "cards differ, correct them in the YAML (boom validate --verbose usa lists them).")
