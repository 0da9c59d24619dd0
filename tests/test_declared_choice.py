"""A choice declared in secret inside a drafting round (issue #30): `secret_choice` before the deal.

The shipped house rule australia-declared-activity.yaml has each player declare, face down before the
deal, the activity they will score this round. The game below is dealt by seed 3 to two players who
always take the first card of their hand; the activity points are counted by hand from the cards'
icons in australia.yaml and the rulebook's table (1 card 0, 2 cards 2, 3 cards 4):
  round 1: Ana declares Swimming (W, #, N: 3 cards, 4), Ben Bushwalking (K, O, D: 3 cards, 4);
  round 2: Ana Bushwalking (U, T: 2), Ben Swimming (L, S, H: 4);
  round 3: Ana Sightseeing (F alone: 0, used up), Ben Indigenous Culture (none of X B G W Y Z K shows
           it: no choice, 0, and he may declare it again);
  round 4: Ana Indigenous Culture (@, Q: 2), Ben Sightseeing (P, I: 2).
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from handscorers import australia as hand_australia
from shipped import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.determinize import from_view
from rulesengine.bots.registry import make_bot
from rulesengine.edition.loader import check_edition
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "australia-declared-activity.yaml"
DECLARED = [("Swimming", "Bushwalking"), ("Bushwalking", "Swimming"), ("Sightseeing", "Indigenous Culture"),
            ("Indigenous Culture", "Sightseeing")]


@pytest.fixture(scope="module")
def declared():
    return load_edition(PATH)


def play_round(game, ana: str, ben: str) -> None:
    number = game.round
    game.apply(0, ana)
    game.apply(1, ben)
    while game.round == number and not game.over:
        for decision in game.pending():
            game.apply(decision.seat, decision.options[0])


def test_declared_activities_score_as_counted_by_hand(declared):
    game = Game(declared, ["Ana", "Ben"], 3)
    offered = []
    for ana, ben in DECLARED:
        offered.append([d.options for d in game.pending()])
        assert [d.kind for d in game.pending()] == ["secret", "secret"]
        play_round(game, ana, ben)
    sheet = game.scores.sheet()
    assert [[r["activities"] for r in p["rounds"]] for p in sheet["players"]] == [[4, 2, 0, 2], [4, 4, 0, 2]]
    assert [entry["choices"] for entry in game.history][2] == {"Ana": {"activities": "Sightseeing"}}
    every = ("Indigenous Culture", "Sightseeing", "Bushwalking", "Swimming")
    assert offered[0] == [every, every]
    assert offered[1] == [("Indigenous Culture", "Sightseeing", "Bushwalking"),
                          ("Indigenous Culture", "Sightseeing", "Swimming")]
    assert offered[3] == [("Indigenous Culture",), ("Indigenous Culture", "Sightseeing")]  # Ben's IC not used up
    record = game.record()
    assert {key: sheet[key] for key in ("players", "winners")} == hand_australia.score(record)


def test_a_declaration_is_hidden_until_the_round_end_choices(declared):
    game = Game(declared, ["Ana", "Ben"], 3)
    game.apply(0, "Swimming")
    assert game.view(0)["secret"] == "Swimming" and game.view(1)["secret"] is None
    assert game.view(1)["chosen"] == [0]
    hidden = game.hidden(1)
    assert [(key, mapping[key]) for mapping, key, _ in hidden.values] == [(0, "Swimming")]
    game.apply(1, "Bushwalking")
    told = [e for e in game.events_for(1) if e["type"] in ("choice", "decision") and e.get("round") == 1]
    assert told == [{"type": "decision", "round": 1, "seat": 1, "kind": "secret", "category": "activities",
                     "answer": "Bushwalking", "to": 1}]
    assert "Swimming" not in repr(game.view(1)) and "Swimming" not in repr(game.events_for(1))
    while game.round == 0:
        assert game.hidden(1).values  # the declarations, face down until the choices
        for decision in game.pending():
            game.apply(decision.seat, decision.options[0])
    assert not game.hidden(1).values
    choices = [(e["seat"], e["option"]) for e in game.events_for(1) if e["type"] == "choice"]
    assert choices == [(0, "Swimming"), (1, "Bushwalking")]


def test_a_sampled_world_draws_the_other_declarations(declared):
    game = Game(declared, ["Ana", "Ben", "Cy"], 3)
    game.apply(0, "Swimming")
    game.apply(1, "Swimming")
    game.apply(2, "Swimming")
    view = game.view(1)
    drawn = {from_view(declared, view, random.Random(seed)).places.secrets[0] for seed in range(40)}
    assert drawn == {"Indigenous Culture", "Sightseeing", "Bushwalking", "Swimming"}
    assert {from_view(declared, view, random.Random(seed)).places.secrets[1] for seed in range(10)} == {"Swimming"}


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games(declared, kind):
    game = play(Game(declared, ["a", "b", "c"], 2), [make_bot(kind, declared, s) for s in range(3)])
    assert game.over and len(game.history) == 4
    for name in game.players:
        chosen = [entry["choices"].get(name, {}).get("activities") for entry in game.history]
        assert len(set(chosen) - {None}) == len([c for c in chosen if c is not None])  # each once a game


def test_boom_rules_tells_the_declaration():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert ("1. Secret choice (activities): every player declares face down the Activities they will score this "
            "round: one of Indigenous Culture, Sightseeing, Bushwalking, Swimming they may still choose.") in text
    assert "The Activities declared in secret are turned up then and told with them." in text


@pytest.mark.parametrize("flow, message", [
    ("[secret_choice: {key: activities, from: activity}, deal: , throw: , pick_and_pass: , catch: ]",
     "'secret_choice' needs a 'choices' after it"),
    ("[deal: , throw: , pick_and_pass: , catch: , choices: , secret_choice: {key: activities, from: activity}]",
     "'choices' cannot come before 'secret_choice'"),
    ("[secret_choice: {key: sites, from: activity}, deal: , throw: , pick_and_pass: , catch: , choices: ]",
     "no round-end choice 'sites' for this secret choice to declare"),
    ("[secret_choice: {key: activities, from: animal}, deal: , throw: , pick_and_pass: , catch: , choices: ]",
     "category 'activities' chooses from 'activity', not 'animal'"),
])
def test_an_order_that_cannot_be_played_is_one_located_error(tmp_path, flow, message):
    path = tmp_path / "declared.yaml"
    path.write_text(f"extends: {PATH}\nid: x\nflow:\n  round: {flow}\n")
    errors = [d for d in check_edition(path)[1] if d.severity == "error"]
    assert [d.message for d in errors] == [message]
    assert errors[0].span.line == 4


def test_the_bots_value_a_hand_for_the_declared_activity_only(declared):
    """Ana declared Swimming: to the greedy and search bots her three Bushwalking cards (K, O, D) are worth 4
    less than undeclared (the activity points of 3 cards), her three Swimming cards (W, #, N) the same;
    Ben's declaration is hidden from her, so his hands are valued with every activity open."""
    from rulesengine.bots.evaluate import seat_value, standing_from_view

    game = Game(declared, ["Ana", "Ben"], 3)
    game.apply(0, "Swimming")
    game.apply(1, "Bushwalking")
    view = game.view(0)
    mine, open_ = standing_from_view(declared, view), standing_from_view(declared, {**view, "secret": None})
    assert mine.seats[0].choosable == {"activities": ("Swimming",)}
    assert mine.seats[1].choosable == open_.seats[1].choosable == {"activities": (
        "Indigenous Culture", "Sightseeing", "Bushwalking", "Swimming")}
    bush, swim = ([declared.card(x) for x in letters] for letters in (["K", "O", "D"], ["W", "#", "N"]))
    assert seat_value(open_, 0, bush, ()) - seat_value(mine, 0, bush, ()) == 4
    assert seat_value(open_, 0, swim, ()) == seat_value(mine, 0, swim, ())
