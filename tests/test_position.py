"""The game owns the passing rule (play_picks) and building a game at a position (Game.at_position):
rollouts and determinization use them instead of copies."""

from __future__ import annotations

from conftest import cards

from rulesengine import Game
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.edition.model import Passing
from rulesengine.game.state import CHOICE, DRAFT, play_picks

NAMES = ["Ana", "Ben", "Cy"]


def test_a_turn_passes_left_and_the_catch_comes_from_the_same_side(australia):
    hands, drafts = [cards(australia, "AB"), cards(australia, "CD"), cards(australia, "EF")], [[], [], []]
    hands = play_picks(Passing(("left",), "same"), 0, hands, drafts, cards(australia, "ACE"))
    assert hands == [[], [], []]
    assert drafts == [cards(australia, "AF"), cards(australia, "CB"), cards(australia, "ED")]


def test_with_catch_previous_the_last_card_goes_the_other_way(australia):
    hands, drafts = [cards(australia, "ABG"), cards(australia, "CDH"), cards(australia, "EFI")], [[], [], []]
    hands = play_picks(Passing(("left",), "previous"), 0, hands, drafts, cards(australia, "ACE"))
    assert hands == [cards(australia, "FI"), cards(australia, "BG"), cards(australia, "DH")]   # passed left
    hands = play_picks(Passing(("left",), "previous"), 0, hands, drafts, cards(australia, "FBD"))
    # the Catch comes from the right
    assert drafts == [cards(australia, "AFG"), cards(australia, "CBH"), cards(australia, "EDI")]


def play_until(game: Game, agents, stop) -> None:
    while not stop(game):
        decision = game.pending()[0]
        game.apply(decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category)


def test_a_game_rebuilt_at_its_position_plays_on_to_the_same_sheet(australia):
    agents = [RandomAgent(agent_seed(3, s)) for s in range(3)]
    game = Game(australia, NAMES, 3)
    play_until(game, agents, lambda g: g.round == 1 and g.phase == DRAFT and len(g.places.drafts[0]) == 2
               and not g.block.chosen)
    places = game.places
    twin = Game.at_position(australia, NAMES, 99, [dict(r) for r in game.history], at="pick_and_pass", phase=DRAFT,
                            hands=[list(h) for h in places.hands], drafts=[list(d) for d in places.drafts],
                            leftover=list(places.leftover),
                            seen_hands=[[list(h) for h in s] for s in places.seen_hands])
    assert twin.view(1) == game.view(1)
    play_until(game, agents, lambda g: g.round == 2)
    play_until(twin, agents, lambda g: g.round == 2)
    assert twin.scores.sheet() == game.scores.sheet()


def test_a_game_at_the_choice_asks_the_same_questions(australia):
    agents = [RandomAgent(agent_seed(5, s)) for s in range(3)]
    game = Game(australia, NAMES, 5)
    play_until(game, agents, lambda g: g.phase == CHOICE)
    twin = Game.at_position(australia, NAMES, 0, [], at="choices", phase=CHOICE,
                            drafts=[list(d) for d in game.places.drafts])
    assert twin.pending() == game.pending()


def test_a_finished_history_is_a_finished_game(australia):
    game = Game(australia, NAMES, 7)
    play_until(game, [RandomAgent(agent_seed(7, s)) for s in range(3)], lambda g: g.over)
    twin = Game.at_position(australia, NAMES, 0, game.history)
    assert twin.over and twin.scores.sheet() == game.scores.sheet()
