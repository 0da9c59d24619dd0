"""Logs of bot games written before the speed work of issue #12 (at commit fa97866, file format 4), and
before the one engine of issue #30 (at commit d528381, format 4: the 2010 game, the mulligan with two seats
taking one in the same round, ghost hands, two cards a pass), still replay identically. `boom replay
--verify` re-decides every bot seat, so a faster greedy or search bot
must decide exactly as the bot that wrote the log. The header names its edition as EDITIONS/<file>,
pointed here at editions/; if an edition file changes on purpose, its log must be written again (the
header holds the file's sha256)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine.bots import greedy

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def placed(name: str, tmp_path: Path) -> Path:
    """The golden log with its header pointing at this checkout's edition file."""
    lines = (GOLDEN / f"{name}-bots.log").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["edition"] = str(ROOT / "editions" / header["edition"].removeprefix("EDITIONS/"))
    log = tmp_path / f"{name}.log"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return log


@pytest.mark.parametrize("name, seats", [
    ("australia", ["greedy", "search", "greedy", "random"]),
    ("europe", ["greedy", "greedy", "search"]),
    ("usa", ["search", "greedy"]),
    ("boomerang-2010", ["random", "greedy", "search"]),
    ("boomerang-2010-5p", ["greedy", "greedy", "random", "greedy", "random"]),
    ("australia-mulligan-3p", ["random", "random", "greedy"]),
    ("australia-mulligan-2p", ["random", "random"]),
    ("australia-ghost-third", ["greedy", "search"]),
    ("australia-two-at-once", ["greedy", "random", "search"]),
])
def test_a_log_of_bot_games_written_before_still_verifies(tmp_path, name, seats):
    log = placed(name, tmp_path)
    assert json.loads(log.read_text().splitlines()[0])["seats"] == seats
    result = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output
    assert "replay identically; game finished" in result.output


def test_a_bot_that_decides_otherwise_fails_the_verification(tmp_path, monkeypatch):
    monkeypatch.setattr(greedy.GreedyAgent, "gains",   # the first card of the hand, always
                        lambda self, view, decision, rng: {x: -i for i, x in enumerate(decision.options)})
    result = CliRunner().invoke(main, ["replay", str(placed("australia", tmp_path)), "--verify"])
    assert result.exit_code != 0
    assert "australia.log:7: seat 0 (Ana) is a greedy bot, which decides '@' here, but the log has 'L'" in result.output


@pytest.mark.parametrize("name", ["boomerang-2010", "australia-mulligan-3p", "australia-ghost-third"])
def test_a_game_saved_halfway_in_format_4_resumes_to_the_logged_end(tmp_path, name):
    """A save written from the first half of a golden log's decisions resumes, its bots re-deciding the
    rest, to the very totals the log ends with."""
    log = placed(name, tmp_path)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    header, events = lines[0], lines[1:]
    decisions = [[e["seat"], e["answer"], e["category"]] for e in events if e["type"] == "decision"]
    save = tmp_path / f"{name}.json"
    save.write_text(json.dumps(dict(header, type="saved_game", decisions=decisions[: len(decisions) // 2], over=False)))
    result = CliRunner().invoke(main, ["resume", str(save)])
    assert result.exit_code == 0, result.output
    totals = next(e for e in events if e["type"] == "game_over")["totals"]
    final = json.loads(save.read_text())
    assert final["over"] and final["decisions"] == decisions
    for name_, total in totals.items():
        assert re.search(rf"\b{re.escape(name_)}\s+{total}\b", result.output), (name_, total, result.output)
