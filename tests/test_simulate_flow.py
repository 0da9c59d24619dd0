"""`boom simulate` on a flow edition (the 2010 game): figures by hand, conservation over many games, the CLI."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine.simulate import Settings, report_data, run_simulation
from rulesengine.simulate.figures import WIN_UNIT, holding_figures

BOOMERANG_2010 = str(EDITIONS / "boomerang-2010.yaml")


def test_holding_figures_by_hand():
    # Ana and Ben tie on 9; Ana kept more boomerangs (the tie-break) and wins. Three rounds were played.
    record = {
        "players": ["Ana", "Ben", "Cy"],
        "captured": {"Ana": ["1", "2"], "Ben": ["3"], "Cy": []},
        "kept": {"Ana": {"boomerangs": 20}, "Ben": {"boomerangs": 10}, "Cy": {"boomerangs": 6}},
    }
    sheet = {
        "players": [
            {"name": "Ana", "total": 9, "categories": {"animals": 6, "boomerang_sets": 3}},
            {"name": "Ben", "total": 9, "categories": {"animals": 8, "boomerang_sets": 1}},
            {"name": "Cy", "total": 1, "categories": {"animals": 0, "boomerang_sets": 1}},
        ],
        "winners": ["Ana"],
        "decided_by": {"key": "boomerangs", "winner": 20, "runner_up": 10},
    }
    events = [{"type": "round_start", "to": None}, {"type": "claim", "to": None}] * 3
    figures = holding_figures(record, events, sheet, ("animals", "boomerang_sets"), ("boomerangs",))
    assert figures.points == ((6, 3), (8, 1), (0, 1))
    assert figures.totals == (9, 9, 1)
    assert figures.wins == (WIN_UNIT, 0, 0)
    assert (figures.margin, figures.tied, figures.decided_by) == (0, True, "boomerangs")
    assert figures.kept == ((20,), (10,), (6,))
    assert figures.rounds_played == 3
    assert figures.drafted == (frozenset({"1", "2"}), frozenset({"3"}), frozenset())
    assert figures.thrown == ((), (), ()) and figures.race_rounds == ()


def test_every_boomerang_and_card_is_accounted_for_over_many_games():
    kinds, games = ("random", "greedy", "random", "random"), 60
    data = report_data(run_simulation(Settings((BOOMERANG_2010,), kinds, games, 4)))
    figures = data["figures"][0]
    assert figures["kind"] == "holdings" and "lead_changes" not in figures and "races" not in figures
    # 12 boomerangs each at the start: the pot always goes to someone, so the mean kept is exactly 12
    assert figures["kept"]["boomerangs"]["mean"] == 12.0
    assert figures["kept"]["boomerangs"]["n"] == 4 * games
    # each of the 54 cards is captured by at most one seat a game
    assert set(figures["cards"]) == {str(n) for n in range(1, 55)}
    assert all(0 <= card["captured_by"] <= games for card in figures["cards"].values())
    assert sum(r["rate"] for r in figures["win_rate_by_position"]) == 1.0


def test_the_figures_do_not_depend_on_the_number_of_jobs():
    settings = Settings((BOOMERANG_2010,), ("random", "greedy", "random"), 110, 9)
    assert report_data(run_simulation(settings, jobs=1)) == report_data(run_simulation(settings, jobs=2))


def test_the_command_takes_a_shipped_name_and_writes_a_report(tmp_path):
    result = CliRunner().invoke(
        main, ["simulate", "boomerang-2010", "--players", "3", "--games", "20", "--report", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert "rounds played" in result.output and "boomerangs kept" in result.output
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["editions"][0]["file"] == "boomerang-2010"
    page = (tmp_path / "report.html").read_text()
    assert "win rate of its capturers" in page and "Lead changes" not in page


def test_a_flow_edition_is_not_compared_with_a_drafting_one():
    result = CliRunner().invoke(main, ["simulate", "boomerang-2010", "australia", "--players", "3", "--games", "5"])
    assert result.exit_code == 2
    assert "one edition scores its rounds and the other not" in result.output
