"""The web client's files over HTTP on the server's port, and the points each round-end choice carries."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from net_support import ServerThread, bounded  # noqa: F401 - bounded: the autouse time limit

from rulesengine.game.state import Game
from rulesengine.net.editions import data_for_name, edition_from_data
from rulesengine.net.secrecy import seat_view


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = ServerThread(tmp_path_factory.mktemp("web") / "boom.sqlite")
    yield server
    server.stop()


def get(server, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def test_the_lobby_and_a_tables_link_are_the_same_page_with_only_its_own_scripts(server):
    status, headers, body = get(server, "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert b'<script type="module" src="/static/app.js"></script>' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert get(server, "/t/K7QX2M")[2] == body
    status, headers, script = get(server, "/static/protocol.js")
    assert status == 200 and headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert b"export class Link" in script


@pytest.mark.parametrize(
    "path", ["/static/../web.py", "/static/web.py", "/t/k7qx2m", "/t/K7QX2M/x", "/boom.sqlite", "/static/"]
)
def test_nothing_but_the_clients_files_is_served(server, path):
    status, _, body = get(server, path)
    assert status == 404 and body == b"not found: the table is at / or /t/CODE\n"


def test_the_lobby_lists_the_editions_the_server_knows(server):
    status, _, body = get(server, "/editions.json")
    editions = {e["id"]: e for e in json.loads(body)}
    assert status == 200
    assert editions["australia"] == {"id": "australia", "name": "Boomerang: Australia", "min": 2, "max": 4}


def test_a_round_end_choice_carries_what_each_option_scores():
    edition = edition_from_data(data_for_name("australia"))
    game = Game(edition, ["Ana", "Ben", "Cy"], 1)
    while not any(d.kind == "choice" and d.seat == 0 for d in game.pending()):
        decision = game.pending()[0]
        game.apply(decision.seat, decision.options[0], decision.category)
    choice = next(d for d in seat_view(game, 0)["pending"] if d["kind"] == "choice")
    # Ana drafted X V N K U Q F: Indigenous Culture on V and Q (2 icons: 2 points), Swimming on N,
    # Bushwalking on K and U (2: 2 points), Sightseeing on F (1: 0 points); the activity table of the sheet
    assert seat_view(game, 0)["table"][0]["face_up"] == ["X", "V", "N", "K", "U", "Q", "F"]
    assert choice["points"] == {"Indigenous Culture": 2, "Sightseeing": 0, "Bushwalking": 2, "Swimming": 0}
