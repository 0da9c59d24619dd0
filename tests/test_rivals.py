"""The tree bots' sampled model of the greedy rivals (bots/rivals.py; `rivals="sampled"` or `"drawn"`)."""

from __future__ import annotations

import math
import random

import pytest
from conftest import Recorded, position

from rulesengine.bots.guided import GuidedAgent
from rulesengine.bots.ismcts import IsmctsAgent
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.bots.rivals import SampledRivals, card_worth
from rulesengine.game.loop import play
from rulesengine.game.state import Game

# a hand of three after four cards taken (WEIGHTS[4]: 0.5 the one-ply value, 1.0 the card's worth): one-ply values
# a 2, b 0, c 0 and worths a 0, b 1, c 0 give exponents 1, 1, 0: weights 1, 1, e^-1
HAND, TAKEN = ["a", "b", "c"], ["w", "x", "y", "z"]
KNOWN, WORTH = {"a": 2.0, "b": 0.0, "c": 0.0}, {"a": 0.0, "b": 1.0, "c": 0.0}


def valued(asked):
    def value(seat, hand, taken, x, sites):
        asked.append((seat, tuple(hand), tuple(taken)))
        return KNOWN
    return value


def test_a_draw_is_the_softmax_of_the_one_ply_value_and_the_cards_worth():
    """Cumulative weights 1, 2, 2 + e^-1 (2.368); Random(1) draws 0.134, 0.847, 0.764 of it: 0.318 (a), 2.007 (c),
    1.809 (b). The values are asked once for the hand, its weights remembered."""
    asked = []
    rivals = SampledRivals(WORTH, random.Random(1))
    assert [rivals.pick(2, HAND, TAKEN, valued(asked), None, 0) for _ in range(3)] == ["a", "c", "b"]
    assert asked == [(2, ("a", "b", "c"), ("w", "x", "y", "z"))]
    assert rivals.memo == {(2, ("a", "b", "c"), ("w", "x", "y", "z")): (("a", "b", "c"), [1.0, 2.0, 2 + math.exp(-1)])}


def test_a_drawn_rival_keeps_its_draw_for_the_decision():
    """`drawn`: one draw a hand (a, as above), kept for that seat's hand and cards taken; another seat's same hand is
    a new draw (the generator's next number: c)."""
    asked = []
    rivals = SampledRivals(WORTH, random.Random(1), "drawn")
    assert [rivals.pick(2, HAND, TAKEN, valued(asked), None, 0) for _ in range(3)] == ["a", "a", "a"]
    assert rivals.pick(3, HAND, TAKEN, valued(asked), None, 0) == "c"
    assert len(asked) == 2


def test_a_cards_worth_is_its_mean_over_seeded_random_hands(australia):
    """Australia at four players (20,000 hands, seeded by the edition): the best and worst card, to the last digit
    printed; kept with the edition (the same dict the second time)."""
    worth = card_worth(australia, 4)
    best, worst = max(worth, key=worth.get), min(worth, key=worth.get)
    assert (best.letter, round(worth[best], 6)) == ("G", 28.851403)
    assert (worst.letter, round(worth[worst], 6)) == ("V", 27.012764)
    assert card_worth(australia, 4) is worth


def test_an_unknown_rival_model_is_one_clear_error(australia):
    with pytest.raises(ValueError, match="unknown rivals 'greedy'"):
        IsmctsAgent(1, australia, rivals="greedy")


def test_a_seeded_decision_replays_with_drawn_rivals_and_differs_from_the_one_ply_model(australia):
    """The position of test_guided's seeded decision (seed 1, one pick made), 60 iterations: the one-ply model's
    guided bot plays I; with drawn rivals the tree's visits differ, and the decision replays."""
    game = position(australia, 4, 1, 1)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    drawn = [GuidedAgent(9, australia, iterations=60, rivals="drawn").values(view, decision, random.Random(4))
             for _ in range(2)]
    plain = GuidedAgent(9, australia, iterations=60).values(view, decision, random.Random(4))
    assert drawn[0] == drawn[1] != plain
    assert {GuidedAgent(9, australia, iterations=60, rivals="drawn").decide(view, decision) for _ in range(2)} == {"Y"}


def test_europe_keeps_the_one_ply_model(europe):
    """Europe's National Treasures read the other seats' cards (the generated pick keeps only the seat's own part of
    the values): the rivals stay the one-ply pick, the decision's values the shipped bot's."""
    game = position(europe, 4, 3, 2)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    assert GuidedAgent(5, europe, iterations=30, rivals="drawn").values(view, decision, random.Random(2)) \
        == GuidedAgent(5, europe, iterations=30).values(view, decision, random.Random(2))


def test_a_seeded_game_with_drawn_rivals(australia):
    """The guided bot (60 iterations, drawn rivals) at seat 1 of 4 against greedy bots, seed 21: every total and every
    answer of its seat (with the one-ply model the totals are 122, 141, 131, 128, its third answer J)."""
    seats = [make_bot("greedy", australia, agent_seed(21, seat)) for seat in range(4)]
    # (its choices as the greedy bot takes them, plan=False: this game was pinned before the guided bot planned them)
    guided = seats[1] = Recorded(GuidedAgent(agent_seed(21, 1), australia, iterations=60, rivals="drawn", plan=False))
    game = play(Game(australia, ["a", "b", "c", "d"], 21, events=False), seats)
    assert [game.scores.total(seat) for seat in range(4)] == [119, 141, 134, 124]
    assert guided.answers == ["Z", "K", "F", "H", "B", "L", "Sightseeing", "G", "X", "T", "V", "Q", "N", None, "E", "J",
                              "Y", "D", "I", "A", "Indigenous Culture", "#", "M", "W", "R", "N", "I", "Swimming"]


