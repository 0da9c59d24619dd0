"""Hand sizes by round (issue #30): `deal: {cards: [5, 6, 7, 7]}`, a block parameter that varies by round.

The shipped house rule australia-growing-hands.yaml deals 5, 6, 7 and 7 cards. The round below is
dealt by seed 3 to two players who always take the first card of their hand, followed by hand; its
score is worked out from the Australia rulebook.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from round_support import first_options, letters
from shipped import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.registry import make_bot
from rulesengine.edition.loader import check_edition
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "australia-growing-hands.yaml"


@pytest.fixture(scope="module")
def growing():
    return load_edition(PATH)


def test_round_one_of_five_cards_scored_by_hand(growing):
    """Ana GZWYB, Ben FMKJO. Ana keeps G, M, W, J and the Catch B; Ben F, Z, K, Y and the Catch O. Ana (no
    activity: each of hers is on one card): |4 - 1| = 3; Shells 3 + 3 = 6, doubled = 12; Kangaroos J, B: a
    pair = 3: 18. Ben (Sightseeing, F and Z): |4 - 3| = 1; Souvenirs 5 + Leaves 1 = 6, doubled = 12; no pair:
    0; Sightseeing on 2 = 2: 15."""
    game = Game(growing, ["Ana", "Ben"], 3)
    assert [letters(h) for h in game.places.hands] == ["GZWYB", "FMKJO"] and len(game.places.leftover) == 18
    while game.phase != "choice":
        first_options(game)
    assert [letters(d) for d in game.places.drafts] == ["GMWJB", "FZKYO"]
    game.apply(0, None, "activities")
    game.apply(1, "Sightseeing", "activities")
    rounds = [p["rounds"][0] for p in game.scores.sheet()["players"]]
    assert rounds == [{"throw_catch": 3, "collections": 12, "animals": 3, "activities": 0, "regions": 0},
                      {"throw_catch": 1, "collections": 12, "animals": 0, "activities": 2, "regions": 0}]


def test_each_round_deals_its_hand_the_undealt_cards_first(growing):
    """4 players: 20 cards dealt in round 1 (8 undealt), 24 in round 2, every one of those 8 among them."""
    game = Game(growing, ["Ana", "Ben", "Cy", "Dee"], 5)
    assert [len(h) for h in game.places.hands] == [5] * 4
    undealt = set(game.places.leftover)
    assert len(undealt) == 8
    while game.round == 0:
        first_options(game)
    assert [len(h) for h in game.places.hands] == [6] * 4 and len(game.places.leftover) == 4
    assert undealt <= {c for hand in game.places.hands for c in hand}
    assert len(game.view(0)["seen_hands"][0]) == 6  # the hand as dealt, in the seat's own view


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games(growing, kind, tmp_path):
    game = play(Game(growing, ["a", "b", "c", "d"], 6), [make_bot(kind, growing, s) for s in range(4)])
    assert [len(entry["drafts"]["a"]) for entry in game.history] == [5, 6, 7, 7]
    if kind == "random":  # its record, 5, 6, 7 and 7 cards a seat, read back by `boom score`
        record = tmp_path / "game.json"
        record.write_text(json.dumps(game.record()))
        scored = CliRunner().invoke(main, ["score", str(PATH), "--record", str(record), "--format", "json"])
        assert scored.exit_code == 0, scored.output
        assert [p["total"] for p in json.loads(scored.output)["players"]] == \
            [p["total"] for p in game.scores.sheet()["players"]]


@pytest.mark.parametrize(("cards", "expected"), [
    ("[5, 6, 7]", ("M333", "the deal lists 3 hands for 4 rounds")),
    ("[5, 6, 8, 7]", ("M308", "4 players need 32 cards (8 each) but the deck has 28")),
])
def test_a_list_that_does_not_fit_is_one_error_at_the_deal(tmp_path, cards, expected):
    path = tmp_path / "wrong.yaml"
    path.write_text(f"extends: {PATH}\nid: wrong\nflow:\n  round:\n    - deal: {{cards: {cards}}}\n    - throw:\n"
                    "    - pick_and_pass:\n    - catch:\n    - choices:\n")
    _, diagnostics = check_edition(path)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert [(d.code, d.message) for d in errors] == [expected] and errors[0].span.line == 5


def test_boom_rules_says_each_rounds_hand():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert "every player is dealt a hand of 5, 6, 7 and 7 cards in rounds 1, 2, 3 and 4" in text
