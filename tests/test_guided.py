"""The guided bot: the ismcts bot's tree with the greedy estimate as its prior (progressive bias, final choice)."""

from __future__ import annotations

import math
import random

from conftest import Recorded, position

from rulesengine.bots.evaluate import card_list
from rulesengine.bots.greedy import GreedyAgent
from rulesengine.bots.guided import GuidedAgent
from rulesengine.bots.ismcts import IsmctsAgent, _bias, _final, _Worth
from rulesengine.bots.registry import agent_seed, bot_kind, bot_options, make_bot
from rulesengine.game.loop import play
from rulesengine.game.state import Game


def first_visit(bot, view, decision, seed):
    """The one card visited by a bot of one iteration."""
    values = bot.values(view, decision, random.Random(seed))
    assert sum(int(v) for v in values.values()) == 1
    return next(letter for letter, visits in values.items() if visits >= 1)


def test_the_first_iteration_tries_the_card_of_the_best_greedy_estimate(australia):
    """The estimate is drawn first from the decision's generator (the blend's 24 worlds of 6 orders); the plain
    ismcts bot tries an untried card at random, so on this position it tries another first."""
    game = position(australia, 4, 5, 2)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    expected = GreedyAgent(3, australia, samples=24, completions=6).gains(view, decision, random.Random(4))
    best = max(decision.options, key=expected.__getitem__)
    guided = GuidedAgent(3, australia, iterations=1, final=0.0)
    assert first_visit(guided, view, decision, 4) == best == "H"
    assert first_visit(IsmctsAgent(3, australia, iterations=1), view, decision, 4) == "A"


def test_the_bias_is_the_estimate_scaled_to_the_options():
    """Gains 2, 5, 8 (best 8, worst 2) at weight 2: 0, 1, 2; equal gains: no bias."""
    options = ["a", "b", "c"]
    letters = {"a": 2.0, "b": 5.0, "c": 8.0}
    cards = [_Letter(letter) for letter in options]
    assert _bias(letters, cards, 2.0) == {cards[0]: 0.0, cards[1]: 1.0, cards[2]: 2.0}
    assert _bias(dict.fromkeys(options, 3.0), cards, 2.0) == dict.fromkeys(cards, 0.0)


def test_the_final_choice_adds_the_estimate_to_the_mean_in_points_of_cards_visited_enough():
    """Visits 8, 1, 4 (the floor a quarter of 8: 2): b is left out; a 16/8 + 1.0 = 3, c 4/4 + 5.0 = 6."""
    a, b, c = _Letter("a"), _Letter("b"), _Letter("c")
    root = {a: [8, 0.0, 8, {}, 16.0], b: [1, 0.0, 8, {}, 10.0], c: [4, 0.0, 8, {}, 4.0]}
    assert _final(root, {"a": 1.0, "b": 0.0, "c": 5.0}, 1.0) == {"a": 3.0, "c": 6.0}
    assert _final(root, {"a": 1.0, "b": 0.0, "c": 5.0}, 0.5) == {"a": 2.5, "c": 3.5}


def test_a_round_end_in_points_is_the_blend_bots_margin():
    """Four seats gaining 10, 4, 6, 2: 10 - (4 + 6 + 2) / 3 / 3 (search.margin); no win counted before the
    last round."""
    worth = _Worth.__new__(_Worth)
    worth.me, worth.points, worth.standing = 0, 0.0, None
    assert worth.in_points([10, 4, 6, 2]) == 10 - 12 / 9


def test_a_seeded_decision_replays_and_each_use_of_the_prior_changes_it(australia):
    """A position (seed 1, one pick made) where the plain tree plays S, the tree with the progressive bias Z, and
    with the final choice too (the guided bot) I: each decision replays."""
    game = position(australia, 4, 1, 1)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    assert {GuidedAgent(9, australia, iterations=60).decide(view, decision) for _ in range(2)} == {"I"}
    assert {GuidedAgent(9, australia, iterations=60, final=0.0).decide(view, decision) for _ in range(2)} == {"Z"}
    assert IsmctsAgent(9, australia, iterations=60).decide(view, decision) == "S"
    values = GuidedAgent(9, australia, iterations=60).values(view, decision, random.Random(4))
    assert all(math.isfinite(v) for v in values.values()) and set(values) <= set(decision.options)


def test_its_budget_is_iterations_or_think_time(australia):
    assert make_bot("guided", australia, 1, iterations=40).iterations == 40
    assert bot_kind("guided:40") == ("guided", {"iterations": 40})
    assert bot_options("guided", None, 0.05) == {"think": 50.0, "iterations": None}
    bot = make_bot("guided", australia, 1)
    assert (bot.iterations, bot.prior, bot.final, bot.kind) == (200, 1.0, 1.0, "guided")
    assert card_list(australia, ["A"])[0].letter == "A"


def test_a_seeded_europe_game_is_the_one_it_was_when_its_modelled_picks_went_through_greedy_pick(europe):
    """Europe's National Treasures read the other seats' cards: until 2026-11-27 the modelled seats' picks went
    through greedy_pick there, since by the generated pick keyed by the others' packed tally (bots/playouts.py).
    The same game, every answer of the guided seat (60 iterations, seat 1 of 4 against greedy bots, seed 21) and
    every total as the old path played it."""
    seats = [make_bot("greedy", europe, agent_seed(21, seat)) for seat in range(4)]
    guided = seats[1] = Recorded(make_bot("guided", europe, agent_seed(21, 1), iterations=60))
    game = play(Game(europe, ["a", "b", "c", "d"], 21, events=False), seats)
    assert [game.scores.total(seat) for seat in range(4)] == [145, 136, 125, 129]
    assert guided.answers == ["X", "T", "U", "V", "A", "K", "Art", "F", "J", "P", "E", "S", "X", "Natural Wonders",
                              "L", "N", "#", "D", "O", "J", "Architecture", "#", "G", "F", "V", "O", "I", "Music"]




class _Letter:
    """A stand-in card: _bias and _final read only its letter (and hash it)."""

    def __init__(self, letter: str):
        self.letter = letter

    def __repr__(self) -> str:
        return self.letter
