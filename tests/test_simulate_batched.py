"""`boom simulate` through the batch simulator: the engine's figures, to the last digit, and the fallback named.

rulesengine/simulate/batched.py reads each game's figures from the batch's arrays; the engine's
play_game reads them from its record and sheet. For every shipped edition and variant the batch
plays, at every player count, each game's figures are the engine's (variants in the slow suite);
a whole report (figures, paired comparison, verdict) is the same through either, for one job or
two; a line-up or an edition the batch does not play goes to the engine, which the report and the
command's output name, with the reason.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.simulate import Settings, report_data, run_simulation
from rulesengine.simulate.games import Deal, play_game
from rulesengine.simulate.shards import layout_of

pytest.importorskip("numpy")

from rulesengine.simulate.batched import BATCH, GREEDY_BATCH, engine_reason, play_batch  # noqa: E402

SHIPPED = sorted(EDITIONS.glob("*.yaml")) + sorted((EDITIONS / "variants").glob("*.yaml"))
AUSTRALIA = str(EDITIONS / "australia.yaml")


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_each_games_figures_are_the_engines(path):
    edition = load_edition(path)
    for players in range(edition.players_min, min(edition.players_max, 6) + 1):
        layout = layout_of(edition, ("random",) * players)
        if engine_reason(edition, layout.kinds) is not None:
            return          # tests/test_fast_batch.py names every shipped fallback and its reason
        deals = [Deal(seed, tuple((seat - seed) % players for seat in range(players)), seed % players)
                 for seed in [*range(24), 2**31 - 1]]
        for deal, figures in zip(deals, play_batch(edition, layout, deals), strict=True):
            assert figures == play_game(edition, layout, deal), (players, deal.seed)


def _without_who(data: dict) -> dict:
    return dict(data, editions=[{k: v for k, v in e.items() if k != "played_by"} for e in data["editions"]])


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_report_through_the_batch_is_the_engines(tmp_path, jobs):
    """A house rule against its base, 260 paired games (six shards: a block of several, and a short last one)."""
    rule = tmp_path / "double.yaml"
    rule.write_text(f"extends: {AUSTRALIA}\nid: australia-double\nname: Double throw\n"
                    "categories:\n  - key: throw_catch\n    score: 2 * abs(throw.number - catch.number)\n")
    settings = Settings((AUSTRALIA, str(rule)), ("random",) * 3, 260, 7)
    batched = run_simulation(settings, jobs=jobs)
    assert batched.played_by == (BATCH, BATCH)
    by_engine = run_simulation(settings, jobs=1, engine=True)
    assert by_engine.played_by == ("the engine (--engine)",) * 2
    assert _without_who(report_data(batched)) == _without_who(report_data(by_engine))
    assert [e["played_by"] for e in report_data(batched)["editions"]] == [BATCH, BATCH]


def _last_line(*args) -> str:
    """The command's last sentence, its lines (wrapped at the console's width) joined."""
    result = CliRunner().invoke(main, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split("games/s, local,")[1].split("\n", 1)[1].split())


def test_a_line_up_or_an_edition_the_batch_does_not_play_goes_to_the_engine_which_the_output_names():
    assert _last_line(AUSTRALIA, "--seats", "greedy,random", "-n", "2") == (
        "Played by the engine (the batch plays a line-up of random seats or of greedy seats only, and this one has "
        "greedy, random).")
    assert _last_line(AUSTRALIA, "--seats", "greedy,greedy", "-n", "10") == f"Played by {GREEDY_BATCH}."
    assert _last_line(AUSTRALIA, "--seats", "greedy,greedy", "-n", "9") == (
        "Played by the engine (9 games: the batch pays for numpy's start from 10).")
    rivalry = str(EDITIONS / "variants" / "australia-rivalry.yaml")
    assert _last_line(rivalry, "--seats", "greedy,greedy", "-n", "10") == (
        "Played by the engine (the batch does not play greedy seats valuing 'rivalry', which reads the other seats "
        "one by one).")
    ghosts = str(EDITIONS / "variants" / "australia-ghost-third.yaml")
    assert _last_line(AUSTRALIA, ghosts, "-p", "2", "-n", "200") == (
        f"Played by Boomerang: Australia: {BATCH}; Boomerang: Australia (2 players and a ghost hand): the engine "
        "(the batch does not play ghost hands (they draw from the game's generator as they go)).")
    assert _last_line(AUSTRALIA, "-p", "4", "-n", "200") == f"Played by {BATCH}."
    assert _last_line(AUSTRALIA, "-p", "4", "-n", "200", "--engine") == "Played by the engine (--engine)."
    assert _last_line(AUSTRALIA, "-p", "4", "-n", "199") == (
        "Played by the engine (199 games: the batch pays for numpy's start from 200).")
