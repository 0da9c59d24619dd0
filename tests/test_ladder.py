"""boom ladder: the pairing of its games, its Elo arithmetic (by hand), a small ladder end to end, the command."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine.edition.shipped import resolve_edition
from rulesengine.simulate.ladder import elo, pick_ms, play_pairs, ratings, run_ladder, usual_players
from rulesengine.simulate.ladder_report import text
from rulesengine.simulate.source import EditionSource


def test_a_win_rate_is_an_elo_difference():
    assert elo(0.75, 100) == pytest.approx(400 * math.log10(3))      # 190.85: 3 wins to 1
    assert elo(0.5, 100) == 0
    assert elo(0.5, 10, players=3) == pytest.approx(400 * math.log10(2))   # half the wins, parity a third
    assert elo(1.0, 4) == pytest.approx(400 * math.log10(7))         # 4 of 4 counted as 3.5 of 4: finite


def test_ratings_add_up_the_chain_with_their_intervals():
    """By hand: 75/100 has the Wilson interval 0.65695-0.82455, 400 log10(p/(1-p)) = 112.87-268.82, a standard
    deviation of 39.78; 60/100: 0.50200-0.69060, 1.39-139.48, 35.23. Ratings 190.85 and 190.85 + 70.44 = 261.29;
    the second's interval is +-1.96 sqrt(39.78^2 + 35.23^2) = +-104.15."""
    rated = ratings([(75, 100), (60, 100)])
    assert rated[0] == {"rating": 0.0, "ci95": [0.0, 0.0]}
    assert rated[1] == {"rating": 190.8, "ci95": [112.9, 268.8]}
    assert rated[2] == {"rating": 261.3, "ci95": [157.1, 365.4]}


@pytest.mark.parametrize("edition, players", [("australia", 2), ("boomerang-2010", 3)])
def test_a_deal_is_played_with_the_rung_in_every_seat(edition, players):
    """The same bot as both rungs: the games of a deal are the same game, its winner's seat the same, so the
    'upper' rung wins exactly one game a deal (shares of a shared win add up to one too)."""
    source = EditionSource.read(resolve_edition(edition))
    wins, games = play_pairs(source, "greedy1", "greedy1", players, 7, 0, 3, None)
    assert games == 3 * players
    assert wins == pytest.approx(3.0)


def test_a_small_ladder_end_to_end():
    data = run_ladder("australia", ("random", "greedy1"), games=2, seed=5)
    again = run_ladder("australia", ("random", "greedy1"), games=2, seed=5, jobs=2)
    strip = lambda d: [dict(r, pick_ms=None) for r in d["rungs"]]  # noqa: E731 - times differ, figures not
    assert strip(data) == strip(again)
    assert data["players_paired"] == 2 and data["players_against_greedy"] == usual_players(2, 4) == 4
    low, high = data["rungs"]
    below = high["against_below"]
    assert below["games"] == 4 and low["against_greedy"]["games"] == high["against_greedy"]["games"] == 2
    assert data["games"] == 4 + 2 + 2
    assert high["rating"] == round(elo(below["wins"] / 4, 4), 1)
    assert low["pick_ms"]["picks"] == 2 * 4 * 6   # 2 games, 4 rounds, 6 picks with a choice (Throw + 5 drafts)
    lines = text(data).splitlines()
    assert lines[0].startswith("Boomerang: Australia: bot ladder") and "8 in all" in lines[0]
    assert lines[4].startswith("random ") and lines[5].startswith("greedy1 ")


def test_a_rungs_pick_times_are_summed_up_with_their_mean():
    """Picks of 1, 2, 3 and 10 ms: mean 4, median 2.5, the 90th centile the third of four (index int(0.9 x 3))."""
    assert pick_ms((10.0, 1.0, 3.0, 2.0)) == {"mean": 4.0, "median": 2.5, "p90": 3.0, "max": 10.0, "picks": 4}
    assert pick_ms(()) is None


def test_the_command_prints_json_and_writes_its_report(tmp_path):
    result = CliRunner().invoke(main, ["ladder", "australia", "--rungs", "random,greedy1", "--games", "1",
                                       "--format", "json", "--report", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [row["rung"] for row in data["rungs"]] == ["random", "greedy1"]
    assert json.loads((tmp_path / "out" / "report.json").read_text()) == data
    assert (tmp_path / "out" / "report.txt").read_text() == text(data)
    assert "<table>" in (tmp_path / "out" / "report.html").read_text()


@pytest.mark.parametrize("arguments, message", [
    (["--rungs", "random,bogus"], "unknown rung 'bogus'"),
    (["--think", "0"], "not a number of milliseconds above 0"),
    (["--think", "nan"], "not a number of milliseconds above 0"),
    (["--games", "0"], "0 is not in the range x>=1"),
])
def test_bad_arguments_are_one_clear_error(arguments, message):
    result = CliRunner().invoke(main, ["ladder", "australia", *arguments])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
