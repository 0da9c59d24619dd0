"""`boom simulate` through the generated game where the batch does not play: the engine's figures, named.

Random seats on an edition the batch simulator lacks a part of (the score sheet so far, choices
allowed twice) or too few games for numpy's start: rulesengine/simulate/generated.py plays them
through the generated whole game, whose record, sheet and options per decision are the engine's
(tests/test_compiled_game.py). Each game's figures are the engine's, with the bots rotated as a
simulation seats them; a whole report is the same as the engine's; the output says who played.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.simulate import Settings, report_data, run_simulation
from rulesengine.simulate.games import Deal, play_game
from rulesengine.simulate.generated import play_generated
from rulesengine.simulate.shards import layout_of

AUSTRALIA = str(EDITIONS / "australia.yaml")
CATCH_UP = str(EDITIONS / "variants" / "australia-catch-up.yaml")


@pytest.mark.parametrize("name", ["australia.yaml", "variants/australia-catch-up.yaml",
                                  "variants/australia-activities-twice.yaml", "usa.yaml"])
def test_each_games_figures_are_the_engines(name):
    edition = load_edition(EDITIONS / name)
    for players in (2, 4):
        layout = layout_of(edition, ("random",) * players)
        deals = [Deal(seed, tuple((seat - seed) % players for seat in range(players)), seed % players)
                 for seed in [*range(16), 2**31 - 1]]
        for deal, figures in zip(deals, play_generated(edition, layout, deals), strict=True):
            assert figures == play_game(edition, layout, deal), (players, deal.seed)


def _without_who(data: dict) -> dict:
    return dict(data, editions=[{k: v for k, v in e.items() if k != "played_by"} for e in data["editions"]])


def test_a_report_through_the_generated_game_is_the_engines():
    """Catch-up (the batch does not hand the sheet so far: the generated game plays it) against its base (the
    batch plays it), 200 paired games: the engine's report."""
    settings = Settings((AUSTRALIA, CATCH_UP), ("random",) * 3, 200, 5)
    generated = run_simulation(settings, jobs=1)
    assert generated.played_by[1] == (
        "the generated game (rulesengine/compiled; the batch does not play the score sheet so far (totals) in "
        "'catch_up')")
    by_engine = run_simulation(settings, jobs=1, engine=True)
    assert _without_who(report_data(generated)) == _without_who(report_data(by_engine))


def test_the_output_says_who_played():
    said = _last_line(CATCH_UP, "-p", "3", "-n", "200")
    assert said == ("Played by the generated game (rulesengine/compiled; the batch does not play the score sheet "
                    "so far (totals) in 'catch_up').")
    assert _last_line(CATCH_UP, "-p", "3", "-n", "199") == (
        "Played by the engine (199 games: the batch pays for numpy's start from 200).")
    assert _last_line(AUSTRALIA, "--seats", "greedy,random", "-n", "2") == (
        "Played by the engine (the batch plays a line-up of random seats or of greedy seats only, and this one has "
        "greedy, random).")


def _last_line(*args) -> str:
    """The command's last sentence, its lines (wrapped at the console's width) joined."""
    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split("games/s, local,")[1].split("\n", 1)[1].split())
