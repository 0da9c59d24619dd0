"""Issue #32, the files: every file boom creates is new (O_CREAT|O_EXCL|O_NOFOLLOW), the log is written
through one descriptor for the whole game, every output is locked, and `boom export` reads its
database read-only and refuses a crafted one at its place. The crafted databases are SQL kept in
tests/hostile/."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.game.loop import play
from rulesengine.game.outputs import OutputLock, write_atomic
from rulesengine.game.saves import Session
from rulesengine.net.editions import data_for_name, edition_text
from rulesengine.net.store_sqlite import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
HOSTILE = Path(__file__).resolve().parent / "hostile"
KEEP = "export PATH=/usr/bin  # the victim's .bashrc\n"


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


@pytest.fixture
def victim(tmp_path):
    """A file an attacker would like boom to overwrite (~/.bashrc)."""
    path = tmp_path / "victim" / ".bashrc"
    path.parent.mkdir()
    path.write_text(KEEP)
    return path


# -- files are created new, never through a planted name -------------------------------------------
def test_the_report_folders_probe_never_follows_a_planted_link(tmp_path, victim):
    from rulesengine.simulate.report import check_report_folder

    folder = tmp_path / "balance"
    folder.mkdir()
    (folder / ".boom-simulate-probe").symlink_to(victim)
    check_report_folder(folder)
    assert victim.read_text() == KEEP
    assert sorted(p.name for p in folder.iterdir()) == [".boom-simulate-probe"]


def test_simulate_report_writes_beside_a_planted_probe_link_and_leaves_its_target(tmp_path, victim):
    folder = tmp_path / "balance"
    folder.mkdir()
    (folder / ".boom-simulate-probe").symlink_to(victim)
    result = invoke("simulate", AUSTRALIA, "-p", 2, "--games", 2, "--jobs", 1, "--seed", 1, "--report", folder)
    assert result.exit_code == 0, result.output
    assert victim.read_text() == KEEP
    assert json.loads((folder / "report.json").read_text())["settings"]["games"] == 2


def test_write_atomic_never_writes_through_a_planted_temporary_name(tmp_path, victim, monkeypatch):
    names = iter(["planted", "fresh"])
    monkeypatch.setattr("rulesengine.game.outputs.secrets.token_hex", lambda n: next(names))
    (tmp_path / f".g.json.{os.getpid()}.planted.tmp").symlink_to(victim)
    (tmp_path / f".g.json.{os.getpid()}.tmp").symlink_to(victim)  # the name used before #32
    write_atomic(tmp_path / "g.json", "{}\n", private=True)
    assert victim.read_text() == KEEP
    assert (tmp_path / "g.json").read_text() == "{}\n" and (tmp_path / "g.json").stat().st_mode & 0o777 == 0o600


def test_create_new_refuses_every_name_that_exists(tmp_path, monkeypatch):
    from rulesengine.game.outputs import create_new

    monkeypatch.setattr("rulesengine.game.outputs.secrets.token_hex", lambda n: "same")
    (tmp_path / f".x.{os.getpid()}.same.tmp").write_text("there before")
    with pytest.raises(FileExistsError):
        create_new(tmp_path, "x")
    assert (tmp_path / f".x.{os.getpid()}.same.tmp").read_text() == "there before"


def test_a_planted_link_as_a_lock_file_is_refused_and_its_target_kept(tmp_path, victim):
    (tmp_path / ".g.json.lock").symlink_to(victim)
    result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "-q", "--save", tmp_path / "g.json")
    assert result.exit_code == 2
    assert result.output == f"error: cannot write {tmp_path / 'g.json'}: Too many levels of symbolic links\n"
    assert victim.read_text() == KEEP and not (tmp_path / "g.json").exists()


def test_the_log_is_written_through_its_one_descriptor_whatever_is_planted_at_its_path(tmp_path, victim):
    log = tmp_path / "game.jsonl"
    session = Session.start(AUSTRALIA, ["Ana", "Ben"], ["random", "random"], 3, log_path=str(log))
    session.checkpoint()
    os.rename(log, tmp_path / "moved.jsonl")  # swapped while the game runs: the path now leads elsewhere
    log.symlink_to(victim)
    game = session.game
    play(game, [RandomAgent(agent_seed(3, seat)) for seat in range(2)], lambda game: session.checkpoint())
    session.unlock()
    assert victim.read_text() == KEEP
    lines = (tmp_path / "moved.jsonl").read_text().splitlines()
    assert len(lines) == 1 + len(game.events) and json.loads(lines[-1]) == json.loads(json.dumps(game.events[-1]))
    log.unlink()
    os.rename(tmp_path / "moved.jsonl", log)
    assert invoke("replay", log, "--verify").exit_code == 0


def test_a_game_log_replaces_a_hard_link_instead_of_writing_into_it(tmp_path, victim):
    os.link(victim, tmp_path / "game.jsonl")
    result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "-q", "--log", tmp_path / "game.jsonl")
    assert result.exit_code == 0, result.output
    assert victim.read_text() == KEEP
    assert json.loads((tmp_path / "game.jsonl").read_text().splitlines()[0])["type"] == "header"


# -- every output is locked while it may still be written ------------------------------------------
def held(path) -> OutputLock:
    return OutputLock(path).acquire()


def test_a_record_held_by_another_game_is_refused_before_the_game(tmp_path):
    lock = held(tmp_path / "r.yaml")
    try:
        result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "-q", "--save-record", tmp_path / "r.yaml")
    finally:
        lock.release()
    assert result.exit_code == 2
    assert result.output == (
        f"error: {tmp_path / 'r.yaml'} is in use by another game (it holds {tmp_path / '.r.yaml.lock'}); "
        "give this game another file\n"
    )
    assert not (tmp_path / "r.yaml").exists()


def test_a_report_held_by_another_run_is_refused_before_the_games(tmp_path):
    lock = held(tmp_path / "report.html")
    try:
        result = invoke("simulate", AUSTRALIA, "-p", 2, "--games", 2, "--jobs", 1, "--report", tmp_path)
    finally:
        lock.release()
    assert result.exit_code == 2 and "report.html is in use by another game" in result.output
    assert not (tmp_path / "report.json").exists()


# -- export reads its database read-only, and checks what it reads ----------------------------------
def finished_table(db: Path, code: str = "ABCDEF") -> Game:
    """A finished two-seat table in a server database, as the server writes it."""
    data = data_for_name("australia")
    game = Game(load_edition(AUSTRALIA), ["Ana", "Ben"], 3)
    play(game, [RandomAgent(agent_seed(3, seat)) for seat in range(2)])
    store = SQLiteStore(db)
    store.add_table(code, edition_text(data), 2, 0, "random", 3, 1.0, game.deal_version)
    for seat, name in enumerate(game.players):
        store.add_seat(code, seat, name, "player", f"token-{seat}")
    for number, (seat, answer, category) in enumerate(game.decisions):
        store.add_decision(code, number, seat, answer, category)
    store.finish(code, 3)
    store.close()
    return game


def test_export_leaves_the_database_it_reads_as_it_was(tmp_path):
    db = tmp_path / "server.sqlite"
    finished_table(db)
    with sqlite3.connect(db) as plain:  # a copy kept in the rollback-journal mode, as a backup might be
        plain.execute("PRAGMA journal_mode=DELETE")
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    files = sorted(p.name for p in tmp_path.iterdir())
    result = invoke("export", "--db", db, "ABCDEF", "--out", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*files, "r.json"])  # no -wal, no -shm
    with sqlite3.connect(db) as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_export_reads_a_database_it_may_not_write(tmp_path):
    db = tmp_path / "server.sqlite"
    game = finished_table(db)
    with sqlite3.connect(db) as plain:
        plain.execute("PRAGMA journal_mode=DELETE")
    db.chmod(0o444)
    result = invoke("export", "--db", db, "ABCDEF", "--out", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "r.json").read_text()) == json.loads(json.dumps(game.record()))


def test_an_export_whose_record_is_held_by_another_game_is_refused_and_the_record_kept(tmp_path):
    db = tmp_path / "server.sqlite"
    finished_table(db)
    record = tmp_path / "r.json"
    record.write_text("another game's record\n")
    lock = held(record)
    try:
        result = invoke("export", "--db", db, "ABCDEF", "--out", record)
    finally:
        lock.release()
    assert result.exit_code == 2
    assert result.output == (f"error: {record} is in use by another game (it holds {tmp_path / '.r.json.lock'}); "
                             "give this game another file\n")
    assert record.read_text() == "another game's record\n"


def crafted(tmp_path, name: str) -> Path:
    """A finished table's database, then the hostile SQL tests/hostile/NAME.sql run over it."""
    db = tmp_path / "crafted.sqlite"
    finished_table(db)
    with sqlite3.connect(db) as attacker:
        attacker.executescript((HOSTILE / f"{name}.sql").read_text())
    return db


@pytest.mark.parametrize(
    "name, message",
    [
        ("export-edition-nested", "{db}, table ABCDEF: its edition is not valid JSON (it is nested too deeply)"),
        ("export-edition-not-json", "{db}, table ABCDEF: its edition is not valid JSON (Expecting value)"),
        ("export-edition-a-list", "{db}, table ABCDEF: its edition is not a JSON object"),
        ("export-endless-view", "cannot use the database {db}: it is not a boom server's database ('seats' is not a "
         "table)"),
        ("export-seed-text", "{db}, table ABCDEF: its seed is not a 64-bit whole number"),
        ("export-seat-name-escape", "{db}, table ABCDEF: its seat 1 is not a seat number, a player name and "
         "'player' or 'bot'"),
        ("export-decision-blob", "{db}, table ABCDEF: its decision 1 is not a seat, an answer and a category"),
        ("export-huge-text", "cannot read table ABCDEF from the database {db}: string or blob too big"),
    ],
)
def test_a_crafted_export_database_is_a_located_error(tmp_path, name, message):
    db = crafted(tmp_path, name)
    result = invoke("export", "--db", db, "ABCDEF")
    assert result.exit_code == 1
    prefix = "error: " if message.startswith("cannot") else "error: the database "
    assert result.output == prefix + message.format(db=db) + "\n"


def test_a_query_that_runs_for_ever_is_stopped(tmp_path, monkeypatch):
    """The step budget, beside the check that the tables are tables: a query over more rows than it allows."""
    monkeypatch.setattr("rulesengine.net.store_sqlite.READ_STEPS", 10_000)
    db = crafted(tmp_path, "export-many-seats")
    result = invoke("export", "--db", db, "ABCDEF")
    assert result.exit_code == 1
    assert result.output == f"error: cannot read table ABCDEF from the database {db}: interrupted\n"
