"""Network play of a game with a flow of its own (the 2010 game): a whole table, and what each frame holds."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import EDITIONS
from net_support import ServerThread, bounded, stored_game  # noqa: F401 - bounded: the autouse time limit

from cli.main import main
from rulesengine import load_edition, new_game
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.loop import play
from rulesengine.net.secrecy import seat_events, seat_view

PATH = EDITIONS / "boomerang-2010.yaml"


@pytest.fixture
def server(tmp_path):
    running = ServerThread(tmp_path / "boom.sqlite")
    yield running
    running.stop()


def test_a_seat_is_sent_its_own_secret_choice_and_no_other_before_the_hunt():
    edition = load_edition(PATH)
    game = new_game(edition, ["Ana", "Ben", "Cy"], 8)
    agents = [make_bot("random", edition, agent_seed(8, seat)) for seat in range(3)]
    cursor = 0
    while not game.over:
        for decision in game.pending():
            answer = agents[decision.seat].decide(game.view(decision.seat), decision)
            game.apply(decision.seat, answer, decision.category)
            view = seat_view(game, 0)
            assert view["secret"] == game.places.secrets.get(0)  # this round's own choice, or none yet
            events, cursor = seat_events(game, 0, cursor)
            assert all(e["seat"] == 0 for e in events if e["type"] == "decision")
            assert not {json.dumps(e) for e in events if e["type"] == "secret_chosen" and "choice" in e}
            break


def test_boom_join_plays_a_2010_seat_as_a_bot_and_the_table_equals_an_offline_game(server):
    hosted = CliRunner().invoke(
        main, ["host", server.url, "boomerang-2010", "--players", "3", "--bots", "2", "--seed", "4", "--format", "json"]
    )
    assert hosted.exit_code == 0, hosted.output
    code = json.loads(hosted.output)["table"]
    result = CliRunner().invoke(main, ["join", server.url, code, "--name", "Cy", "--bot", "greedy", "--bot-seed", "6"])
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output and "boomerangs kept" in result.output
    game = stored_game(server.db, code)
    assert game.over and game.players == ["Cy", "Bot 1", "Bot 2"]
    edition = game.edition
    agents = [make_bot("greedy", edition, 6)] + [make_bot("greedy", edition, agent_seed(4, s)) for s in (1, 2)]
    offline = play(new_game(edition, ["Cy", "Bot 1", "Bot 2"], 4), agents)
    assert game.scores.sheet() == offline.scores.sheet()
    record, log = server.db.parent / "table.yaml", server.db.parent / "table.jsonl"
    arguments = ["export", "--db", str(server.db), code, "--out", str(record), "--log", str(log)]
    exported = CliRunner().invoke(main, arguments)
    assert exported.exit_code == 0, exported.output
    scored = CliRunner().invoke(main, ["score", str(PATH), "--record", str(record)])
    assert scored.exit_code == 0 and "boomerangs kept" in scored.output, scored.output
    replayed = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert replayed.exit_code == 0 and "replay identically" in replayed.output, replayed.output
