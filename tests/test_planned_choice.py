"""A once-per-game choice planned over the rounds left (bots/choices.py) against the greedy bot's threshold."""

from __future__ import annotations

import pytest
from conftest import position

from rulesengine.bots.choices import _Future, planned_choice, rounds_to_come
from rulesengine.bots.evaluate import choice_points, face_up_cards, standing_from_view
from rulesengine.bots.greedy import best_choice
from rulesengine.bots.registry import make_bot
from rulesengine.bots.seeding import PLANNED_CHOICES, STEP_SEEDS, seeding_for


def test_the_rounds_to_come_are_worth_their_best_choices_by_hand():
    """Two drawn rounds, equally likely: A scores 2 in one, B scores 4 in the other.
    One round left: the best of each, (2 + 4) / 2 = 3. Two rounds left with A and B: in the A round, A now and B
    later (2 + 2) beats keeping both (3), 4; in the B round, B now and A later (4 + 1), 5: 4.5. A alone, two
    rounds: 2 in the A round, else wait for it (1): 1.5."""
    future = _Future([{"A": 2}, {"B": 4}])
    assert future.value(frozenset("AB"), 1) == 3
    assert future.value(frozenset("AB"), 2) == 4.5
    assert future.value(frozenset("A"), 2) == 1.5
    assert future.value(frozenset("AB"), 0) == future.value(frozenset(), 2) == 0


def _choices(australia, seed: int, decisions: int) -> list:
    """(view, decision, icon -> points now) of every seat's choice after `decisions` rounds of random decisions."""
    game = position(australia, 4, seed, decisions)
    found = []
    for decision in game.pending():
        assert decision.category == "activities"
        view = game.view(decision.seat)
        standing = standing_from_view(australia, view)
        category = australia.choice_categories[0]
        found.append((view, decision, choice_points(standing, decision.seat, category,
                                                      *face_up_cards(australia, view))))
    return found


def test_the_first_round_scores_two_points_the_greedy_threshold_keeps(australia):
    """Seed 1, seat 0, the end of the first round: Sightseeing and Bushwalking would score 2 each, under the greedy
    bot's reserve (the mean points of a legal icon in a random round), so it keeps them all. With four activities
    for the four rounds, one kept is one more to choose from later, worth less than the 2 points now: planned, it
    scores one (the one whose loss costs the rounds to come least)."""
    view, decision, points = _choices(australia, 1, 6)[0]
    assert points == {"Indigenous Culture": 0, "Sightseeing": 2, "Bushwalking": 2, "Swimming": 0}
    assert best_choice(australia, view, decision) is None
    chosen = planned_choice(australia, view, decision)
    assert chosen in ("Sightseeing", "Bushwalking")
    category = australia.choice_categories[0]
    future = rounds_to_come(australia, category, 4)
    every = frozenset(category.choice.family.icons)
    other = "Sightseeing" if chosen == "Bushwalking" else "Bushwalking"
    assert 2 + future.value(every - {chosen}, 3) > future.value(every, 3)
    assert future.value(every - {chosen}, 3) >= future.value(every - {other}, 3)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_in_the_last_round_it_is_the_icon_that_scores_most(australia, seed):
    for view, decision, points in _choices(australia, seed, 27):
        best = max((icon for icon in decision.options if icon is not None), key=lambda icon: points[icon])
        expected = best if points[best] > 0 else None
        assert planned_choice(australia, view, decision) == expected == best_choice(australia, view, decision)


def test_the_guided_bot_plans_from_file_format_6_and_a_game_of_an_earlier_format_re_decides_as_it_was_played(
        australia):
    """Format 6 is the first whose guided bot plans (a format 5 log's guided seats, test_golden_logs, still verify);
    the ismcts bot and the others keep the greedy bot's choice."""
    assert (seeding_for(5), seeding_for(6)) == (STEP_SEEDS, PLANNED_CHOICES)
    assert make_bot("guided", australia, 1).choose is planned_choice
    assert make_bot("guided", australia, 1, seeding=seeding_for(5)).choose is best_choice
    assert make_bot("ismcts", australia, 1).choose is best_choice
