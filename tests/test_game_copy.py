"""A copy of a game (copy.deepcopy) plays on exactly as the game itself would.

A bot writer who searches by copying the game expects this. The edition's parts (cards, regions,
expressions, the edition itself) are shared by the copy, as by every game of the edition: they are
immutable and compared by identity, and a copied card was a card no table of the edition knew, so
every copied game scored and played otherwise than its original (30 of 30 games of each base edition
before the edition's parts copied as themselves).
"""

from __future__ import annotations

import copy

import pytest
from fingerprints import player_counts
from shipped import shipped_that_load

from rulesengine import load_edition
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.state import Game

PREFIX = 10  # decisions played before the copy is taken


def _play_on(game: Game, seed: int) -> dict:
    """Plays game to its end with greedy seats seeded from seed; what it became."""
    agents = [make_bot("greedy", game.edition, agent_seed(seed, seat)) for seat in range(len(game.players))]
    while not game.over:
        for decision in game.pending():
            view = game.view(decision.seat, lazy=True)
            game.apply(decision.seat, agents[decision.seat].decide(view, decision), decision.category)
    return {"decisions": list(game.decisions), "sheet": game.scores.sheet(), "events": list(game.events),
            "views": [game.view(seat) for seat in range(len(game.players))]}


def _copied_mid_game(edition, seed: int) -> tuple[Game, Game]:
    n = player_counts(edition)[0]
    game = Game(edition, [f"P{seat + 1}" for seat in range(n)], seed)
    agents = [make_bot("greedy", edition, agent_seed(seed, seat)) for seat in range(n)]
    played = 0
    while not game.over and played < PREFIX:
        decision = game.pending()[0]
        game.apply(decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category)
        played += 1
    return game, copy.deepcopy(game)


@pytest.mark.parametrize("path", shipped_that_load(), ids=lambda p: p.stem)
def test_a_copy_plays_on_as_its_game(path):
    edition = load_edition(path)
    game, copied = _copied_mid_game(edition, seed=3)
    deck = {id(card) for card in edition.cards}
    assert copied.edition is edition
    places = copied.places
    held = [card for hand in getattr(places, "hands", ()) for card in hand] + list(getattr(places, "circle", ()))
    assert held and all(id(card) in deck for card in held)
    assert _play_on(copied, seed=8) == _play_on(game, seed=8)


@pytest.mark.parametrize("name", ["australia", "europe", "usa", "boomerang-2010"])
def test_a_copy_plays_on_as_its_game_under_the_reference_runner(name):
    edition = load_edition(f"editions/{name}.yaml", runner="reference")
    game, copied = _copied_mid_game(edition, seed=5)
    assert _play_on(copied, seed=2) == _play_on(game, seed=2)
