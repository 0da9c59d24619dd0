"""`boom simulate`: figures checked against the games played directly, paired comparison, reports, errors."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine import Game, load_edition
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.loop import play
from rulesengine.simulate import Settings, report_data, run_simulation
from rulesengine.simulate.figures import WIN_UNIT, game_figures
from rulesengine.simulate.shards import game_seed
from rulesengine.simulate.source import EditionSource

AUSTRALIA = str(EDITIONS / "australia.yaml")
HANDICAP = str(EDITIONS / "variants" / "australia-handicap.yaml")


def doubled_throw_catch(tmp_path):
    """A house rule known to matter: Throw & Catch scores twice as much."""
    path = tmp_path / "double.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\nid: australia-double\nname: Double throw\n"
        "categories:\n  - key: throw_catch\n    score: 2 * abs(throw.number - catch.number)\n"
    )
    return str(path)


def test_figures_equal_a_direct_computation_from_the_records(australia):
    kinds, games, seed = ("random", "greedy", "random"), 7, 5
    simulation = run_simulation(Settings((AUSTRALIA,), kinds, games, seed))
    totals, wins_by_position, wins_by_entry, thrown, caught, ties = (
        Counter(),
        [0.0] * 3,
        [0.0] * 3,
        Counter(),
        Counter(),
        0,
    )
    collections = Counter()
    for g in range(games):
        s = game_seed(seed, g)
        entry_at = [(seat - g) % 3 for seat in range(3)]
        game = play(
            Game(australia, ["P1", "P2", "P3"], s),
            [make_bot(kinds[entry_at[seat]], australia, agent_seed(s, seat)) for seat in range(3)],
        )
        record, sheet = game.record(), game.scores.sheet()
        best = max(p["total"] for p in sheet["players"])
        ties += sum(p["total"] == best for p in sheet["players"]) > 1
        for seat, row in enumerate(sheet["players"]):
            totals[row["total"]] += 1
            collections[row["categories"]["collections"]] += 1
            if row["name"] in sheet["winners"]:
                wins_by_position[seat] += 1 / len(sheet["winners"])
                wins_by_entry[entry_at[seat]] += 1 / len(sheet["winners"])
        for round_data in record["rounds"]:
            for letters in round_data["drafts"].values():
                thrown[letters[0]] += 1
                caught[letters[-1]] += 1
    tally = simulation.tallies[0]
    assert tally.games == games
    assert tally.points["total"] == totals
    assert tally.points["collections"] == collections
    assert [w / WIN_UNIT for w in tally.wins_by_position] == pytest.approx(wins_by_position)
    assert [w / WIN_UNIT for w in tally.wins_by_entry] == pytest.approx(wins_by_entry)
    assert {letter: counts[0] for letter, counts in tally.cards.items() if counts[0]} == dict(thrown)
    assert {letter: counts[2] for letter, counts in tally.cards.items() if counts[2]} == dict(caught)
    assert tally.ties == ties
    figures = report_data(simulation)["figures"][0]
    assert figures["total"]["mean"] == round(sum(v * c for v, c in totals.items()) / (3 * games), 4)
    assert figures["total"]["n"] == 3 * games


def test_game_figures_by_hand():
    # Three rounds; Ana leads after round 1, Ben after round 2 (a lead change), Ana and Ben tie
    # on 30 at the end and the tie-break (throw_catch) gives it to Ana: the late leader Ben loses.
    rounds = [
        {"Ana": {"tc": 10, "race": 0}, "Ben": {"tc": 2, "race": 0}, "Cy": {"tc": 1, "race": 0}},
        {"Ana": {"tc": 5, "race": 0}, "Ben": {"tc": 3, "race": 15}, "Cy": {"tc": 0, "race": 0}},
        {"Ana": {"tc": 15, "race": 0}, "Ben": {"tc": 10, "race": 0}, "Cy": {"tc": 4, "race": 3}},
    ]
    sheet = {
        "players": [
            {"name": "Ana", "total": 30, "categories": {"tc": 30, "race": 0}},
            {"name": "Ben", "total": 30, "categories": {"tc": 15, "race": 15}},
            {"name": "Cy", "total": 8, "categories": {"tc": 5, "race": 3}},
        ],
        "winners": ["Ana"],
        "decided_by": {"key": "tc", "winner": 30, "runner_up": 15},
    }
    drafts = {"Ana": ["A", "B", "C"], "Ben": ["D", "E", "F"], "Cy": ["G", "H", "I"]}
    record = {"players": ["Ana", "Ben", "Cy"], "rounds": [{"drafts": drafts, "choices": {}}] * 3}
    for row in sheet["players"]:
        row["rounds"] = [points[row["name"]] for points in rounds]
    figures = game_figures(record, sheet, ("tc", "race"), ("race",))
    assert figures.totals == (30, 30, 8)
    assert figures.points == ((30, 0), (15, 15), (5, 3))
    assert figures.wins == (WIN_UNIT, 0, 0)
    assert (figures.margin, figures.tied, figures.decided_by) == (0, True, "tc")
    assert (figures.lead_changes, figures.late_leader_lost) == (1, 1)
    # Ana trailed Ben by 20 - 15 = 5 after round 2; only after the last round does a winner lead alone
    assert (figures.drama, figures.decisive_round) == (5, 3)
    assert figures.race_rounds == ((2, 3),)
    assert (
        figures.thrown[0] == ("A", "A", "A")
        and figures.taken_first[1] == ("E", "E", "E")
        and figures.caught[2] == ("I", "I", "I")
    )


def test_the_figures_do_not_depend_on_the_number_of_jobs():
    settings = Settings((AUSTRALIA,), ("random", "random", "greedy"), 120, 3)
    one, two = run_simulation(settings, jobs=1), run_simulation(settings, jobs=2)
    assert report_data(one) == report_data(two)


def test_a_doubled_category_is_flagged_and_an_edition_against_itself_is_not(tmp_path):
    kinds = ("random",) * 4
    same = report_data(run_simulation(Settings((AUSTRALIA, AUSTRALIA), kinds, 60, 1)))["comparison"]
    assert same["flagged"] == []
    assert {m["difference"] for m in same["measures"].values()} == {0}
    changed = report_data(run_simulation(Settings((AUSTRALIA, doubled_throw_catch(tmp_path)), kinds, 60, 1)))[
        "comparison"
    ]
    measures = changed["measures"]
    # random bots do not look at the scores: the same games are played, only Throw & Catch doubles
    assert measures["points.throw_catch"]["second"] == pytest.approx(
        2 * measures["points.throw_catch"]["first"], abs=1e-4
    )
    assert measures["points.collections"]["difference"] == 0
    assert measures["share.throw_catch"]["flagged"] and measures["points.throw_catch"]["flagged"]
    assert not measures["points.collections"]["flagged"]
    assert any(
        line.startswith("the share of the points from Throw & Catch ") and "percentage points, 95% CI" in line
        for line in changed["flagged"]
    )


class _Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sources = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.sources.append(dict(attrs)["src"])


def test_report_files_are_written_and_the_json_is_deterministic(tmp_path):
    runner = CliRunner()
    args = ["simulate", AUSTRALIA, doubled_throw_catch(tmp_path), "-p", "3", "-n", "30", "--seed", "9", "-j", "1"]
    first = runner.invoke(main, [*args, "--report", str(tmp_path / "a")])
    second = runner.invoke(main, [*args, "--report", str(tmp_path / "b")])
    assert first.exit_code == 0 and second.exit_code == 0, first.output
    opening = "Verdict\n  On the same 30 deals, Double throw against Boomerang: Australia"
    assert first.output.lstrip().startswith(opening)
    assert "Double throw against Boomerang: Australia (30 paired games)" in first.output
    assert (tmp_path / "a" / "report.json").read_bytes() == (tmp_path / "b" / "report.json").read_bytes()
    data = json.loads((tmp_path / "a" / "report.json").read_text())
    assert [e["id"] for e in data["editions"]] == ["australia", "australia-double"]
    assert (
        all(len(e["sha256"]) == 64 for e in data["editions"])
        and data["editions"][0]["sha256"] != data["editions"][1]["sha256"]
    )
    assert data["settings"]["seats"] == ["random"] * 3 and data["settings"]["seed"] == 9
    page = (tmp_path / "a" / "report.html").read_text()
    images = _Images()
    images.feed(page)
    assert len(images.sources) == 5
    assert page.index('class="verdict"') < page.index("<img")  # the page opens with the verdict
    for source in images.sources:
        assert source.startswith("data:image/png;base64,")
        assert base64.b64decode(source.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in page and "https://" not in page
    assert "paired large-sample t-test" in page


def test_json_output_is_the_report():
    result = CliRunner().invoke(
        main, ["simulate", AUSTRALIA, "--seats", "random,greedy", "-n", "3", "--format", "json", "-j", "1"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["settings"] == {
        "games": 3,
        "players": 2,
        "seats": ["random", "greedy"],
        "seed": 0,
        "game_seeds": data["settings"]["game_seeds"],
    }
    assert data["figures"][0]["games"] == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["-p", "3", "-n", "0"], "Invalid value for --games: play at least one game, not 0"),
        (
            ["-p", "3", "--seats", "random,wizard"],
            "Invalid value for --seats: unknown seat kind 'wizard' (kinds: random, greedy1, greedy, search, ismcts, "
            "blend, guided; a budget as search:ROLLOUTS, blend:ROLLOUTS, ismcts:ITERATIONS or guided:ITERATIONS)",
        ),
        (["-p", "5"], "Invalid value for --players: Boomerang: Australia is for 2 to 4 players, not 5"),
        (["-p", "0"], "Invalid value for '--players' / '-p': 0 is not a number of players from 1 to 12"),
        (["-p", "2", "--seats", "random,random,random"], "Invalid value for --seats: 3 seats given for 2 players"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(args, message):
    result = CliRunner().invoke(main, ["simulate", AUSTRALIA, *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_seat_option_is_set_for_a_seat_of_every_game():
    """--seat-option P1.handicap=50 (the name read without regard to case): seat 1 of each of the 8 games has a
    handicap line of 50, the three others 0, so the line's mean over the 32 seats is 50 / 4 = 12.5 exactly; the
    engine plays the games (the batch and the generated game play every option at its default) and the report
    says what was set."""
    result = CliRunner().invoke(main, ["simulate", HANDICAP, "-p", "4", "-n", "8", "--seat-option", "p1.handicap=50",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    handicap = data["figures"][0]["categories"]["handicap"]["points"]
    assert (handicap["n"], handicap["mean"], handicap["histogram"]) == (32, 12.5, [[0, 24], [50, 8]])
    assert data["settings"]["seat_options"] == {"P1": {"handicap": 50}}
    assert data["editions"][0]["played_by"].startswith("the engine (--seat-option")
    unset = CliRunner().invoke(main, ["simulate", HANDICAP, "-p", "4", "-n", "8", "--format", "json"])
    unset = json.loads(unset.output)
    assert unset["figures"][0]["categories"]["handicap"]["points"]["mean"] == 0
    assert "seat_options" not in unset["settings"]


@pytest.mark.parametrize(
    "edition, args, message",
    [
        (HANDICAP, ["--seat-option", "Ana.handicap=5"],
         "Invalid value for --seat-option: no player is named 'Ana' (players: P1, P2, P3)"),
        (HANDICAP, ["--seat-option", "P2.handicap=99"],
         "Invalid value for --seat-option: P2's handicap must be a whole number from -50 to 50, not 99"),
        (HANDICAP, ["--seat-option", "P2.handicap=x"],
         "Invalid value for --seat-option: 'P2.handicap=x': the value of a seat option is a whole number, not 'x'"),
        (HANDICAP, ["--seat-option", "P2=3"],
         "Invalid value for --seat-option: 'P2=3' is not NAME.OPTION=NUMBER (e.g. Ana.handicap=-5)"),
        (AUSTRALIA, ["--seat-option", "P1.handicap=5"],
         "Invalid value for --seat-option: Boomerang: Australia has no seat option 'handicap' (its seat options: "
         "none)"),
        (HANDICAP, ["--seat-option", "P1.handicap=5", "--chance"],
         "--seat-option sets the games of the line-up; --depth and --chance play every seat option at its default"),
    ],
)
def test_a_bad_seat_option_exits_2_with_the_message_of_boom_run(edition, args, message):
    result = CliRunner().invoke(main, ["simulate", edition, "-p", "3", "-n", "4", *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_an_unwritable_report_folder_exits_2_before_any_game(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("")
    result = CliRunner().invoke(
        main, ["simulate", AUSTRALIA, "-p", "2", "-n", "5", "--report", str(blocker / "report")]
    )
    assert result.exit_code == 2
    assert (
        f"Invalid value for --report: cannot write the report in '{blocker / 'report'}': Not a directory"
        in result.output
    )


def test_a_report_without_matplotlib_says_in_one_line_which_extra_to_install(tmp_path):
    """The base install has no matplotlib (the `report` extra): --report says so before any game, exit 2."""
    hidden = "import sys; sys.modules['matplotlib'] = None; from cli.main import main; main()"
    folder = tmp_path / "balance"
    done = subprocess.run([sys.executable, "-c", hidden, "simulate", AUSTRALIA, "-p", "2", "-n", "5",
                           "--report", str(folder)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("error: --report draws its plots with matplotlib, which the base install leaves out: "
                           "pip install 'boomerang-rules[report]'\n")
    assert not folder.exists()


def test_the_ray_backend_gives_the_local_figures(monkeypatch):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'boomerang-rules[ray]')")
    from rulesengine.simulate import ray_backend

    monkeypatch.setattr(ray_backend, "SHARDS_PER_TASK", 1)  # three tasks for 120 games
    settings = Settings((AUSTRALIA, AUSTRALIA), ("random", "random"), 120, 4)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_simulation(settings, backend="ray")
    finally:
        ray.shutdown()
    assert report_data(on_ray) == report_data(run_simulation(settings, jobs=1))


def test_a_second_edition_with_other_rules_plays_on_the_same_seeds(tmp_path):
    simulation = run_simulation(Settings((AUSTRALIA, doubled_throw_catch(tmp_path)), ("random", "random"), 10, 2))
    first, second = simulation.tallies
    # the same cards were thrown, taken first, caught and drafted; only who won with them changes
    assert {k: v[:4] for k, v in first.cards.items()} == {k: v[:4] for k, v in second.cards.items()}
    assert first.cards != second.cards
    assert (first.layout.edition, second.layout.edition) == (load_edition(AUSTRALIA).id, "australia-double")


def test_an_edition_travels_as_text_and_hash_and_compiles_in_the_worker(tmp_path):
    source = EditionSource.read(doubled_throw_catch(tmp_path))
    assert "extends" not in json.loads(source.text)  # the base edition is resolved into the text
    assert source.sha256 == hashlib.sha256(source.text.encode()).hexdigest()
    edition = source.compile()
    assert (edition.id, edition.sheet_keys) == ("australia-double", load_edition(AUSTRALIA).sheet_keys)
    assert edition.categories[0].score.text.strip() == "2 * abs(throw.number - catch.number)"
    tampered = EditionSource(source.name, source.text.replace("2 *", "3 *"), source.sha256)
    with pytest.raises(ValueError, match="does not match its hash"):
        tampered.compile()


def test_a_rule_that_fails_in_a_worker_is_reported_in_the_editions_own_file(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\nid: broken\nname: Broken\ncategories:\n"
        "  - key: throw_catch\n    score: 10 // (throw.number - catch.number)\n"
    )
    result = CliRunner().invoke(main, ["simulate", str(path), "-p", "2", "-n", "60", "-j", "2"])
    assert result.exit_code == 1
    assert f"{path}:6:12: error: division by zero (round " in result.output   # which round: the bots' draws
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_a_report_file_that_is_a_folder_is_refused_before_any_game(tmp_path):
    (tmp_path / "report.json").mkdir()
    result = CliRunner().invoke(main, ["simulate", AUSTRALIA, "-p", "2", "-n", "5", "--report", str(tmp_path)])
    assert result.exit_code == 2
    assert f"cannot write {tmp_path / 'report.json'}: it is a folder, not a regular file" in result.output
