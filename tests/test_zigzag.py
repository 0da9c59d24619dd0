"""Directions pass by pass (issue #30): `pick_and_pass: {pass_directions: [left, right]}`, zig-zag passing.

The shipped house rule australia-zigzag.yaml passes left, right, left... on every round. The round
below is dealt by seed 3 to three players who always take the first card of their hand, and was
followed by hand pass by pass (docstrings); its score is worked out from the Australia rulebook.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from round_support import first_options, letters
from shipped import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.determinize import from_view
from rulesengine.bots.registry import make_bot
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "australia-zigzag.yaml"


@pytest.fixture(scope="module")
def zigzag():
    return load_edition(PATH)


def test_hands_go_left_then_right_and_come_back(zigzag):
    """Ana GZWYBFM, Ben KJO#XND, Cy QIVAC@U. Pass 1, left: they keep G, K, Q; Ana gets Cy's IVAC@U, Ben
    Ana's ZWYBFM, Cy Ben's JO#XND. Pass 2, right: they keep I, Z, J; Ana gets Ben's WYBFM (her own hand back,
    less G and Z), Ben Cy's O#XND, Cy Ana's VAC@U."""
    game = Game(zigzag, ["Ana", "Ben", "Cy"], 3)
    assert [letters(h) for h in game.places.hands] == ["GZWYBFM", "KJO#XND", "QIVAC@U"]
    assert game.view(0)["direction"] == 1
    first_options(game)
    assert [letters(h) for h in game.places.hands] == ["IVAC@U", "ZWYBFM", "JO#XND"]
    assert game.view(0)["direction"] == -1
    first_options(game)
    assert [letters(h) for h in game.places.hands] == ["WYBFM", "O#XND", "VAC@U"]
    assert game.view(0)["direction"] == 1


def test_a_sampled_world_knows_the_hand_that_came_back_and_the_one_passed_right(zigzag):
    """After two passes Ana holds her own hand back and knows Cy's (the one she passed right); Ben's is drawn."""
    game = Game(zigzag, ["Ana", "Ben", "Cy"], 3)
    first_options(game)
    first_options(game)
    seen = set()
    for sample in range(6):
        world = from_view(zigzag, game.view(0), random.Random(sample))
        hands = [letters(h) for h in world.places.hands]
        assert hands[0] == "WYBFM" and hands[2] == "VAC@U"
        assert not set(hands[1]) & set("GZWYBFMIVAC@UJ")  # what Ana has seen (not the Throws K and Q) is placed
        seen.add(hands[1])
    assert len(seen) > 1


def test_a_round_scored_by_hand(zigzag):
    """Followed by hand to the end: Ana keeps G I W A B @ and the Catch M (pass 6 goes right: Ben's last card),
    Ben K Z O Y X F D, Cy Q J V # C N U. Ana, choosing Indigenous Culture: Throw & Catch |4 - 3| = 1; Shells 3
    + 3, Wildflowers 2, Leaves 1 + 1 = 10 (over 7, not doubled); no pair of animals = 0; Indigenous Culture on
    A and @ = 2: 13."""
    game = Game(zigzag, ["Ana", "Ben", "Cy"], 3)
    while game.phase != "choice":
        first_options(game)
    assert [letters(d) for d in game.places.drafts] == ["GIWAB@M", "KZOYXFD", "QJV#CNU"]
    for seat in game.seats:
        game.apply(seat, "Indigenous Culture" if seat == 0 else None, "activities")
    assert game.scores.sheet()["players"][0]["rounds"][0] == {
        "throw_catch": 1, "collections": 10, "animals": 0, "activities": 2, "regions": 0}


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games(zigzag, kind):
    game = play(Game(zigzag, ["a", "b", "c", "d"], 6), [make_bot(kind, zigzag, s) for s in range(4)])
    assert game.over and len(game.history) == 4


def test_boom_rules_says_the_directions_pass_by_pass():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert "Hands are passed left, then right on the passes of every round, in turn" in text
