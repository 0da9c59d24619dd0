"""Sampled states agree with everything the seat has seen, and with the rules' card counts."""

from __future__ import annotations

import random

from rulesengine import Game
from rulesengine.bots.determinize import from_view
from rulesengine.bots.registry import RandomAgent


def test_sampled_state_keeps_what_the_seat_knows_and_hides_nothing_else(australia):
    for players in (2, 3, 4):
        game = Game(australia, ["a", "b", "c", "d"][:players], players)
        agents = [RandomAgent(s) for s in range(players)]
        rng = random.Random(1)
        exact_hands = 0
        while not game.over:
            if game.phase in ("throw", "draft"):
                for seat in range(players):
                    view = game.view(seat)
                    sample = from_view(australia, view, rng)
                    assert sample.view(seat)["hand"] == view["hand"]
                    assert sample.view(seat)["table"] == view["table"]
                    assert sample.scores.sheet() == game.scores.sheet()
                    # every card is in exactly one place
                    places = (
                        [c for h in sample.places.hands for c in h]
                        + [c for d in sample.places.drafts for c in d]
                        + list(sample.places.leftover)
                    )
                    assert sorted(c.index for c in places) == list(range(28))
                    assert all(len(h) == len(view["hand"]) for h in sample.places.hands)
                    # the hand this seat passed on is known exactly
                    step = len(game.places.drafts[seat])
                    if step >= 1 and players > 1:
                        neighbour = (seat + view["direction"]) % players
                        assert set(sample.places.hands[neighbour]) == set(game.places.hands[neighbour])
                        exact_hands += 1
            for decision in game.pending():
                game.apply(
                    decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category
                )
        assert exact_hands > 0


def test_sampled_games_play_to_the_end(australia):
    game = Game(australia, ["a", "b", "c"], 3)
    for _ in range(10):
        for decision in game.pending():
            game.apply(decision.seat, decision.options[0], decision.category)
    sample = from_view(australia, game.view(0), random.Random(2))
    agents = [RandomAgent(s) for s in range(3)]
    while not sample.over:
        for decision in sample.pending():
            sample.apply(
                decision.seat, agents[decision.seat].decide(sample.view(decision.seat), decision), decision.category
            )
    assert len(sample.record()["rounds"]) == 4
