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


def _figures(data: dict) -> dict:
    """A report without what the clock decides (its seconds, the pick times' values), the picks counted kept."""
    return dict(data, seconds=None, rungs=[dict(row, pick_ms=row["pick_ms"]["picks"]) for row in data["rungs"]])


def test_a_journal_lets_an_interrupted_ladder_go_on_with_the_same_figures(tmp_path, monkeypatch):
    """A journal cut after three shards, its fourth line half written (as an interruption leaves it): the run
    that reads it plays only the missing shards, drops the half line, and reports what one whole run reports."""
    import rulesengine.simulate.ladder as ladder_module

    whole = run_ladder("australia", ("random", "greedy1"), games=12, seed=3)
    journal = tmp_path / "ladder.jsonl"
    run_ladder("australia", ("random", "greedy1"), games=12, seed=3, journal=journal)
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + 3 * 3   # the header; 12 deals and 12 games a rung in shards of 5: 3 + 3 + 3 shards
    journal.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    played, real = [], ladder_module.map_shards
    monkeypatch.setattr(ladder_module, "map_shards",
                        lambda tasks, *a, **k: played.extend(tasks) or real(tasks, *a, **k))
    counted = []
    again = run_ladder("australia", ("random", "greedy1"), games=12, seed=3, journal=journal, on_games=counted.append)
    assert len(played) == 6 and sum(counted) == 12 * 2 + 12 * 2   # every game counted once: 24 paired, 24 vs greedy
    assert _figures(again) == _figures(whole)
    assert len(journal.read_text().splitlines()) == 1 + 9 and journal.read_text().endswith("\n")
    played.clear()
    assert _figures(run_ladder("australia", ("random", "greedy1"), games=12, seed=3, journal=journal)) == \
        _figures(whole) and played == []   # a finished ladder's journal: nothing played again


def test_a_journal_of_another_ladder_is_refused_saying_what_differs(tmp_path):
    journal = tmp_path / "ladder.jsonl"
    run_ladder("australia", ("random", "greedy1"), games=1, seed=3, journal=journal)
    result = CliRunner().invoke(main, ["ladder", "australia", "--rungs", "random,greedy1", "--games", "1",
                                       "--seed", "4", "--journal", str(journal)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{journal}:1: the journal of another ladder (seed 3 there, 4 here)" in " ".join(result.output.split())
    (tmp_path / "notes.txt").write_text("my notes\n")
    result = CliRunner().invoke(main, ["ladder", "australia", "--games", "1", "--journal", str(tmp_path / "notes.txt")])
    assert result.exit_code == 2 and "notes.txt:1: not a ladder's journal" in " ".join(result.output.split())
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"   # never overwritten


def test_a_journal_edited_by_hand_is_one_clear_error(tmp_path):
    """A shard's result that is not numbers is refused at its line; a shard no task of the ladder has, by its key."""
    journal = tmp_path / "ladder.jsonl"
    run_ladder("australia", ("random", "greedy1"), games=1, seed=3, journal=journal)
    header, *shards = journal.read_text().splitlines()
    arguments = ["ladder", "australia", "--rungs", "random,greedy1", "--games", "1", "--seed", "3", "--journal",
                 str(journal)]
    journal.write_text("\n".join([header, shards[0], '{"shard":["pair",1,0],"result":["five",10]}']) + "\n")
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{journal}:3: not a shard of a ladder's journal" in " ".join(result.output.split())
    journal.write_text("\n".join([header, *shards, '{"shard":["pair",7,0],"result":[1.0,2]}']) + "\n")
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2
    assert "the shard ['pair', 7, 0] is not one of this ladder's" in " ".join(result.output.split())
