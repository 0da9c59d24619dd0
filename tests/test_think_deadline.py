"""A time budget (--think) is a deadline the searching bots check at every pick of a rollout, not only between
worlds or iterations: the world or iteration under way when it passes is dropped (allowance.Allowance), so a
decision ends within one pick's work of its deadline, where a whole rollout used to run past it. Here the deadline
has already passed when the decision starts: the old loops still played one world or iteration to the end."""

from __future__ import annotations

import random
import time

import pytest
from conftest import position

from rulesengine.bots.allowance import Allowance, Spent
from rulesengine.bots.registry import make_bot


def test_the_allowance_is_spent_at_its_deadline_and_never_without_one():
    with pytest.raises(Spent):
        Allowance(None, time.perf_counter() - 1).check()
    Allowance(None, time.perf_counter() + 3600).check()
    Allowance(None).check()
    Allowance(10**12).check()


def test_a_tree_past_its_deadline_answers_by_its_fallback(australia):
    """The guided bot falls back to its greedy estimate (drawn first from the decision's generator): exactly it.
    The plain ismcts bot to the greedy bot's gains (drawn after what the dropped iteration drew: a world, a card
    to try): a value for every card, where one iteration's tree has visited one card."""
    game = position(australia, 4, 5, 2)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    past = time.perf_counter() - 1
    ismcts = make_bot("ismcts", australia, 3, iterations=None, think=50.0)
    assert sorted(ismcts.values(view, decision, random.Random(7), past)) == sorted(decision.options)
    guided = make_bot("guided", australia, 3, iterations=None, think=50.0)
    assert guided.values(view, decision, random.Random(7), past) == \
        guided.expected.gains(view, decision, random.Random(7))


def test_a_search_past_its_deadline_has_played_no_world(australia):
    game = position(australia, 4, 5, 2)
    decision = game.pending()[0]
    bot = make_bot("search", australia, 3, rollouts=None, seconds=0.05)
    assert bot.searched(game.view(decision.seat), decision, random.Random(7), time.perf_counter() - 1) == {}


def test_a_search_to_a_deadline_never_makes_the_lanes(australia, monkeypatch):
    """The lanes play a decision's worlds at once, not to a deadline: with a time budget the compiled rollouts are
    made alone (the lanes' making, numpy's import with it, put a first pick with --think 50 at 345 ms)."""
    from rulesengine.bots import lanes

    def refused(*args):
        raise AssertionError("the lanes were made for a search to a deadline")

    monkeypatch.setattr(lanes, "LaneRollouts", refused)
    game = position(australia, 4, 5, 2)
    decision = game.pending()[0]
    bot = make_bot("search", australia, 3, rollouts=24, seconds=60)
    assert bot.searched(game.view(decision.seat), decision, random.Random(7))
    assert bot.rollouts_used == "compiled (a time budget: the worlds played one by one)"
