"""Logs of bot games written before the speed work of issue #12 (at commit fa97866, file format 4), and
before the one engine of issue #30 (at commit d528381, format 4: the 2010 game, the mulligan with two seats
taking one in the same round, ghost hands, two cards a pass), and a blend bot's game (at 197403b, format 5: its
search's rollouts, its greedy estimate and the win it counts in the last round re-decided), and a guided bot's
game (at a6fed13, format 5: `boom run editions/australia.yaml -p 3 --seat guided,greedy,greedy --seed 21 --log`),
still replay identically. `boom replay --verify` re-decides every bot seat, so a faster greedy or search bot must decide
exactly as the bot that wrote the log. The header names its edition as EDITIONS/<file>, pointed here at
editions/, with that file's sha256 then: an edition file changed since (Australia's, Europe's and USA's
descriptions took placeholders at 7b4ab2b) still verifies when every decision and event replays identically,
and replay says in a note that the file differs. A log is written again only when a change of the rules changes
the games it holds (and that change says why in its commit). A save written at d528381 resumes too,
without --allow-changed-edition: it has no digest of the rules, so its decisions are replayed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine.bots import greedy
from rulesengine.bots.seats import SEAT_KINDS, recorded_bots
from rulesengine.game.logs import replay_log
from rulesengine.game.saves import file_digest, resume

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


LOGS = [
    ("australia", ["greedy", "search", "greedy", "random"]),
    ("europe", ["greedy", "greedy", "search"]),
    ("usa", ["search", "greedy"]),
    ("boomerang-2010", ["random", "greedy", "search"]),
    ("boomerang-2010-5p", ["greedy", "greedy", "random", "greedy", "random"]),
    ("australia-mulligan-3p", ["random", "random", "greedy"]),
    ("australia-mulligan-2p", ["random", "random"]),
    ("australia-ghost-third", ["greedy", "search"]),
    ("australia-two-at-once", ["greedy", "random", "search"]),
    ("australia-blend", ["blend", "greedy", "greedy"]),
    ("australia-guided", ["guided", "greedy", "greedy"]),
]


@pytest.mark.parametrize("name, seats", LOGS)
def test_a_log_of_bot_games_written_before_still_verifies(tmp_path, name, seats):
    log = placed(name, tmp_path)
    assert json.loads(log.read_text().splitlines()[0])["seats"] == seats
    result = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output
    assert "replay identically; game finished" in result.output


@pytest.mark.parametrize("name", [name for name, _ in LOGS])
def test_each_seat_of_a_log_written_before_replays_to_its_final_sheet(tmp_path, name):
    """`replay --seat` re-plays in the log's own file format: a format-4 log with mulligans (returned hands drawn
    again at once then) failed at Ben's first Throw when it was re-played as the current format."""
    log = placed(name, tmp_path)
    players = json.loads(log.read_text().splitlines()[0])["players"]
    final = CliRunner().invoke(main, ["replay", str(log), "--all-seats"]).output.splitlines()[-1]
    assert final.startswith(("Winner", "Shared victory"))
    for player in players:
        result = CliRunner().invoke(main, ["replay", str(log), "--seat", player])
        assert result.exit_code == 0, result.output[-400:]
        assert result.output.splitlines()[-1] == final


@pytest.mark.parametrize("name", [name for name, _ in LOGS])
def test_a_log_verifies_scored_by_the_reference_interpreter(tmp_path, name):
    """The same logs, every score of the game and every bot's value of a hand run by the reference
    interpreter (game/reference.py) instead of the compiled program: the same decisions, the same events."""
    game, problems = replay_log(placed(name, tmp_path), seat_kinds=SEAT_KINDS, bots=recorded_bots,
                                runner="reference")
    assert game.edition.runner == "reference"
    assert problems == []
    assert game.over


def test_a_bot_that_decides_otherwise_fails_the_verification(tmp_path, monkeypatch):
    monkeypatch.setattr(greedy.GreedyAgent, "gains",   # the first card of the hand, always
                        lambda self, view, decision, rng: {x: -i for i, x in enumerate(decision.options)})
    result = CliRunner().invoke(main, ["replay", str(placed("australia", tmp_path)), "--verify"])
    assert result.exit_code != 0
    assert "australia.log:7: seat 0 (Ana) is a greedy bot, which decides '@' here, but the log has 'L'" in result.output


@pytest.mark.parametrize("name", ["boomerang-2010", "australia-mulligan-3p", "australia-ghost-third",
                                  "australia-blend", "australia-guided"])
def test_a_game_saved_halfway_in_an_earlier_format_resumes_to_the_logged_end(tmp_path, name):
    """A save written from the first half of a golden log's decisions (format 4; the blend's, 5) resumes, its bots
    re-deciding the rest, to the very totals the log ends with."""
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


def placed_save(tmp_path: Path) -> Path:
    save = json.loads((GOLDEN / "australia-d528381-save.json").read_text(encoding="utf-8"))
    save["edition"] = str(ROOT / "editions" / save["edition"].removeprefix("EDITIONS/"))
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    return path


def test_a_save_written_at_d528381_resumes_without_a_flag_though_its_edition_was_reworded(tmp_path):
    """`boom run editions/australia.yaml -p 3 --seat human --seat greedy --seat random --seed 11 --save
    --log` at d528381, the human's input ending at round 2's choice: 39 decisions, and australia.yaml's
    sha256 before its descriptions took placeholders. Resumed now, its decisions replay legally to the very
    events logged there, a note says so, and the game plays on to its end."""
    save = placed_save(tmp_path)
    header = json.loads(save.read_text())
    assert "rules_sha256" not in header and header["edition_sha256"] != file_digest(ROOT / "editions" /
                                                                                     "australia.yaml")
    notes: list[str] = []
    session = resume(save, seat_kinds=SEAT_KINDS, warn=notes.append)
    session.unlock()
    logged = [json.loads(line) for line in (GOLDEN / "australia-d528381-save.log").read_text().splitlines()[1:]]
    assert session.game.events == logged and len(session.game.decisions) == 39 and session.game.round == 1
    assert notes == [f"note: {ROOT / 'editions' / 'australia.yaml'} changed since the game was saved (by a boom "
                     "that did not record the digest of the rules); its 39 decisions replay legally with the file "
                     "as it is now, and the game goes on with it"]
    letters = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ@#")
    typed = "\n".join((["0"] + letters) * 40) + "\n"  # a skipped choice, else the first letter of the hand
    result = CliRunner().invoke(main, ["resume", str(save), "-q"], input=typed)
    assert result.exit_code == 0, result.output[-2000:]
    assert "note: " in result.output and "--allow-changed-edition" not in result.output
    finished = json.loads(save.read_text())
    assert finished["over"] and finished["decisions"][:39] == header["decisions"]
    assert finished["rules_sha256"] == session.game.edition.rules_sha256  # saved again: with the rules' digest


def test_a_save_at_d528381_whose_decisions_no_longer_replay_is_refused(tmp_path):
    save = placed_save(tmp_path)
    header = json.loads(save.read_text())
    edition = tmp_path / "australia.yaml"  # Ana's first card, J, moved to another letter: her Throw is unknown
    edition.write_text((ROOT / "editions" / "australia.yaml").read_text().replace("letter: 'J'", "letter: 'j'"))
    header["edition"] = str(edition)
    save.write_text(json.dumps(header))
    result = CliRunner().invoke(main, ["resume", str(save), "-q"])
    assert result.exit_code == 1
    refused = f"error: {edition} changed since the game was saved, and the game no longer replays with it\n"
    assert refused in result.output
    assert "note: " in result.output and "decision 1: 'J' is not a legal throw for Ana" in result.output
