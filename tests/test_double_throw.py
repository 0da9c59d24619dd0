"""The 2010 game's bidding with a throw of 1 to N boomerangs a turn (issue #30): `bidding: {most: 2}`.

The shipped house rule boomerang-2010-double-throw.yaml lets a player throw one or two boomerangs a
turn. Seed 4, three players, each starting with 12: Ben is drawn to start. Counted by hand:
  Ben throws 2 (pot 2; Ben 10), Cy throws 1 (pot 3; Cy 11), Ana stops and takes 3 (Ana 15),
  Ben throws 2 (pot 2; Ben 8), Cy stops and takes 2 (Cy 13); Ben is left last and hunts first:
  River, every card of the circle (16, 20, 7, 47, 26 and 31 all show River); 15 + 8 + 13 = 36.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from shipped import EDITIONS

from cli.main import main
from cli.rounds import since_last_turn
from rulesengine import load_edition
from rulesengine.bots.registry import make_bot
from rulesengine.errors import GameRuleError
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "boomerang-2010-double-throw.yaml"


@pytest.fixture(scope="module")
def double():
    return load_edition(PATH)


def first_round(double) -> Game:
    game = Game(double, ["Ana", "Ben", "Cy"], 4)
    for seat, icon in zip(game.seats, ["Desert", "River", "Coast"], strict=True):
        game.apply(seat, icon)
    return game


def test_a_round_of_double_throws_counted_by_hand(double):
    game = first_round(double)
    assert game.block_named("bidding").first == 1 and [c.letter for c in game.places.circle] == [
        "16", "20", "7", "47", "26", "31"]
    seen = []
    for answer in ["throw 2", "throw", "stop", "throw 2", "stop"]:
        decision = game.pending()[0]
        assert decision.options == ("throw", "throw 2", "stop")
        game.apply(decision.seat, answer)
        seen.append((decision.seat, game.block_named("bidding").pot if game.round == 0 else None,
                     [s["boomerangs"] for s in game.places.stocks]))
    assert seen[:4] == [(1, 2, [12, 10, 12]), (2, 3, [12, 10, 11]), (0, 0, [15, 10, 11]), (1, 2, [15, 8, 11])]
    assert [s["boomerangs"] for s in game.places.stocks] == [15, 8, 13]
    entry = game.history[0]
    assert entry["took"] == {"Ana": 3, "Cy": 2} and entry["last_left"] == "Ben"
    assert entry["captured"] == {"Ben": ["16", "20", "7", "47", "26", "31"], "Cy": [], "Ana": []}
    thrown = [(e["seat"], e["tokens"], e["pot"]) for e in game.events if e["type"] == "throw_token"]
    assert thrown == [(1, 2, 2), (2, 1, 3), (1, 2, 2)]


def test_the_table_is_told_how_many_were_thrown(double):
    game = first_round(double)
    game.apply(1, "throw 2")
    game.apply(2, "throw")
    view = game.view(0)
    assert view["moves"] == [{"seat": 1, "move": "throw", "pot": 2, "tokens": 2},
                             {"seat": 2, "move": "throw", "pot": 3, "tokens": 1}]
    assert since_last_turn(view) == "This round: Ben threw 2 (pot 2), Cy threw (pot 3)."


def test_a_seat_with_one_boomerang_throws_one_or_stops(double):
    game = first_round(double)
    game.places.stocks[1]["boomerangs"] = 1   # (as after eleven throws)
    assert game.pending()[0].options == ("throw", "stop")
    with pytest.raises(GameRuleError, match="'throw 2' is not a legal bid for Ben"):
        game.apply(1, "throw 2")


def test_the_published_game_still_throws_one():
    game = Game(load_edition(EDITIONS / "boomerang-2010.yaml"), ["Ana", "Ben", "Cy"], 4)
    for seat, icon in zip(game.seats, ["Desert", "River", "Coast"], strict=True):
        game.apply(seat, icon)
    assert game.pending()[0].options == ("throw", "stop")


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games_keeping_every_boomerang(double, kind):
    game = play(Game(double, ["a", "b", "c"], 3), [make_bot(kind, double, s) for s in range(3)])
    assert game.over
    kept = [s["boomerangs"] for s in game.places.stocks]
    assert sum(kept) == 36
    sheet = game.scores.sheet()
    assert [p["categories"]["boomerang_sets"] for p in sheet["players"]] == [k // 6 for k in kept]
    assert sum(len(cards) for cards in game.places.captured) + len(game.places.circle) <= 54


def test_boom_rules_says_one_or_two():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert "each player still in throws 1 to 2 of their boomerangs (as many as they have) into the pot" in text
