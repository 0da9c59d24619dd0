"""The hand-written games of bench/handwritten play the engine's rules: same totals on the same drafts.

The bench compares the engine's speed against them, so they must be the same game: every record
the engine plays is scored by hand to the engine's totals, and every game played by hand is a
legal record the engine scores to the hand-written totals.
"""

from __future__ import annotations

import random
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
from handwritten.game import play as play_by_hand  # noqa: E402
from handwritten.game import record  # noqa: E402
from handwritten.game import score_record as score_by_hand

HAND = {"australia": australia.Rules, "europe": europe.Rules, "usa": usa.Rules}
NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module", params=sorted(HAND))
def edition(request):
    return request.param, load_edition(EDITIONS / f"{request.param}.yaml")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_games_score_the_same_by_hand(edition, players):
    name, loaded = edition
    for seed in range(15):
        game = play(Game(loaded, NAMES[:players], seed), [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        sheet = game.scores.sheet()
        assert score_by_hand(HAND[name], game.record()) == [p["total"] for p in sheet["players"]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_played_by_hand_are_legal_and_score_the_same_in_the_engine(edition, players):
    name, loaded = edition
    rng = random.Random(players)
    for _ in range(15):
        rules, rounds = play_by_hand(HAND[name], players, rng)
        game_record = record(HAND[name], NAMES[:players], rounds)
        sheet = score_record(loaded, game_record, SourceMap("hand", ""))
        assert [p["total"] for p in sheet["players"]] == rules.totals
        dealt = [{x for letters in r["drafts"].values() for x in letters} for r in game_record["rounds"]]
        for before, after in zip(dealt, dealt[1:], strict=False):
            assert set(HAND[name].LETTERS) - before <= after     # cards left undealt are dealt first


def test_a_hand_written_round_by_hand_computation():
    """Australia, 2 players, one round: Ana A B C D E F G (Throw A=1, Catch G=4), Ben the next seven."""
    rules = australia.Rules(2)
    number = {letter: card for card, letter in enumerate(australia.LETTERS)}
    rules.score_round([[number[x] for x in "ABCDEFG"], [number[x] for x in "HIJKLMN"]], ["Sightseeing", None])
    # Ana: |1-4| = 3; collections Leaves 1 + Wildflowers 2 + Shells 3 + Shells 3 = 9 (not doubled);
    # animals Kangaroos x2 -> 3; Sightseeing: B, F -> 2 icons -> 2; region Western Australia complete -> 3
    # Ben: |4-3| = 1; collections Wildflowers 2+2 + Souvenirs 5 = 9; animals Koalas x2 -> 7, Kangaroos x1, Emus x1;
    # no choice; Queensland (I J K L) complete -> 3
    assert rules.totals == [3 + 9 + 3 + 2 + 3, 1 + 9 + 7 + 3]
