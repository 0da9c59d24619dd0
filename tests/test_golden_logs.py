"""Logs of bot games written before the speed work of issue #12 (at commit fa97866, file format 4) still
replay identically. `boom replay --verify` re-decides every bot seat, so a faster greedy or search bot
must decide exactly as the bot that wrote the log. The header names its edition as EDITIONS/<file>,
pointed here at editions/; if an edition file changes on purpose, its log must be written again (the
header holds the file's sha256)."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("name, seats", [("australia", ["greedy", "search", "greedy", "random"]),
                                         ("europe", ["greedy", "greedy", "search"]), ("usa", ["search", "greedy"])])
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
