"""Visibility (issue #30): open drafting (`pick_and_pass: {open: true}`, every hand face up for every seat
to see) and a face-up Throw (a round without the `throw` block).

The shipped house rules australia-open-hands.yaml (open hands, no Throw) and australia-face-up-throw.yaml
play them. The round below is dealt by seed 3 to two players who always take the first card of their
hand; its score is worked out by hand from the Australia rulebook.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from shipped import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.determinize import from_view
from rulesengine.bots.registry import make_bot
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "australia-open-hands.yaml"


@pytest.fixture(scope="module")
def open_hands():
    return load_edition(PATH)


def letters(cards) -> list[str]:
    return [c.letter for c in cards]


def test_every_seat_sees_every_hand_and_only_the_undealt_cards_are_hidden(open_hands):
    game = Game(open_hands, ["Ana", "Ben", "Cy"], 3)
    hands = [letters(h) for h in game.places.hands]
    assert hands == [list("GZWYBFM"), list("KJO#XND"), list("QIVAC@U")]
    for seat in game.seats:
        assert [t["hand"] for t in game.view(seat)["table"]] == hands
        hidden = game.hidden(seat)
        assert hidden.cards == [game.places.leftover] and not hidden.face_down
    game.apply(0, "G")  # Ana's pick waits, unseen, in her hand until the pass
    assert game.view(1)["table"][0] == {"name": "Ana", "face_up": [], "throw_down": False, "hand_size": 7,
                                        "hand": list("GZWYBFM")}
    game.apply(1, "K")
    game.apply(2, "Q")
    assert [t["hand"] for t in game.view(1)["table"]] == [list("IVAC@U"), list("ZWYBFM"), list("JO#XND")]
    assert [t["face_up"] for t in game.view(1)["table"]] == [["G"], ["K"], ["Q"]]


def test_a_sampled_world_holds_every_hand_as_it_is(open_hands):
    game = Game(open_hands, ["Ana", "Ben", "Cy"], 3)
    for seat, card in ((0, "G"), (1, "K"), (2, "Q")):
        game.apply(seat, card)
    for sample in range(3):
        world = from_view(open_hands, game.view(1), random.Random(sample))
        assert [letters(h) for h in world.places.hands] == [letters(h) for h in game.places.hands]
        assert [letters(d) for d in world.places.drafts] == [["G"], ["K"], ["Q"]]


@pytest.mark.parametrize("name", ["australia-open-hands", "australia-face-up-throw"])
def test_a_round_scored_by_hand(name):
    """Each takes the first card of the hand: Ana G J W # B N and the Catch M; Ben K Z O Y X F and the Catch D.
    Ana (Swimming): first card & Catch |4 - 3| = 1; Shells G + W = 6, doubled = 12; Kangaroos J, #, B: one
    pair = 3; Swimming on W, #, N = 4: 20. Ben (Bushwalking): |6 - 1| = 5; Souvenirs 5 + Leaves 1 + 1 +
    Wildflowers 2 = 9 (over 7: not doubled); no pair = 0; Bushwalking on K, O, D = 4: 18. Open hands or not,
    the same cards are taken (nobody's choice here reads the others' hands)."""
    edition = load_edition(EDITIONS / "variants" / f"{name}.yaml")
    game = Game(edition, ["Ana", "Ben"], 3)
    game.apply(0, "G")
    game.apply(1, "K")
    assert [t["face_up"] for t in game.view(1)["table"]] == [["G"], ["K"]]  # the first cards, face up at once
    while game.phase != "choice":
        for decision in game.pending():
            game.apply(decision.seat, decision.options[0])
    assert [letters(d) for d in game.places.drafts] == [list("GJW#BNM"), list("KZOYXFD")]
    game.apply(0, "Swimming", "activities")
    game.apply(1, "Bushwalking", "activities")
    rounds = [p["rounds"][0] for p in game.scores.sheet()["players"]]
    assert rounds == [{"throw_catch": 1, "collections": 12, "animals": 3, "activities": 4, "regions": 0},
                      {"throw_catch": 5, "collections": 9, "animals": 0, "activities": 4, "regions": 0}]


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games(open_hands, kind):
    game = play(Game(open_hands, ["a", "b", "c"], 4), [make_bot(kind, open_hands, s) for s in (1, 2, 3)])
    assert game.over and len(game.history) == 4
    assert all(len(cards) == 7 for entry in game.history for cards in entry["drafts"].values())


def test_boom_rules_says_the_hands_are_open():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert "Open hands: every hand is face up on the table, for every player to see, as it goes round." in text
