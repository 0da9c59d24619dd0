"""Round-end choices are told to the table once every seat has chosen (file format 4), never one by one."""

from __future__ import annotations

import pytest

from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.state import Game


def at_the_choices(edition, deal_version: int) -> Game:
    game = Game(edition, ["Ana", "Ben", "Cy"], 6, deal_version=deal_version)
    bots = [make_bot("random", edition, agent_seed(6, s)) for s in range(3)]
    while game.phase != "choice":
        decision = game.pending()[0]
        game.apply(decision.seat, bots[decision.seat].decide(game.view(decision.seat), decision), decision.category)
    return game


def told(game, seat: int) -> list:
    return [(e["seat"], e["category"]) for e in game.events_for(seat) if e["type"] == "choice"]


@pytest.mark.parametrize("deal_version", [4, 3])
def test_a_choice_is_told_when_every_seat_has_chosen(australia, deal_version):
    game = at_the_choices(australia, deal_version)
    asked = game.pending()
    assert {d.seat for d in asked} == {0, 1, 2} and all(d.category == "activities" for d in asked)
    first = next(d for d in asked if d.seat == 0)
    game.apply(0, first.options[0], "activities")
    # format 4: Ben and Cy choose without knowing Ana's choice; format 3 told it at once (as its logs hold)
    assert told(game, 1) == ([] if deal_version == 4 else [(0, "activities")])
    for decision in game.pending():
        game.apply(decision.seat, decision.options[-1], decision.category)
    assert told(game, 1) == [(0, "activities"), (1, "activities"), (2, "activities")]
