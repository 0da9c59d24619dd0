"""The YAML editions against independent hand-written scorers, over many seeded random games.

The engine plays each game with random bots (random choices included); the hand scorer in
tests/handscorers scores the game's record with plain Python. Every category of every seat in
every round, the totals and the winners must agree, with each runner of the edition's scoring (the
generated program and the reference interpreter).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.game.loop import play
from rulesengine.game.program import RUNNERS

EDITIONS = Path(__file__).resolve().parent.parent / "editions"
GAMES = 1002  # per edition, a third each with 2, 3 and 4 players
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def available():
    for name in ("australia", "europe", "usa"):
        if (EDITIONS / f"{name}.yaml").exists() and (Path(__file__).parent / "handscorers" / f"{name}.py").exists():
            yield name


@pytest.mark.parametrize("runner", RUNNERS)
@pytest.mark.parametrize("name", list(available()))
def test_yaml_edition_agrees_with_the_hand_written_scorer(name, runner):
    edition = load_edition(EDITIONS / f"{name}.yaml", runner=runner)
    hand = importlib.import_module(f"handscorers.{name}")
    compared = 0
    chose = 0
    for seed in range(GAMES):
        players = 2 + seed % 3
        game = Game(edition, NAMES[:players], seed)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        record = game.record()
        expected = hand.score(record)
        sheet = game.scores.sheet()                 # its ranking is checked by tests/test_ranking.py
        actual = {key: sheet[key] for key in ("players", "winners")}
        assert actual == expected, f"{name}, seed {seed}, {players} players"
        compared += 1
        chose += sum(len(r["choices"]) for r in record["rounds"])
    assert compared == GAMES
    assert chose > GAMES  # the optional choices were exercised, not only skipped
