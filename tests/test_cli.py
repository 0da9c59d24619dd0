"""The command line as a user meets it: located errors, exit codes, no tracebacks, and run → score."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def broken_edition(tmp_path, old, new):
    text = AUSTRALIA.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_validate_ok():
    result = invoke("validate", AUSTRALIA)
    assert result.exit_code == 0
    assert (
        result.output.strip()
        == f"{AUSTRALIA}: ok: Boomerang: Australia, 28 cards, 5 categories, 1 race, 0 reconstructed facts"
    )


# (old text, new text, expected "line:col: error: message" fragment)
BROKEN = [
    (
        "score: abs(throw.number - catch.number)",
        "score: abs(throw.number - cach.number)",
        "78:31: error: unknown name 'cach'",
    ),
    (
        "score: abs(throw.number - catch.number)",
        "score: abs(throw.number - catch.numbr)",
        "78:31: error: a card has no attribute 'numbr'",
    ),
    ("score: abs(throw.number - catch.number)", "score: abs(throw.number - )", "78:31: error: syntax: unexpected ')'"),
    (
        "score: abs(throw.number - catch.number)",
        "score: abs(throw.number, catch.number)",
        "78:12: error: 'abs' takes 1 argument, got 2",
    ),
    (
        "score: abs(throw.number - catch.number)",
        "score: abs(throw - catch.number)",
        "78:16: error: '-' needs numbers, got card",
    ),
    (
        "score: abs(throw.number - catch.number)",
        "score: throw.number > 3",
        "78:12: error: this expression gives true/false, but number is needed here",
    ),
    ("icons(cards, collection)]);", "icons(cards, colection)]);", "85:55: error: unknown name 'colection'"),
    ("icons: [Souvenirs, Bushwalking]", "icons: [Souvenir, Bushwalking]", "52:87: error: unknown icon 'Souvenir'"),
    (
        "region: Queensland, number: 6, icons: [Souvenirs",
        "region: Queenslan, number: 6, icons: [Souvenirs",
        "52:56: error: unknown region 'Queenslan'",
    ),
    ("hand_size: 7", "hand_size: 8", "16:12: error: 4 players need 32 cards"),
    ("hand_size: 7", "hand_sise: 7", "16:1: error: unknown key 'hand_sise'"),
    (
        "tie_breaks: [throw_catch]",
        "tie_breaks: [throw_and_catch]",
        "124:14: error: unknown category or race 'throw_and_catch'",
    ),
    (
        "qualifies: subset(region.cards, visited)",
        "qualifies: subset(region.cards, 3)",
        "121:37: error: argument 2 of 'subset': expected a list, got number",
    ),
    ("  collection:\n", "  collection:\n  collection:\n", "23:3: error: duplicate key 'collection'"),
    ("rounds: 4", "rounds: [4", "16:10: error: YAML syntax"),
]


@pytest.mark.parametrize("old, new, expected", BROKEN, ids=[b[2].split("error: ")[1][:40] for b in BROKEN])
def test_validate_reports_the_mistake_at_its_position(tmp_path, old, new, expected):
    path = broken_edition(tmp_path, old, new)
    result = invoke("validate", path)
    assert result.exit_code == 1
    assert f"{path}:{expected}" in result.output


def test_validate_shows_the_line_a_caret_and_a_hint(tmp_path):
    path = broken_edition(tmp_path, "score: abs(throw.number - catch.number)", "score: abs(throw.number - cach.number)")
    lines = invoke("validate", path).output.splitlines()
    assert lines[0] == f"{path}:78:31: error: unknown name 'cach' [D202]"
    assert lines[1] == "        score: abs(throw.number - cach.number)"
    assert lines[2] == "                                  ^~~~"
    assert lines[3] == "    hint: did you mean 'catch'?"


def test_validate_reports_every_error_at_once(tmp_path):
    path = broken_edition(tmp_path, "score: abs(throw.number - catch.number)", "score: abs(throw.number - cach.number)")
    text = path.read_text().replace("icons: [Souvenirs, Bushwalking]", "icons: [Souvenir, Bushwalking]")
    path.write_text(text)
    output = invoke("validate", path).output
    assert ":78:31: error: unknown name 'cach'" in output
    assert ":52:87: error: unknown icon 'Souvenir'" in output
    assert "2 errors" in output


def test_validate_json_format(tmp_path):
    path = broken_edition(tmp_path, "score: abs(throw.number - catch.number)", "score: abs(throw.number - cach.number)")
    result = invoke("validate", "--format", "json", path)
    assert result.exit_code == 1
    [diagnostic] = json.loads(result.output)
    assert diagnostic == {
        "file": str(path),
        "line": 78,
        "col": 31,
        "end_line": 78,
        "end_col": 35,
        "severity": "error",
        "code": "D202",
        "message": "unknown name 'cach'",
        "hint": "did you mean 'catch'?",
        "notes": [],
    }


def test_validate_missing_file_and_non_mapping(tmp_path):
    result = invoke("validate", tmp_path / "nope.yaml")
    assert result.exit_code == 2
    assert f"Invalid value for 'EDITION...': no file '{tmp_path / 'nope.yaml'}'" in result.output
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    result = invoke("validate", tmp_path / "list.yaml")
    assert result.exit_code == 1 and "must be a YAML mapping" in result.output


def test_run_save_record_then_score_gives_the_same_totals(tmp_path):
    record = tmp_path / "game.yaml"
    result = invoke("run", AUSTRALIA, "--players", 4, "--seed", 3, "--save-record", record)
    assert result.exit_code == 0, result.output
    final = [line for line in result.output.splitlines() if line.startswith("Winner") or line.startswith("Shared")]
    assert final
    scored = invoke("score", AUSTRALIA, "--record", record, "--format", "json")
    assert scored.exit_code == 0
    sheet = json.loads(scored.output)
    assert sorted(sheet) == ["decided_by", "players", "ranking", "winners"]
    assert set(sheet["players"][0]["categories"]) == {
        "throw_catch",
        "collections",
        "animals",
        "activities",
        "sites",
        "regions",
    }
    for player in sheet["players"]:
        assert f"{player['total']}" in result.output
        assert player["total"] == sum(player["categories"].values())


def test_run_is_replayable_from_its_seed():
    first = invoke("run", AUSTRALIA, "--players", 3, "--seed", 12)
    second = invoke("run", AUSTRALIA, "--players", 3, "--seed", 12)
    assert first.output == second.output


def test_run_rejects_a_bad_player_count_as_a_usage_error_with_the_edition_s_range():
    result = invoke("run", AUSTRALIA, "--players", 5)
    assert result.exit_code == 2
    assert "Invalid value for --players: Boomerang: Australia is for 2 to 4 players, not 5" in result.output


def test_human_seat_plays_from_piped_input_and_end_of_input_stops_cleanly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["run", str(AUSTRALIA), "--players", "2", "--seed", "1", "--seat", "human"], input="?\nzz\n"
    )
    assert result.exit_code == 130
    assert "not in your hand" in result.output
    [path] = re.findall(r"Game stopped in round 1; saved to (boom-australia-\d{8}-\d{6}\.json)", result.output)
    assert "Traceback" not in result.output
    assert (tmp_path / path).exists()


def write_record(tmp_path, record):
    path = tmp_path / "record.yaml"
    path.write_text(yaml.safe_dump(record, sort_keys=False))
    return path


GOOD_ROUNDS = [
    {"drafts": {"Ana": list("ABCDEFG"), "Ben": list("HIJKLMN")}},
    {"drafts": {"Ana": list("OPQRSTU"), "Ben": list("VWXYZ@#")}},
    {"drafts": {"Ana": list("ABCDEFG"), "Ben": list("HIJKLMN")}},
    {"drafts": {"Ana": list("OPQRSTU"), "Ben": list("VWXYZ@#")}},
]


def test_score_a_hand_written_record(tmp_path):
    # Round 1, Ana: A B C D E F G. Throw A (1), Catch G (4): 3. Collections: Leaves 1 + Shells 3 + Wildflowers 2
    # + Shells 3 = 9 -> 9. Animals: Kangaroos B, C -> 3 (Emu E, Wombat F, Platypus G single). Western Australia
    # complete (A-D) in round 1 -> +3 for Ana.
    path = write_record(tmp_path, {"players": ["Ana", "Ben"], "rounds": GOOD_ROUNDS})
    sheet = json.loads(invoke("score", AUSTRALIA, "--record", path, "--format", "json").output)
    ana = sheet["players"][0]
    assert ana["rounds"][0] == {"throw_catch": 3, "collections": 9, "animals": 3, "activities": 0, "regions": 3}
    assert ana["categories"]["sites"] == 14


BAD_RECORDS = [
    (
        lambda r: r["rounds"][1]["drafts"]["Ben"].__setitem__(2, "Q"),
        "round 2, Ben: card 'Q' was already drafted by Ana this round",
    ),
    (lambda r: r["rounds"][0]["drafts"]["Ana"].__setitem__(0, "a"), "round 1, Ana: unknown card 'a'"),
    (lambda r: r["rounds"][0]["drafts"]["Ana"].pop(), "round 1, Ana: 6 cards, but a seat drafts 7 a round"),
    (lambda r: r["players"].extend(["Cy", "Dee", "Eve"]), "for 2 to 4 players, this record has 5"),
    (lambda r: r["rounds"].pop(), "has 4 rounds, this record has 3"),
    (
        lambda r: r["rounds"][2].update(choices={"Ana": {"activities": "Swimming"}}),
        "round 3, Ana: 'Swimming' cannot be chosen for Activities this round",
    ),
    (
        lambda r: r["rounds"][0].update(choices={"Ana": {"activities": "Swiming"}}),
        "round 1, Ana: 'Swiming' is not one of",
    ),
    (
        lambda r: r["rounds"][0].update(choices={"Ana": {"treasures": "Art"}}),
        "round 1, Ana: 'treasures' is not a category with a choice",
    ),
]


@pytest.mark.parametrize("mutate, message", BAD_RECORDS, ids=[m for _, m in BAD_RECORDS])
def test_a_bad_record_is_one_clear_error(tmp_path, mutate, message):
    record = json.loads(json.dumps({"players": ["Ana", "Ben"], "rounds": GOOD_ROUNDS}))
    mutate(record)
    path = write_record(tmp_path, record)
    result = invoke("score", AUSTRALIA, "--record", path)
    assert result.exit_code == 1
    assert message in result.output
    assert result.output.startswith(f"{path}:")


def test_an_activity_scored_twice_is_rejected(tmp_path):
    record = json.loads(json.dumps({"players": ["Ana", "Ben"], "rounds": GOOD_ROUNDS}))
    # Ana holds Indigenous Culture (A, E) in rounds 1 and 3
    record["rounds"][0]["choices"] = {"Ana": {"activities": "Indigenous Culture"}}
    record["rounds"][2]["choices"] = {"Ana": {"activities": "Indigenous Culture"}}
    path = write_record(tmp_path, record)
    result = invoke("score", AUSTRALIA, "--record", path)
    assert result.exit_code == 1
    assert "round 3, Ana: 'Indigenous Culture' was already scored for activities in an earlier round" in result.output
