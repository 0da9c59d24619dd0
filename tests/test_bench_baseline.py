"""The hand-written games of bench/handwritten play the engine's games: the same drafts and totals for a seed.

The bench compares the engine's speed against them, so they must be the same game: for every seed,
the hand-written game deals and decides as the engine with random seats does (the same drafts and
choices, round by round, and the same totals), and every record the engine plays is scored by hand
to the engine's totals.
"""

from __future__ import annotations

import sys

import pytest
from conftest import EDITIONS, ROOT

from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.edition.source import SourceMap
from rulesengine.game.loop import play
from rulesengine.game.records import score_record

sys.path.insert(0, str(ROOT / "bench"))

from handwritten import australia, europe, usa  # noqa: E402
from handwritten.deck import Sheet  # noqa: E402
from handwritten.game import play as play_by_hand  # noqa: E402
from handwritten.game import record  # noqa: E402
from handwritten.game import score_record as score_by_hand

HAND = {"australia": australia, "europe": europe, "usa": usa}
NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module", params=sorted(HAND))
def edition(request):
    return request.param, load_edition(EDITIONS / f"{request.param}.yaml")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seed_plays_the_engines_game_by_hand(edition, players):
    name, loaded = edition
    for seed in [*range(25), 10**9 + 7]:
        game = play(Game(loaded, NAMES[:players], seed), [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        totals, rounds = play_by_hand(HAND[name], players, seed)
        assert record(HAND[name], NAMES[:players], rounds)["rounds"] == game.record()["rounds"]
        assert totals == [p["total"] for p in game.scores.sheet()["players"]]
        assert score_by_hand(HAND[name], game.record()) == totals


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_played_by_hand_are_legal_and_score_the_same_in_the_engine(edition, players):
    name, loaded = edition
    for seed in range(100, 115):
        totals, rounds = play_by_hand(HAND[name], players, seed)
        game_record = record(HAND[name], NAMES[:players], rounds)
        sheet = score_record(loaded, game_record, SourceMap("hand", ""))
        assert [p["total"] for p in sheet["players"]] == totals
        dealt = [{x for letters in r["drafts"].values() for x in letters} for r in game_record["rounds"]]
        for before, after in zip(dealt, dealt[1:], strict=False):
            assert set(HAND[name].LETTERS) - before <= after     # cards left undealt are dealt first


def test_a_hand_written_round_by_hand_computation():
    """Australia, 2 players, one round: Ana A B C D E F G (Throw A=1, Catch G=4), Ben the next seven."""
    sheet = Sheet(2, australia.REGIONS)
    number = {letter: card for card, letter in enumerate(australia.LETTERS)}
    drafts = [[number[x] for x in "ABCDEFG"], [number[x] for x in "HIJKLMN"]]
    australia.score_round(sheet, drafts, None, 0, [australia.ACTIVITIES.index("Sightseeing"), -1])
    # Ana: |1-4| = 3; collections Leaves 1 + Wildflowers 2 + Shells 3 + Shells 3 = 9 (not doubled);
    # animals Kangaroos x2 -> 3; Sightseeing: B, F -> 2 icons -> 2; region Western Australia complete -> 3
    # Ben: |4-3| = 1; collections Wildflowers 2+2 + Souvenirs 5 = 9; animals Koalas x2 -> 7, Kangaroos x1, Emus x1;
    # no choice; Queensland (I J K L) complete -> 3
    assert sheet.totals == [3 + 9 + 3 + 2 + 3, 1 + 9 + 7 + 3]

