"""Ghost hands (editions/variants/australia-ghost-third.yaml): a third hand that passes with the two
players' and takes a random card every pass, never scored, ranked, shown or asked anything."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import EDITIONS, letters

from cli.main import main
from rulesengine import load_edition, new_game
from rulesengine.edition.loader import check_edition
from rulesengine.errors import GameRuleError

PATH = EDITIONS / "variants" / "australia-ghost-third.yaml"


@pytest.fixture(scope="module")
def ghost():
    return load_edition(PATH)


def test_the_ghost_hand_is_dealt_and_passes_to_the_first_player(ghost):
    game = new_game(ghost, ["Ann", "Bob"], 7)
    assert len(game.places.hands) == 3 and all(len(h) == 7 for h in game.places.hands)
    assert sorted(d.seat for d in game.pending()) == [0, 1]  # the ghost is asked nothing
    ghost_hand = letters(game.places.hands[2])
    game.apply(0, game.places.hands[0][0].letter)
    game.apply(1, game.places.hands[1][0].letter)
    # hands go left: Ann now holds what the ghost held, less the card it took at random
    [taken] = game.places.drafts[2]
    assert taken.letter in ghost_hand and letters(game.places.hands[0]) == ghost_hand - {taken.letter}
    assert len(game.places.hands[0]) == len(game.places.hands[1]) == len(game.places.hands[2]) == 6


def test_nothing_of_the_ghost_is_shown_and_it_cannot_be_played(ghost):
    game = new_game(ghost, ["Ann", "Bob"], 7)
    with pytest.raises(GameRuleError, match="seat 2 has no decision"):
        game.apply(2, game.places.hands[2][0].letter)
    taken_by_ghost = set()
    while game.round == 0:
        for decision in game.pending():
            game.apply(decision.seat, decision.options[0], decision.category)
        if game.round == 0:
            taken_by_ghost |= letters(game.places.drafts[2])
    assert len(taken_by_ghost) == 7  # all its hand: its Throw, 5 cards and its Catch
    assert all(event.get("seat") in (None, 0, 1) for event in game.events)
    told = {event.get("card") for event in game.events if event["to"] is None}
    assert not told & taken_by_ghost  # no public event names a card the ghost took
    assert [entry["name"] for entry in game.view(0)["table"]] == ["Ann", "Bob"]
    assert list(game.history[0]["drafts"]) == ["Ann", "Bob"]
    assert [p["name"] for p in game.scores.sheet()["players"]] == ["Ann", "Bob"]


def test_a_ghost_hand_needs_its_cards_in_the_deck(tmp_path):
    four = tmp_path / "four.yaml"
    four.write_text(f"extends: {PATH}\nid: four\nname: Four\nplayers: {{min: 2, max: 4}}\n")
    _, diagnostics = check_edition(four)
    [error] = [d for d in diagnostics if d.severity == "error"]
    assert error.code == "M308"
    assert error.message == "4 players and 1 ghost hand need 35 cards (7 each) but the deck has 28"
    assert error.hint == "the largest hand for 4 players and 1 ghost hand is 5"


@pytest.mark.parametrize("kinds", [("greedy", "random"), ("search", "greedy")])
def test_bots_play_it_and_the_log_replays(tmp_path, kinds):
    log = tmp_path / "g.jsonl"
    arguments = ["run", str(PATH), "-p", "2", "--seed", "5", "-q", "--log", str(log), "--search-rollouts", "8"]
    for kind in kinds:
        arguments += ["--seat", kind]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    assert "Ghost" not in result.output and "P3" not in result.output
    replayed = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert replayed.exit_code == 0 and "replay identically" in replayed.output, replayed.output
