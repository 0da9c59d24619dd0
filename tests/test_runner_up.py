"""A majority that pays places below the first (issue #30): `pays: [100, 50]`, a runner-up share.

The shipped house rule boomerang-2010-runner-up.yaml pays the second most cards of a species half
their count (rounded down). The cases are the 2010 rulebook's majority examples, scored by hand.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from shipped import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.registry import make_bot
from rulesengine.edition.loader import check_edition
from rulesengine.game.holdings import majority_points
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "boomerang-2010-runner-up.yaml"


@pytest.fixture(scope="module")
def runner_up():
    return load_edition(PATH)


def of(edition, species: str, n: int) -> list:
    return [c for c in edition.cards if c.icons[0] == species][:n]


@pytest.mark.parametrize(("sizes", "points"), [
    ((5, 3, 1), [5, 1, 0]),   # the rulebook's fish: 5 scores 5; 3 now scores 3 * 50% = 1 (rounded down); 1 nothing
    ((4, 4, 1), [4, 4, 0]),   # its turtles: two first places share; 1 is third, nothing
    ((5, 2, 2), [5, 1, 1]),   # two runners-up each score half of 2
    ((0, 2, 0), [0, 2, 0]),   # alone with any: the most
])
def test_each_place_of_a_species_scored_by_hand(runner_up, sizes, points):
    fish = of(runner_up, "Fish", sum(sizes))
    captured, at = [], 0
    for size in sizes:
        captured.append(fish[at:at + size])
        at += size
    category = next(c for c in runner_up.categories if c.key == "animals")
    assert category.pays == (100, 50)
    assert majority_points(category.majority, captured, category.pays) == points
    assert majority_points(category.majority, captured) == [n if n == max(sizes) and n else 0 for n in sizes]


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games_and_the_record_scores_the_same(runner_up, kind, tmp_path):
    game = play(Game(runner_up, ["a", "b", "c"], 4), [make_bot(kind, runner_up, s) for s in range(3)])
    assert game.over
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game.record()))
    scored = CliRunner().invoke(main, ["score", str(PATH), "--record", str(record), "--format", "json"])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.output)["players"] == game.scores.sheet()["players"]


def test_pays_without_a_majority_is_one_error(tmp_path):
    path = tmp_path / "wrong.yaml"
    path.write_text(f"extends: {PATH}\nid: wrong\ncategories:\n  - key: boomerang_sets\n    pays: [100, 50]\n")
    _, diagnostics = check_edition(path)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert [(d.code, d.message) for d in errors] == [
        ("M336", "`pays` says what the places of a majority score: this category has none")]
    assert errors[0].span.line == 5


def test_boom_rules_says_the_runner_up_share():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert "those with the second most half of theirs (rounded down)" in text
    formulas = CliRunner().invoke(main, ["rules", str(PATH), "--formulas"]).output
    assert "      plus count(i, captured) * 50 // 100 where it is the second largest (pays)\n" in formulas
