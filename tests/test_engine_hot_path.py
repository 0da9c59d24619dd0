"""The lean path of a pick (apply without looking a decision up, play() without a view for a bot that
reads none) refuses and records exactly what the full path did."""

from __future__ import annotations

import copy
import pickle

import pytest

from rulesengine import Game
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.bots.seeding import STRING_SEEDS
from rulesengine.errors import GameRuleError
from rulesengine.game.loop import play
from rulesengine.game.state import Decision

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def refusal(game, *args) -> tuple[str, str]:
    with pytest.raises(GameRuleError) as caught:
        game.apply(*args)
    (diagnostic,) = caught.value.diagnostics
    return diagnostic.code, diagnostic.message


def test_a_pick_refused_says_what_it_said_before(australia):
    game = Game(australia, NAMES[:2], 1)
    hand = "".join(c.letter for c in game.places.hands[0])
    other = next(c.letter for c in game.places.hands[1])
    options = ", ".join(hand)
    assert refusal(game, 0, other) == ("G605", f"'{other}' is not a legal throw for Ana (options: {options})")
    assert refusal(game, 0, 3) == ("G605", f"'3' is not a legal throw for Ana (options: {options})")
    assert refusal(game, 0, None) == ("G605", f"'None' is not a legal throw for Ana (options: {options})")
    assert refusal(game, -1, hand[0]) == ("G604", "seat -1 has no decision to make now")
    assert refusal(game, 2, hand[0]) == ("G604", "seat 2 has no decision to make now")
    assert refusal(game, 0, hand[0], "souvenirs") == ("G604", "seat 0 has no decision to make now")
    game.apply(0, hand[0])
    assert game.decisions == [[0, hand[0], None]] and game.block.chosen == {0: australia.card(hand[0])}
    assert refusal(game, 0, hand[1]) == ("G604", "seat 0 has no decision to make now")
    assert [d.seat for d in game.pending()] == [1]


def test_a_string_subclass_answer_is_taken_like_its_letter(australia):
    class Letter(str):
        pass

    game = Game(australia, NAMES[:2], 1)
    letter = game.places.hands[1][2].letter
    game.apply(1, Letter(letter))
    assert game.block.chosen == {1: australia.card(letter)}


def test_play_hands_a_view_only_to_bots_that_read_it(australia):
    seen = []

    class Watching(RandomAgent):
        def decide(self, view, decision):
            seen.append(view if view is None else view["seat"])
            return super().decide(view, decision)

    integer, strings = Watching(agent_seed(2, 0)), Watching(agent_seed(2, 1), seeding=STRING_SEEDS)
    assert (integer.reads_view, strings.reads_view) == (False, True)
    play(Game(australia, NAMES[:2], 2, events=False), [integer, strings])
    assert seen.count(None) == seen.count(1) == 4 * 6 + 4  # 6 picks and 1 choice a round, 4 rounds


def test_a_decision_is_still_a_frozen_value():
    decision = Decision(2, "draft", 3, ("A", "B"))
    assert decision == Decision(2, "draft", 3, ("A", "B"), None) != Decision(2, "draft", 3, ("A",))
    assert hash(decision) == hash(Decision(2, "draft", 3, ("A", "B")))
    assert repr(decision) == "Decision(seat=2, kind='draft', round=3, options=('A', 'B'), category=None)"
    assert pickle.loads(pickle.dumps(decision)) == decision == copy.deepcopy(decision)
    with pytest.raises(AttributeError):
        decision.seat = 1
