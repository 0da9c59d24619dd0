"""Issue #32, verify: `boom replay --verify` says what it proves (the log is consistent with its seed,
seats and rules, not who wrote it), refuses a log whose seat kinds differ from the recorded origin of
its decisions, and refuses a key given twice in a line, as a save does."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
NOTE = (
    "(this shows the log is consistent with its seed, seats and rules: not who wrote it; anyone can write a "
    "consistent log)\n"
)


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def logged(tmp_path) -> Path:
    log = tmp_path / "game.jsonl"
    result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 5, "-q", "--seats", "greedy,random", "--log", log)
    assert result.exit_code == 0, result.output
    return log


def lines_of(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def write(log: Path, entries: list[dict]) -> None:
    log.write_text("".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries))


def test_every_decision_is_logged_with_who_made_it(tmp_path):
    entries = lines_of(logged(tmp_path))
    decisions = [e for e in entries if e["type"] == "decision"]
    assert {(e["seat"], e["by"]) for e in decisions} == {(0, "greedy"), (1, "random")}


def test_verify_says_it_shows_consistency_not_authorship(tmp_path):
    log = logged(tmp_path)
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 0
    assert result.output.startswith(f"{log}: consistent: ")
    assert result.output.endswith(NOTE)


def test_a_bot_seat_relabelled_human_is_found(tmp_path):
    """Before #32 this verified: a human seat's decisions are taken as given, so the greedy seat's
    decisions could then be rewritten at will."""
    log = logged(tmp_path)
    entries = lines_of(log)
    entries[0]["seats"] = ["human", "random"]
    write(log, entries)
    result = invoke("replay", log, "--verify")
    first = next(n for n, e in enumerate(entries, 1) if e["type"] == "decision" and e["seat"] == 0)
    assert result.exit_code == 1
    assert result.output == (
        f"{log}:{first}: seat 0 (Ana) is 'human' in the header, but this decision was made by 'greedy' "
        "(a changed seat kind?)\n"
    )


def test_a_relabelled_seat_whose_origins_were_rewritten_too_is_consistent_and_said_so(tmp_path):
    """Consistency is all a log can show: rewriting every trace of the seat kind gives a consistent log."""
    log = logged(tmp_path)
    entries = lines_of(log)
    entries[0]["seats"] = ["human", "random"]
    for entry in entries:
        if entry["type"] == "decision" and entry["seat"] == 0:
            entry["by"] = "human"
    write(log, entries)
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 0 and result.output.endswith(NOTE)


def test_a_log_without_origins_still_verifies(tmp_path):
    """Logs written before #32 (and exports from a server, which does not store who decided) have no `by`."""
    log = logged(tmp_path)
    entries = [{k: v for k, v in e.items() if k != "by"} for e in lines_of(log)]
    write(log, entries)
    assert invoke("replay", log, "--verify").exit_code == 0


def test_a_key_given_twice_in_a_log_line_is_a_located_error(tmp_path):
    log = logged(tmp_path)
    lines = log.read_text().splitlines()
    number = next(n for n, line in enumerate(lines, 1) if '"type": "decision"' in line)
    lines[number - 1] = lines[number - 1].replace('"answer": ', '"answer": "Z", "answer": ', 1)
    log.write_text("\n".join(lines) + "\n")
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 1
    assert result.output == f"{log}:{number}:1: error: not a log line: duplicate key 'answer'\n"


def test_a_key_given_twice_in_the_header_is_a_located_error(tmp_path):
    log = logged(tmp_path)
    lines = log.read_text().splitlines()
    lines[0] = lines[0].replace('"seed": 5', '"seed": 6, "seed": 5')
    log.write_text("\n".join(lines) + "\n")
    result = invoke("replay", log, "--verify")
    assert result.output == f"{log}:1:1: error: not a log line: duplicate key 'seed'\n"
