"""Mistakes in a record for `boom score`: all reported at once, in words, with hints only when they help,
and as JSON with --format json."""

from __future__ import annotations

import json

from test_cli import AUSTRALIA, GOOD_ROUNDS, invoke, write_record


def _record(**changes):
    record = json.loads(json.dumps({"players": ["Ana", "Ben"], "rounds": GOOD_ROUNDS}))
    for round_index, choices in changes.items():
        record["rounds"][int(round_index[1:])]["choices"] = choices
    return record


def test_two_mistakes_in_two_rounds_are_both_reported(tmp_path):
    record = _record()
    record["rounds"][0]["drafts"]["Ana"][0] = "a"
    record["rounds"][2]["drafts"]["Ben"][1] = "A"
    result = invoke("score", AUSTRALIA, "--record", write_record(tmp_path, record))
    assert result.exit_code == 1
    assert "round 1, Ana: unknown card 'a'" in result.output
    assert "round 3, Ben: card 'A' was already drafted by Ana this round" in result.output


def test_an_activity_already_scored_gets_no_did_you_mean(tmp_path):
    # Ana holds Indigenous Culture (A, E) in rounds 1 and 3
    record = _record(r0={"Ana": {"activities": "Indigenous Culture"}}, r2={"Ana": {"activities": "Indigenous Culture"}})
    result = invoke("score", AUSTRALIA, "--record", write_record(tmp_path, record))
    assert "'Indigenous Culture' was already scored for activities in an earlier round" in result.output
    assert "did you mean" not in result.output


def test_a_requirement_not_met_is_said_in_words(tmp_path):
    record = _record(r2={"Ana": {"activities": "Swimming"}})
    result = invoke("score", AUSTRALIA, "--record", write_record(tmp_path, record))
    assert (
        "round 3, Ana: 'Swimming' cannot be chosen for Activities this round: it may be chosen only when the number of "
        "Swimming on your cards this round is at least 1"
    ) in " ".join(result.output.split())
    assert "count(" not in result.output


def test_with_format_json_the_mistakes_are_json(tmp_path):
    record = _record(r2={"Ana": {"activities": "Swimming"}})
    record["rounds"][0]["drafts"]["Ana"].pop()
    path = write_record(tmp_path, record)
    result = invoke("score", AUSTRALIA, "--record", path, "--format", "json")
    assert result.exit_code == 1
    problems = json.loads(result.output)
    assert [(p["file"], p["line"], p["severity"], p["code"]) for p in problems] == [
        (str(path), 7, "error", "R701"),
        (str(path), 57, "error", "R701"),
    ]
    assert problems[0]["message"] == "round 1, Ana: 6 cards, but a seat drafts 7 a round"
