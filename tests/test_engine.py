"""The engine's flow: determinism, dealing with fewer than 4 players, passing, hidden information."""

from __future__ import annotations

import json

import pytest

from rulesengine import Game, GameRuleError
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.game.loop import play

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def bot_game(edition, players, seed):
    game = Game(edition, NAMES[:players], seed)
    return play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])


def test_same_seed_same_event_log(australia):
    first, second = bot_game(australia, 3, 11), bot_game(australia, 3, 11)
    assert json.dumps(first.events) == json.dumps(second.events)
    assert first.scores.sheet() == second.scores.sheet()


def test_different_seeds_differ(australia):
    logs = {json.dumps(bot_game(australia, 3, seed).events) for seed in range(5)}
    assert len(logs) == 5


@pytest.mark.parametrize("players", [2, 3])
def test_cards_undealt_in_a_round_are_dealt_in_the_next(australia, players):
    for seed in range(20):
        game = bot_game(australia, players, seed)
        dealt = {}
        for event in game.events:
            if event["type"] == "deal":
                dealt.setdefault(event["round"], set()).update(event["cards"])
        everything = {c.letter for c in australia.cards}
        for round_number in range(1, australia.rounds):
            undealt = everything - dealt[round_number]
            assert len(undealt) == 28 - 7 * players
            assert undealt <= dealt[round_number + 1]


def test_every_seat_drafts_its_hand_and_cards_are_conserved(australia):
    for players in (2, 3, 4):
        game = bot_game(australia, players, 5)
        for round_data in game.record()["rounds"]:
            letters = [x for hand in round_data["drafts"].values() for x in hand]
            assert all(len(hand) == 7 for hand in round_data["drafts"].values())
            assert len(set(letters)) == len(letters) == 7 * players


def test_hands_pass_left_and_the_catch_is_the_last_card_passed(australia):
    game = Game(australia, NAMES[:3], 4)
    hands_before = [list(h) for h in game.places.hands]
    for seat in range(3):
        game.apply(seat, hands_before[seat][0].letter)
    # after the Throw, seat i holds what seat i-1 had left (passed to the left, i -> i+1)
    for seat in range(3):
        assert game.places.hands[seat] == hands_before[(seat - 1) % 3][1:]


def test_illegal_decisions_are_refused(australia):
    game = Game(australia, NAMES[:2], 1)
    not_mine = game.places.hands[1][0].letter
    with pytest.raises(GameRuleError, match="not a legal throw"):
        game.apply(0, not_mine)
    game.apply(0, game.places.hands[0][0].letter)
    with pytest.raises(GameRuleError, match="no decision"):
        game.apply(0, game.places.hands[0][0].letter)


def test_player_count_is_checked(australia):
    with pytest.raises(GameRuleError, match="2 to 4 players"):
        Game(australia, NAMES[:1], 0)


def test_a_view_never_shows_another_seats_hand_or_throw(australia):
    """Cards in other hands that this seat never held, and face-down Throws, appear nowhere in its view."""
    game = Game(australia, NAMES[:4], 9)
    agents = [RandomAgent(s) for s in range(4)]
    checked = 0
    while not game.over:
        for decision in game.pending():
            for seat in range(4):
                held = {c for hand in game.places.seen_hands[seat] for c in hand}
                hands = game.places.hands
                secret = {c.letter for other in range(4) if other != seat for c in hands[other] if c not in held}
                if game.phase != "choice":
                    secret |= {
                        game.places.drafts[o][0].letter
                        for o in range(4)
                        if o != seat and game.places.drafts[o] and game.places.drafts[o][0] not in held
                    }
                this_round = {
                    k: v for k, v in game.view(seat).items() if k != "history"
                }  # history: earlier rounds, all revealed
                text = json.dumps(this_round)
                assert not [letter for letter in secret if f'"{letter}"' in text]
                checked += 1
            game.apply(
                decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category
            )
    assert checked > 100


def test_events_addressed_to_a_seat_stay_with_it(australia):
    game = bot_game(australia, 3, 2)
    for seat in range(3):
        for event in game.events_for(seat):
            if event["type"] in ("deal", "hand", "throw"):
                assert event["seat"] == seat
    public = game.events_for(None)
    assert not [e for e in public if e["type"] in ("deal", "hand", "throw")]
    assert [e for e in public if e["type"] == "throw_placed"]


def test_catch_to_previous_player_variant(australia, tmp_path):
    from dataclasses import replace

    from rulesengine.edition.model import Passing

    variant = replace(australia, passing=Passing(("left",), "previous"))
    game = Game(variant, NAMES[:3], 4)
    while len(game.places.hands[0]) > 2:
        for seat in range(3):
            game.apply(seat, game.places.hands[seat][0].letter)
    last_two = [list(h) for h in game.places.hands]
    for seat in range(3):
        game.apply(seat, last_two[seat][0].letter)
    # the single card left goes right (to the previous seat): seat i catches what seat i+1 held
    for seat in range(3):
        assert game.places.drafts[seat][-1] is last_two[(seat + 1) % 3][1]


def test_direction_variant_alternates(australia):
    from dataclasses import replace

    from rulesengine.edition.model import Passing

    variant = replace(australia, passing=Passing(("left", "right"), "same"))
    game = bot_game(variant, 3, 1)
    directions = [e["direction"] for e in game.events if e["type"] == "round_start"]
    assert directions == ["left", "right", "left", "right"]
