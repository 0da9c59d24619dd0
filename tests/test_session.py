"""Logs that replay byte for byte, per-seat replays, and saved games that survive a SIGKILL."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from rulesengine import Game
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.game.loop import play
from rulesengine.game.saves import file_digest

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def invoke(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def test_a_logged_game_replays_identically(tmp_path):
    log = tmp_path / "game.jsonl"
    assert invoke("run", AUSTRALIA, "-p", 3, "--seed", 8, "--log", log, "-q").exit_code == 0
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 0
    assert "replay identically; game finished" in result.output


def test_a_tampered_log_is_caught_at_its_line(tmp_path):
    log = tmp_path / "game.jsonl"
    invoke("run", AUSTRALIA, "-p", 3, "--seed", 8, "--log", log, "-q")
    lines = log.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if '"type": "round_scored"' in line)
    event = json.loads(lines[number])
    name = next(iter(event["points"]))
    event["points"][name]["collections"] += 1
    lines[number] = json.dumps(event)
    log.write_text("\n".join(lines) + "\n")
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 1
    assert f"game.jsonl:{number + 1}: logged" in result.output


def test_replay_as_one_seat_shows_nothing_hidden_from_it(tmp_path):
    log = tmp_path / "game.jsonl"
    invoke("run", AUSTRALIA, "-p", 3, "--seed", 8, "--log", log, "-q")
    raw = invoke("replay", log, "--seat", "Ben", "--format", "json").output
    shown = [json.loads(line) for line in raw.splitlines()]
    private = [e for e in shown if e["type"] in ("deal", "hand", "throw", "decision")]
    assert private and all(e["seat"] == 1 for e in private)
    assert len([e for e in shown if e["type"] == "round_scored"]) == 4


def test_replay_as_one_seat_is_drawn_as_the_terminal_drew_it(tmp_path):
    log = tmp_path / "game.jsonl"
    invoke("run", AUSTRALIA, "-p", 3, "--seed", 8, "--log", log, "-q")
    raw = invoke("replay", log, "--seat", "Ben", "--format", "json").output
    events = [json.loads(line) for line in raw.splitlines()]
    text = invoke("replay", log, "--seat", "Ben").output
    throws = [e["card"] for e in events if e["type"] == "throw"]
    drafts = [e["answer"] for e in events if e["type"] == "decision" and e["kind"] == "draft"]
    assert len(throws) == 4 and text.count("Ben chose the Throw ") == 4
    assert text.count("Ben drafted ") == len(drafts) == 4 * 5  # the Catch is passed, not chosen
    assert f"Ben chose the Throw {throws[0]} " in text
    assert text.count("▮ face down") == 2 * 4 * 5  # the other two Throws, at every draft
    assert "Ana chose" not in text and "Cy drafted" not in text
    assert sum(line.strip() == "Round 4 of 4" for line in text.splitlines()) == 1 and "Final score sheet" in text


def test_replay_of_a_broken_log_is_a_located_error(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text('{"type": "header"}\nnot json\n')
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 1
    assert "game.jsonl:2:1: error: not JSON" in result.output


def human_answers(seed, players=3):
    """The answers a 'first option' human at seat 0 gives, found by playing the same game here."""
    from rulesengine import load_edition

    edition = load_edition(AUSTRALIA)
    answers = []

    class FirstOption:
        def decide(self, view, decision):
            answer = decision.options[0]
            answers.append("none" if answer is None else answer)
            return answer

    game = Game(edition, ["Ana", "Ben", "Cy"][:players], seed)
    play(game, [FirstOption()] + [RandomAgent(agent_seed(seed, s)) for s in range(1, players)])
    return answers, game


def boom(*args):
    return [sys.executable, "-c", "from cli.main import main; main()", *map(str, args)]


def test_a_game_killed_mid_round_resumes_to_the_same_end(tmp_path):
    seed = 21
    answers, uninterrupted = human_answers(seed)
    save = tmp_path / "game.json"
    process = subprocess.Popen(
        boom("run", AUSTRALIA, "-p", 3, "--seed", seed, "--seat", "human", "--save", save, "-q"),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        text=True,
    )
    first = 10  # round 2, mid-draft: 7 answers in round 1 (+ maybe a choice), then a few more
    process.stdin.write("\n".join(answers[:first]) + "\n")
    process.stdin.flush()
    # wait for the game to save the tenth answer: no duration is asserted; the bound (far beyond what a busy
    # 2-core machine needs) only keeps a game that never saves from hanging the suite
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and process.poll() is None:
        if save.exists():
            saved = json.loads(save.read_text())
            if len([d for d in saved["decisions"] if d[0] == 0]) == first:
                break
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    saved = json.loads(save.read_text())
    assert saved["over"] is False
    assert len([d for d in saved["decisions"] if d[0] == 0]) == first
    record = tmp_path / "resumed.json"
    result = subprocess.run(
        boom("resume", save, "--save-record", record, "-q"),
        input="\n".join(answers[first:]) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,  # a hang guard, as the wait above: no duration is asserted
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(record.read_text()) == uninterrupted.record()
    final = json.loads(save.read_text())
    assert final["over"] is True and final["decisions"] == uninterrupted.decisions


def test_end_of_input_saves_the_game_and_says_how_to_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    answers, uninterrupted = human_answers(5)
    result = CliRunner().invoke(
        main,
        ["run", str(AUSTRALIA), "-p", "3", "--seed", "5", "--seat", "human", "-q"],
        input="\n".join(answers[:3]) + "\n",
    )
    assert result.exit_code == 130
    # a human plays: the file is named by the time, not by the seed (a secret until the game ends)
    [path] = re.findall(r"saved to (boom-australia-\d{8}-\d{6}\.json)\. Resume it with: boom resume \1", result.output)
    resumed = CliRunner().invoke(main, ["resume", path, "-q"], input="\n".join(answers[3:]) + "\n")
    assert resumed.exit_code == 0, resumed.output
    assert "seed 5" not in result.output and resumed.output.endswith(f"seed 5\nsave written to {path}\n")
    final = json.loads((tmp_path / path).read_text())
    assert final["decisions"] == uninterrupted.decisions


def test_a_bad_save_file_is_a_located_error(tmp_path):
    path = tmp_path / "save.json"
    header = {
        "format": 2,
        "edition": str(AUSTRALIA),
        "edition_id": "australia",
        "edition_sha256": file_digest(AUSTRALIA),
        "players": ["a", "b"],
        "seats": ["random", "random"],
        "seed": 1,
        "options": {},
    }
    path.write_text('{"type": "saved_game", ' + json.dumps(header)[1:-1] + ',\n "decisions": [[0, "ZZ", null]]}')
    result = invoke("resume", path)
    assert result.exit_code == 1
    assert "save.json:2:16: error: decision 1: 'ZZ' is not a legal throw" in result.output
