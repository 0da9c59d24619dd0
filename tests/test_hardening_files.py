"""Issue #13, the files: outputs that are regular files or new paths, one game per file, saves and
logs read as data (every field checked, nothing read chooses where to write), errors that never
quote a file that is not an edition or a record."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine import Game, load_edition
from rulesengine.game.saves import Session, file_digest

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
SECRET = "root:$6$s3cr3t-hash:19000:0:99999:7:::"


def invoke(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def run_bots(*extra):
    return invoke("run", AUSTRALIA, "-p", 3, "--seed", 4, "-q", *extra)


# -- 1. output paths ------------------------------------------------------------------------------
def test_a_fifo_as_an_output_is_refused_before_the_game_and_left_alone(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run_bots("--log", fifo)
    assert result.exit_code == 2
    assert (
        result.output
        == f"error: cannot write {fifo}: it is a FIFO, not a regular file; outputs are regular files or new paths\n"
    )
    assert fifo.is_fifo()


def test_a_symbolic_link_as_a_save_is_refused_and_its_target_kept(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("keep me\n")
    (tmp_path / "link.json").symlink_to(target)
    result = run_bots("--save", tmp_path / "link.json")
    assert result.exit_code == 2 and "it is a symbolic link, not a regular file" in result.output
    assert target.read_text() == "keep me\n" and (tmp_path / "link.json").is_symlink()


def test_one_path_for_two_outputs_is_refused(tmp_path):
    result = run_bots("--save", tmp_path / "g.json", "--log", tmp_path / "g.json")
    assert result.exit_code == 2 and "is given as two outputs" in result.output
    assert not (tmp_path / "g.json").exists()


def test_a_full_device_is_named_as_such(tmp_path, monkeypatch):
    from rulesengine.game.outputs import OutputError, write_atomic

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError) as caught:
        write_atomic(tmp_path / "g.json", "{}")
    assert caught.value.diagnostics[0].message == f"cannot write {tmp_path / 'g.json'}: No space left on device"
    assert list(tmp_path.iterdir()) == []  # the temporary file is gone too


# -- 6. one game per file -------------------------------------------------------------------------
def test_a_second_game_on_a_held_save_is_refused(tmp_path):
    from rulesengine.game.outputs import OutputLock

    save = tmp_path / "g.json"
    held = OutputLock(save).acquire()
    try:
        result = run_bots("--save", save)
        assert result.exit_code == 2
        assert f"{save} is in use by another game" in result.output
        assert not save.exists()
    finally:
        held.release()
    assert run_bots("--save", save).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # the lock file goes with the game


def test_two_processes_on_one_log_one_is_refused(tmp_path):
    from rulesengine.game.outputs import OutputLock

    log = tmp_path / "g.jsonl"
    first = OutputLock(log).acquire()  # as a running game holds it
    try:
        code = "import sys; from cli.main import main; sys.argv = ['boom'] + sys.argv[1:]; main()"
        result = subprocess.run(
            [sys.executable, "-c", code, "run", str(AUSTRALIA), "-p", "3", "-q", "--log", str(log)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert result.returncode == 2 and "is in use by another game" in result.stderr
    finally:
        first.release()


# -- 3. saves and logs are data -------------------------------------------------------------------
def saved_game(tmp_path, **changes) -> Path:
    """A real saved game (2 players, a few decisions), with some fields changed."""
    save = tmp_path / "g.json"
    session = Session.start(AUSTRALIA, ["Ana", "Ben"], ["random", "random"], 3, save_path=str(save))
    session.unlock()
    data = json.loads(save.read_text())
    data.update(changes)
    save.write_text(json.dumps(data))
    return save


def test_a_save_cannot_choose_where_the_log_goes(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    save = saved_game(tmp_path, options={"log": str(victim)})
    result = invoke("resume", save, "-q")
    assert result.exit_code == 1
    assert f"{save}:1:" in result.output and "unknown option 'log'" in result.output
    old = saved_game(tmp_path, format=1, options={"log": str(victim)})  # format 1 kept it: ignored
    assert invoke("resume", old, "-q").exit_code == 0
    assert victim.read_text() == "precious\n"


def test_resume_writes_the_log_given_on_the_command_line_from_the_start(tmp_path):
    save = saved_game(tmp_path)
    log = tmp_path / "g.jsonl"
    assert invoke("resume", save, "-q", "--log", log).exit_code == 0
    assert invoke("replay", log, "--verify").exit_code == 0


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("format", 7, "the saved game's 'format': must be one of 1, 2"),
        ("seats", ["random", "wizard"], "the saved game's 'seats.1': 'wizard' is not a seat kind"),
        ("seats", ["random"], "one seat kind per player is needed: 2 players, 1 seats"),
        ("players", ["Ana", " "], "the saved game's 'players.1': a player name must be some text"),
        ("seed", "soon", "the saved game's 'seed': must be a whole number of at most 64 bits"),
        ("seed", 2**70, "the saved game's 'seed': must be a whole number of at most 64 bits"),
        (
            "options",
            {"search_rollouts": 10**9},
            "'search_rollouts' must be a whole number from 1 to 10000, not 1000000000",
        ),
        ("options", {"search_seconds": -1}, "'search_seconds' must be a number of seconds above 0"),
        ("options", [], "the saved game's 'options': must be a mapping"),
        ("edition_sha256", "abc", "the saved game's 'edition_sha256': must be 64 hex digits"),
    ],
)
def test_every_field_of_a_save_is_checked_at_its_place(tmp_path, field, value, message):
    save = saved_game(tmp_path, **{field: value})
    result = invoke("resume", save, "-q")
    assert result.exit_code == 1
    assert message in result.output and f"{save}:1:" in result.output


@pytest.mark.parametrize("text", [".nan", ".inf", "-.inf"])
def test_nan_and_infinities_in_a_save_are_refused(tmp_path, text):
    save = saved_game(tmp_path)
    save.write_text(save.read_text().replace('"options": {}', '"options": {"search_seconds": ' + text + "}"))
    result = invoke("resume", save, "-q")
    assert (
        result.exit_code == 1
        and "'search_seconds' must be a number of seconds above 0 and at most 600" in result.output
    )


def test_a_changed_edition_is_refused_unless_allowed(tmp_path):
    edition = tmp_path / "australia.yaml"
    edition.write_text(AUSTRALIA.read_text())
    save = tmp_path / "g.json"
    Session.start(edition, ["Ana", "Ben"], ["random", "random"], 3, save_path=str(save)).unlock()
    saved = save.read_text()
    edition.write_text(AUSTRALIA.read_text() + "\n# a comment changes the file, not the rules\n")
    words = invoke("resume", save, "-q")
    assert words.exit_code == 0
    assert f"note: {edition} changed since the game was saved, in its words only: the rules are the same" in (
        words.output)
    save.write_text(saved)
    edition.write_text(AUSTRALIA.read_text().replace("Koalas: 7", "Koalas: 8"))
    refused = invoke("resume", save, "-q")
    assert refused.exit_code == 1 and f"the rules of {edition} changed since the game was saved" in refused.output
    assert "--allow-changed-edition" in refused.output
    allowed = invoke("resume", save, "-q", "--allow-changed-edition")
    assert allowed.exit_code == 0 and "warning:" in allowed.output


def test_a_save_of_another_edition_is_refused(tmp_path):
    save = saved_game(tmp_path, edition_id="europe")
    result = invoke("resume", save, "-q")
    assert result.exit_code == 1 and "the saved game is a game of 'europe', but" in result.output


def logged_game(tmp_path, seats=("random", "greedy", "random")) -> Path:
    log = tmp_path / "g.jsonl"
    args = ["run", AUSTRALIA, "-p", len(seats), "--seed", 6, "-q", "--log", log]
    for kind in seats:
        args += ["--seat", kind]
    assert invoke(*args).exit_code == 0
    return log


def test_replay_verify_catches_a_changed_seat_kind(tmp_path):
    log = logged_game(tmp_path)
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"][1] = "random"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 1
    # each decision says who made it (#32): the header is found changed at the seat's first decision
    assert "seat 1 (Ben) is 'random' in the header, but this decision was made by 'greedy'" in result.output
    without_origins = [json.dumps({k: v for k, v in json.loads(line).items() if k != "by"}) for line in lines[1:]]
    log.write_text("\n".join([json.dumps(header), *without_origins]) + "\n")
    result = invoke("replay", log, "--verify")  # a log without them: the bot re-decided tells
    assert result.exit_code == 1
    assert "seat 1 (Ben) is a random bot, which decides" in result.output


def test_replay_verify_catches_two_decisions_swapped_within_a_turn(tmp_path):
    log = logged_game(tmp_path)
    lines = log.read_text().splitlines()
    first, second = [i for i, line in enumerate(lines) if '"type": "decision"' in line][:2]
    lines[first], lines[second] = lines[second], lines[first]
    log.write_text("\n".join(lines) + "\n")
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 1
    assert (
        f"g.jsonl:{first + 1}: the game asks seat 0 (Ana) for the throw here, but the log has a decision of seat 1"
        in result.output
    )


def test_a_log_with_a_nan_or_bad_utf8_or_a_huge_line_is_a_located_error(tmp_path, monkeypatch):
    log = logged_game(tmp_path)
    lines = log.read_bytes().splitlines()
    (tmp_path / "nan.jsonl").write_bytes(b"\n".join([lines[0], b'{"type": "x", "n": NaN}']) + b"\n")
    result = invoke("replay", tmp_path / "nan.jsonl", "--verify")
    assert (
        result.exit_code == 1
        and "nan.jsonl:2:1: error: not a log line: NaN is not a number a log may hold" in result.output
    )
    (tmp_path / "utf.jsonl").write_bytes(b"\n".join([lines[0], lines[1], b'{"type": "\xff"}']) + b"\n")
    result = invoke("replay", tmp_path / "utf.jsonl", "--verify")
    assert result.exit_code == 1 and "utf.jsonl:3:11: error: not UTF-8 text (byte 0xff)" in result.output
    from rulesengine.game import logs

    monkeypatch.setattr(logs, "MAX_LOG_LINE", 1000)
    (tmp_path / "long.jsonl").write_bytes(b"\n".join([lines[0][:900], b'{"pad": "' + b"x" * 5000 + b'"}']) + b"\n")
    result = invoke("replay", tmp_path / "long.jsonl", "--verify")
    assert result.exit_code == 1 and "long.jsonl:2:1: error: line longer than the limit of 1000 bytes" in result.output


def test_a_format_1_log_replays_with_the_old_deal_and_new_games_use_the_new_one(tmp_path):
    edition = load_edition(AUSTRALIA)
    old = Game(edition, ["Ana", "Ben", "Cy"], 5, deal_version=1)
    new = Game(edition, ["Ana", "Ben", "Cy"], 5)
    assert old.places.hands == new.places.hands  # round 1 has no leftover: the same deal
    log = tmp_path / "old.jsonl"
    session = Session(str(AUSTRALIA), old, ["random"] * 3, log_path=str(log))
    from rulesengine.bots.registry import RandomAgent, agent_seed
    from rulesengine.bots.seeding import STRING_SEEDS
    from rulesengine.game.loop import play

    # bots as they drew when format 1 was written: from string seeds
    bots = [RandomAgent(agent_seed(5, s), seeding=STRING_SEEDS) for s in range(3)]
    play(old, bots, lambda game: session.checkpoint())
    assert json.loads(log.read_text().splitlines()[0])["format"] == 1
    assert invoke("replay", log, "--verify").exit_code == 0
    text = log.read_text().replace('"format": 1', '"format": 2', 1)
    (tmp_path / "relabelled.jsonl").write_text(text)
    assert invoke("replay", tmp_path / "relabelled.jsonl", "--verify").exit_code == 1


# -- 4. errors never echo other files --------------------------------------------------------------
@pytest.mark.parametrize("secret", [SECRET + "\n", "- a\n" + SECRET + "\n"], ids=["not-yaml-mapping", "broken-yaml"])
def test_extends_never_prints_a_line_of_a_file_that_is_not_an_edition(tmp_path, secret):
    (tmp_path / "shadow").write_text(secret)
    (tmp_path / "v.yaml").write_text(f"extends: {tmp_path / 'shadow'}\n")
    result = invoke("validate", tmp_path / "v.yaml")
    assert result.exit_code == 1 and "s3cr3t" not in result.output


def test_a_save_or_log_naming_another_file_never_prints_it(tmp_path):
    shadow = tmp_path / "shadow"
    shadow.write_text(SECRET + "\n")
    save = saved_game(tmp_path, edition=str(shadow), edition_sha256=file_digest(shadow))
    result = invoke("resume", save, "-q")
    assert result.exit_code == 1 and "s3cr3t" not in result.output and str(shadow) in result.output
    log = logged_game(tmp_path)
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header.update(edition=str(shadow), edition_sha256=file_digest(shadow))
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = invoke("replay", log, "--verify")
    assert result.exit_code == 1 and "s3cr3t" not in result.output


def test_saves_and_logs_are_readable_by_their_owner_only(tmp_path):
    assert (
        run_bots(
            "--save", tmp_path / "g.json", "--log", tmp_path / "g.jsonl", "--save-record", tmp_path / "r.yaml"
        ).exit_code
        == 0
    )
    modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    assert modes["g.json"] == 0o600 and modes["g.jsonl"] == 0o600


def test_a_new_save_holds_no_output_path():
    session = Session(
        str(AUSTRALIA),
        Game(load_edition(AUSTRALIA), ["a", "b"], 1),
        ["random"] * 2,
        log_path="x.jsonl",
        options={"search_rollouts": 8},
    )
    assert session.header()["options"] == {"search_rollouts": 8} and session.header()["format"] == 6
