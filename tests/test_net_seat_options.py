"""Seat options on `boom host` (issue #29): set by seat number, played by the table, kept by the database
(a restart, the export and its log replay with them), and refused with one line when the edition does not
take them."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from net_support import ROOT, ServerThread, bounded  # noqa: F401 - bounded: the autouse fixture that fails a hung test

from cli.main import main
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.loop import play
from rulesengine.game.state import Game
from rulesengine.net.export import finished_game, write_log
from rulesengine.net.stores import open_store

HANDICAP = str(ROOT / "editions" / "variants" / "australia-handicap.yaml")


@pytest.fixture
def server(tmp_path):
    running = ServerThread(tmp_path / "boom.sqlite")
    yield running
    running.stop()


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def test_a_hosted_table_plays_the_seat_options_and_its_export_replays_them(server, tmp_path):
    result = invoke("host", server.url, HANDICAP, "--players", 2, "--bots", 2, "--seed", 8,
                    "--seat-option", "2.handicap=-7", "--format", "json")
    assert result.exit_code == 0, result.output
    code = json.loads(result.output)["table"]
    store = open_store(server.db, owner=False)
    try:
        for _ in range(400):
            stored = store.load(code)
            if stored.finished:
                break
            time.sleep(0.05)
        assert stored.seat_options == {"2": {"handicap": -7}}
        game, _ = finished_game(store, code)
        write_log(store, code, tmp_path / "table.jsonl")
    finally:
        store.close()
    assert [p["categories"]["handicap"] for p in game.scores.sheet()["players"]] == [0, -7]
    offline = play(Game(game.edition, ["Bot 1", "Bot 2"], 8, seat_options={"Bot 2": {"handicap": -7}}),
                   [make_bot("greedy", game.edition, agent_seed(8, s)) for s in (0, 1)])
    assert game.scores.sheet() == offline.scores.sheet()
    header = json.loads((tmp_path / "table.jsonl").read_text().splitlines()[0])
    assert header["seat_options"] == {"Bot 2": {"handicap": -7}}
    assert "replay identically" in invoke("replay", tmp_path / "table.jsonl", "--verify").output


@pytest.mark.parametrize("option, code, said", [
    ("3.handicap=1", 2, "'3' is not a seat: on boom host seats are numbered 1 to 2"),
    ("1.handicapp=1", 1, "has no seat option 'handicapp'"),
    ("1.handicap=51", 1, "1's handicap must be a whole number from -50 to 50, not 51"),
])
def test_seat_options_the_table_cannot_take_are_refused_in_one_line(server, option, code, said):
    result = invoke("host", server.url, HANDICAP, "--players", 2, "--seat-option", option)
    assert result.exit_code == code
    assert said in result.output
    if code == 1:
        assert "(bad_seat_options)" in result.output
