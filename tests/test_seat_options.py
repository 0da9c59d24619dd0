"""Seat options (issue #29): numbers the edition declares with a default, the table sets seat by seat and
expressions read as `options.KEY`. The handicap house rule (editions/variants/australia-handicap.yaml) is
scored on a round computed by hand and against the hand scorer, with each runner; the table's values go
through `boom run --seat-option`, the save, `boom resume` and the log's `replay --verify`; every bad
value is one located error."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine import Game, load_edition
from rulesengine.bots.registry import GreedyAgent, RandomAgent, agent_seed
from rulesengine.edition.loader import check_edition
from rulesengine.edition.seat_options import parse, seat_values
from rulesengine.errors import GameRuleError
from rulesengine.game.loop import play
from rulesengine.game.program import RUNNERS
from rulesengine.game.saves import Session, resume
from rulesengine.game.scoring import ScoreKeeper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from handscorers import australia as hand_australia  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HANDICAP = ROOT / "editions" / "variants" / "australia-handicap.yaml"
# tests/test_sheet_variables.py's hand round: Ann 28 points, Bob 15, Cat 18, each with 7 sites visited
HAND = ["HMZABCD", "IEFGJKL", "NOPQRST"]
PLAYERS = ["Ann", "Bob", "Cat"]


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_handicap_is_added_at_game_end(runner):
    edition = load_edition(HANDICAP, runner=runner)
    scores = ScoreKeeper(edition, PLAYERS, seat_values(edition, PLAYERS, {"Ann": {"handicap": -5},
                                                                          "Cat": {"handicap": 7}}))
    scores.score_round([[edition.card(x) for x in hand] for hand in HAND], [{} for _ in PLAYERS])
    scores.finish()
    assert [points["handicap"] for points in scores.end_scores] == [-5, 0, 7]   # Bob's: the default
    # 28 + 7 sites - 5, 15 + 7 + 0, 18 + 7 + 7: the handicap turns the winner from Ann to Cat
    assert [scores.total(seat) for seat in range(3)] == [30, 22, 32]
    assert scores.sheet()["winners"] == ["Cat"]
    plain = ScoreKeeper(edition, PLAYERS)   # nothing set: every seat at the default, 0
    plain.score_round([[edition.card(x) for x in hand] for hand in HAND], [{} for _ in PLAYERS])
    plain.finish()
    assert [plain.total(seat) for seat in range(3)] == [35, 22, 25]


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_round_line_and_a_choice_read_the_seat_options(runner, tmp_path):
    """`options` in a round category and a choice's requires (the compiled round reads it from the sheet input)."""
    house = tmp_path / "head-start.yaml"
    house.write_text(f"""extends: {HANDICAP}
id: head-start
name: Head start
categories:
  - key: head_start
    title: Head start
    score: if round == 1 then 2 * options.handicap else 0
  - key: activities
    choice:
      from: activity
      requires: count(choice, cards) > 0 and options.handicap >= 0
""", encoding="utf-8")
    edition = load_edition(house, runner=runner)
    values = seat_values(edition, PLAYERS, {"Ann": {"handicap": -5}, "Cat": {"handicap": 4}})
    scores = ScoreKeeper(edition, PLAYERS, values)
    drafts = [[edition.card(x) for x in hand] for hand in HAND]
    activities = edition.choice_categories[0]
    assert scores.choice_options(0, activities, drafts) == []          # Ann's handicap is below 0
    assert scores.choice_options(2, activities, drafts) != []
    scores.score_round(drafts, [{} for _ in PLAYERS])
    assert [points["head_start"] for points in scores.rounds[0] + scores.rounds[1] + scores.rounds[2]] == [-10, 0, 8]


@pytest.mark.parametrize("runner", RUNNERS)
def test_handicaps_against_the_hand_scorer(runner):
    """Every line but the handicap is the hand scorer's, and the total is its total plus the handicap."""
    edition = load_edition(HANDICAP, runner=runner)
    for seed in range(40):
        players = PLAYERS[: 2 + seed % 3]
        rng = random.Random(seed)
        given = {name: {"handicap": rng.randint(-50, 50)} for name in players if rng.random() < 0.7}
        game = Game(edition, players, seed, seat_options=given)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(len(players))])
        sheet, expected = game.scores.sheet(), hand_australia.score(game.record())
        for mine, theirs in zip(sheet["players"], expected["players"], strict=True):
            handicap = given.get(mine["name"], {}).get("handicap", 0)
            categories = dict(mine["categories"])
            assert categories.pop("handicap") == handicap
            assert mine["rounds"] == theirs["rounds"], seed
            assert mine["total"] == theirs["total"] + handicap, seed


def test_greedy_bots_read_the_handicaps_alike_with_either_runner():
    def game(runner):
        edition = load_edition(HANDICAP, runner=runner)
        return play(Game(edition, PLAYERS, 4, seat_options={"Bob": {"handicap": 12}}),
                    [GreedyAgent(agent_seed(4, s), edition) for s in range(3)])
    compiled, reference = game("compiled"), game("reference")
    assert reference.decisions == compiled.decisions
    assert reference.scores.sheet() == compiled.scores.sheet()
    assert compiled.view(0)["seat_options"] == {"Ann": {"handicap": 0}, "Bob": {"handicap": 12},
                                                "Cat": {"handicap": 0}}


def test_an_edition_without_seat_options_has_no_view_entry():
    game = Game(load_edition(ROOT / "editions" / "australia.yaml"), PLAYERS, 1)
    assert "seat_options" not in game.view(0)


def test_values_the_edition_does_not_take_are_each_refused():
    edition = load_edition(HANDICAP)
    with pytest.raises(GameRuleError) as caught:
        Game(edition, PLAYERS, 1, seat_options={"Ann": {"handicap": 51}, "Zed": {"handicap": 1},
                                                 "Bob": {"handcap": 1}})
    assert [(d.code, d.message) for d in caught.value.diagnostics] == [
        ("G607", "Ann's handicap must be a whole number from -50 to 50, not 51"),
        ("G607", "no player is named 'Zed' (players: Ann, Bob, Cat)"),
        ("G607", "Boomerang: Australia (handicap) has no seat option 'handcap' (its seat options: handicap)"),
    ]


def test_the_command_line_texts_are_parsed_or_refused():
    assert parse(["Ana.handicap=-5", "Mr. B.handicap= 3"]) == {"Ana": {"handicap": -5}, "Mr. B": {"handicap": 3}}
    for text, message in [("Ana=3", "is not NAME.OPTION=NUMBER"), ("Ana.handicap=x", "a whole number, not 'x'"),
                          ("Ana.handicap=1.5", "a whole number")]:
        with pytest.raises(ValueError, match=message):
            parse([text])
    with pytest.raises(ValueError, match="given twice"):
        parse(["Ana.handicap=1", "Ana.handicap=2"])


def test_the_declaration_is_checked(tmp_path):
    def problems(options: str):
        path = tmp_path / "house.yaml"
        path.write_text(f"extends: {HANDICAP}\nid: house\nname: House\nseat_options:\n{options}", encoding="utf-8")
        return [(d.code, d.message) for d in check_edition(path)[1] if d.severity == "error"]

    assert problems("  handicap: {default: 60}\n") == [
        ("M341", "the default of the seat option 'handicap' (60) is outside its range -50..50")]
    assert problems("  handicap: {minimum: 5, maximum: 1}\n") == [
        ("M341", "the seat option 'handicap' has a minimum (5) above its maximum (1)")]
    assert [code for code, _ in problems("  handicap: {default: 1.5}\n")] == ["S103"]   # a whole number
    house = tmp_path / "typo.yaml"
    house.write_text(f"extends: {HANDICAP}\nid: typo\nname: Typo\ncategories:\n  - key: handicap\n"
                     "    score: options.handicapp\n", encoding="utf-8")
    found = [(d.code, d.message, d.hint) for d in check_edition(house)[1] if d.severity == "error"]
    assert found == [("D204", "no seat option 'handicapp'", "did you mean 'handicap'?")]


def test_run_save_resume_and_replay_keep_what_the_table_set(tmp_path):
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    result = invoke("run", HANDICAP, "-p", 3, "--seed", 8, "--seat-option", "ana.handicap=-5,Cy.handicap=3",
                    "--save", save, "--log", log, "-q")
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text().splitlines()[0])
    assert header["seat_options"] == {"Ana": {"handicap": -5}, "Cy": {"handicap": 3}}
    assert json.loads(save.read_text())["seat_options"] == header["seat_options"]
    assert "replay identically" in invoke("replay", log, "--verify").output
    resumed = resume(save, seat_kinds=["random", "human"])
    assert resumed.game.seat_options == header["seat_options"]
    assert [p["categories"]["handicap"] for p in resumed.game.scores.sheet()["players"]] == [-5, 0, 3]
    # a header whose value the edition does not take: located at the field, no traceback
    save.write_text(save.read_text().replace('"handicap": -5', '"handicap": 99'))
    result = invoke("resume", save)
    assert result.exit_code == 1
    assert "game.json:" in result.output and "Ana's handicap must be a whole number from -50 to 50, not 99" \
        in result.output


def test_a_session_without_seat_options_writes_the_header_as_before(tmp_path):
    session = Session.start(str(ROOT / "editions" / "australia.yaml"), ["Ana", "Ben"], ["random", "random"], 3)
    assert "seat_options" not in session.header()


@pytest.mark.parametrize("args, message", [
    (["--seat-option", "Ana.handicap=-51"], "Ana's handicap must be a whole number from -50 to 50, not -51"),
    (["--seat-option", "Zed.handicap=1"], "no player is named 'Zed'"),
    (["--seat-option", "Ana.handicap"], "is not NAME.OPTION=NUMBER"),
])
def test_bad_seat_options_on_the_command_line(args, message):
    result = invoke("run", HANDICAP, "-p", 3, "-q", *args)
    assert result.exit_code == 2
    assert message in result.output


def test_the_score_pad_reads_the_record_s_seat_options_and_the_command_line_s(tmp_path):
    record = tmp_path / "game.yaml"
    assert invoke("run", HANDICAP, "-p", 3, "--seed", 8, "--seat-option", "Ana.handicap=-5", "--save-record",
                  record, "-q").exit_code == 0
    def handicaps(*args):
        result = invoke("score", "--record", record, "--format", "json", *args)
        assert result.exit_code == 0, result.output
        return [p["categories"]["handicap"] for p in json.loads(result.output)["players"]]
    assert handicaps() == [-5, 0, 0]
    assert handicaps("--seat-option", "Ben.handicap=10") == [-5, 10, 0]
    record.write_text(record.read_text().replace("handicap: -5", "handicap: -500"))
    result = invoke("score", "--record", record)
    assert result.exit_code == 1
    assert "game.yaml:" in result.output and "Ana's handicap must be a whole number from -50 to 50, not -500" \
        in result.output
