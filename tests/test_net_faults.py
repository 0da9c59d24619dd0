"""A table goes on through bad clients, floods, drops and absences; each refusal goes to its sender alone."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from click.testing import CliRunner
from net_support import (
    RawPlayer,
    ServerThread,
    bounded,  # noqa: F401 - the autouse fixture that fails a hung test
    stored_game,
)
from test_net_play import FirstOption, host, offline_sheet
from websockets.asyncio.client import connect

from cli.main import main
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.game.loop import play
from rulesengine.game.state import Game
from rulesengine.net import Limits, open_store


@pytest.fixture
def server(tmp_path):
    running = ServerThread(tmp_path / "boom.sqlite")
    yield running
    running.stop()


async def ask(url: str, *frames, answers: int | None = None) -> list[dict]:
    """Send frames on one fresh connection; return the answers (one per frame unless told)."""
    async with connect(url, max_size=None) as socket:
        for frame in frames:
            await socket.send(frame)
        return [
            json.loads(await asyncio.wait_for(socket.recv(), 5))
            for _ in range(len(frames) if answers is None else answers)
        ]


async def ask_until_quiet(url: str, *frames, quiet: float = 2.0) -> list[dict]:
    """Send frames on one fresh connection; return every answer until none came for `quiet` seconds."""
    async with connect(url, max_size=None) as socket:
        for frame in frames:
            await socket.send(frame)
        answers = []
        while True:
            try:
                answers.append(json.loads(await asyncio.wait_for(socket.recv(), quiet)))
            except TimeoutError:
                return answers


def test_bad_messages_are_each_answered_and_the_table_goes_on(server, australia):
    code = host(server, "australia", "--players", "3", "--bots", "1", "--seed", "5")
    ana, ben = RawPlayer(server.url, code, "Ana"), RawPlayer(server.url, code, "Ben")
    done = []

    async def misbehave(player, socket, view, pending):
        if done:
            return
        done.append(True)
        base = {
            "type": "decide",
            "table": code,
            "token": player.token,
            "round": pending["round"],
            "kind": pending["kind"],
            "category": pending["category"],
            "id": pending["id"],
        }
        not_held = next(c.letter for c in australia.cards if c.letter not in view["hand"])
        done.append(f"'{not_held}' is not a legal throw now (options: {', '.join(pending['options'])})")
        for frame in (
            "not json{",
            "[1, 2]",
            json.dumps({"type": "dance", "ref": 1}),
            "x" * 70_000,
            json.dumps(dict(base, kind="choice", category="activities", answer=None, ref=2)),
            json.dumps(dict(base, answer=not_held, ref=3)),
            json.dumps(dict(base, token="t" * 32, answer=pending["options"][0], ref=4)),
            json.dumps(dict(base, table="ZZZZZZ", answer=pending["options"][0], ref=5)),
            json.dumps({"type": "join", "table": code, "name": "Eve", "ref": 6}),
            json.dumps(dict(base, answer=7, ref=8)),
        ):
            await socket.send(frame)

    async def scenario():
        await asyncio.gather(ana.play(misbehave=misbehave), ben.play())
        return await ask(
            server.url,
            json.dumps({"type": "join", "table": code, "name": "Ana"}),
            json.dumps({"type": "join", "table": code, "name": "Cy"}),
            json.dumps({"type": "resume", "table": code, "token": "u" * 32}),
            json.dumps(
                {
                    "type": "decide",
                    "table": code,
                    "token": ana.token,
                    "round": 1,
                    "kind": "throw",
                    "category": None,
                    "id": "1.throw..0",
                    "answer": "A",
                }
            ),
        )

    strangers = asyncio.run(scenario())
    assert [(e["code"], e.get("ref")) for e in ana.errors] == [
        ("bad_json", None),
        ("bad_message", None),
        ("bad_message", 1),
        ("too_large", None),
        ("out_of_turn", 2),
        ("illegal", 3),
        ("bad_token", 4),
        ("not_seated", 5),  # a decide names only the table its connection sits at: no look-up of other codes
        ("seat_taken", 6),
        ("bad_message", 8),
    ]
    assert ana.errors[0]["message"] == "not JSON: Expecting value"
    assert ana.errors[2]["message"] == 'unknown message type "dance"; expected one of host, join, resume, decide, watch'
    assert ana.errors[3]["message"] == "a frame may hold at most 65536 bytes"
    assert ana.errors[4]["message"] == "no choice of round 1 is asked of you now; you are asked: throw"
    assert ana.errors[5]["message"] == done[1]
    assert ana.errors[6]["message"] == f"this token opens no seat at table {code}"
    assert ben.errors == []
    assert [m["code"] for m in strangers] == ["name_taken", "table_full", "bad_token", "not_seated"]
    assert ana.final["sheet"] == offline_sheet(australia, ["Ana", "Ben", "Bot 1"], 5, ["first", "first", "greedy"])


def test_a_flood_is_refused_with_one_warning_a_second_and_other_tables_go_on(server, australia):
    code = host(server, "australia", "--players", "2", "--bots", "1", "--seed", "9")
    frames = [json.dumps({"type": "join", "table": "QQQQQQ", "name": "X"})] * 100

    async def scenario():
        flood = asyncio.create_task(ask_until_quiet(server.url, *frames))
        player = await RawPlayer(server.url, code, "Dee").play()
        return await flood, player

    answers, dee = asyncio.run(scenario())
    codes = [a["code"] for a in answers]
    # look-ups of codes that do not exist are limited per address (codes cannot be probed), and so is the rate:
    # frames past the burst are dropped (one `too_fast` a second), so fewer than 100 are answered
    assert codes[:30] == ["unknown_table"] * 30 and codes[30:40] == ["too_many_lookups"] * 10
    assert "too_fast" in codes[40:] and len(codes) < 100
    assert set(codes[40:]) <= {"too_fast", "too_many_lookups"}
    assert dee.final["sheet"] == offline_sheet(australia, ["Dee", "Bot 1"], 9, ["first", "greedy"])


def test_a_frame_over_the_hard_limit_closes_only_that_connection(server):
    async def scenario():
        async with connect(server.url, max_size=None) as socket:
            await socket.send("y" * (2 * 1024 * 1024))
            await socket.wait_closed()
            return socket.close_code

    assert asyncio.run(scenario()) == 1009


def test_a_dropped_player_resumes_with_the_token_and_the_others_are_told(server, australia):
    code = host(server, "australia", "--players", "3", "--bots", "1", "--seed", "13")
    ana, ben = RawPlayer(server.url, code, "Ana"), RawPlayer(server.url, code, "Ben")

    async def scenario():
        async def ana_plays():
            await ana.play(stop_after=9)  # drops in round 2
            await asyncio.sleep(0.2)
            await ana.play()

        await asyncio.gather(ana_plays(), ben.play())

    asyncio.run(scenario())
    statuses = [(m["name"], m["status"]) for m in ben.messages("seat_status")]
    assert ("Ana", "away") in statuses and statuses[-1] == ("Ana", "connected")
    assert ana.final["sheet"] == offline_sheet(australia, ["Ana", "Ben", "Bot 1"], 13, ["first", "first", "greedy"])
    resumed = [json.loads(f) for f in ana.frames]
    assert [m["type"] for m in resumed].count("joined") == 2 and sum(
        "token" in m for m in resumed if m["type"] == "joined"
    ) == 1


class FirstThenBot:
    """First options for a seat's first n decisions, then the table's bot (as when its player left)."""

    def __init__(self, n, bot):
        self.n, self.bot = n, bot

    def decide(self, view, decision):
        self.n -= 1
        return decision.options[0] if self.n >= 0 else self.bot.decide(view, decision)


def test_a_seat_gone_past_the_timeout_is_played_by_a_bot_until_its_player_returns(tmp_path, australia):
    server = ServerThread(tmp_path / "boom.sqlite", Limits(away_timeout=0.3))
    try:
        code = host(server, "australia", "--players", "3", "--bots", "1", "--bot-kind", "random", "--seed", "17")
        ana, ben = RawPlayer(server.url, code, "Ana"), RawPlayer(server.url, code, "Ben")

        async def scenario():
            async def ana_plays():
                await ana.play(stop_after=3)
                await ben_done.wait()
                await ana.play()

            ben_done = asyncio.Event()

            async def ben_plays():
                await ben.play()
                ben_done.set()

            await asyncio.gather(ana_plays(), ben_plays())

        asyncio.run(scenario())
    finally:
        server.stop()
    assert [(m["name"], m["status"]) for m in ben.messages("seat_status")][:2] == [("Ana", "away"), ("Ana", "bot")]
    agents = [
        FirstThenBot(3, make_bot("random", australia, agent_seed(17, 0))),
        FirstOption(),
        make_bot("random", australia, agent_seed(17, 2)),
    ]
    expected = play(Game(australia, ["Ana", "Ben", "Bot 1"], 17), agents).scores.sheet()
    assert ana.final["sheet"] == ben.final["sheet"] == expected
    assert stored_game(server.db, code).over


def from_address(url: str, address: str):
    """A connection from another loopback address (127.0.0.0/8 all reaches this machine): another client."""
    return connect(url, local_addr=(address, 0), open_timeout=5)


async def dropped(url: str, address: str) -> bool:
    """True when a connection from this address is dropped before its handshake completes."""
    try:
        async with from_address(url, address) as socket:
            await socket.wait_closed()
            return False
    except (websockets.InvalidMessage, websockets.ConnectionClosed, OSError):
        return True


def test_connections_over_the_per_address_and_global_caps_are_dropped_at_once(tmp_path):
    server = ServerThread(tmp_path / "boom.sqlite", Limits(max_connections=4, max_connections_per_ip=2))

    async def scenario():
        async with from_address(server.url, "127.0.0.2") as a, from_address(server.url, "127.0.0.2") as b:
            third_from_a_busy_address = await dropped(server.url, "127.0.0.2")
            async with from_address(server.url, "127.0.0.3") as c, from_address(server.url, "127.0.0.4") as d:
                over_the_global_cap = await dropped(server.url, "127.0.0.5")
                for socket in (a, b, c, d):
                    await socket.send(json.dumps({"type": "join", "table": "QQQQQQ", "name": "Ana"}))
                codes = [json.loads(await s.recv())["code"] for s in (a, b, c, d)]
        await asyncio.sleep(0.2)  # the closed ones are released: a new address gets in again
        async with from_address(server.url, "127.0.0.5") as e:
            await e.send(json.dumps({"type": "join", "table": "QQQQQQ", "name": "Eve"}))
            later = json.loads(await e.recv())["code"]
        return third_from_a_busy_address, over_the_global_cap, codes, later

    try:
        busy, full, codes, later = asyncio.run(scenario())
    finally:
        server.stop()
    assert busy and full
    assert codes == ["unknown_table"] * 4 and later == "unknown_table"


def test_a_connection_that_holds_no_seat_and_says_nothing_is_closed_after_the_idle_timeout(tmp_path):
    server = ServerThread(tmp_path / "boom.sqlite", Limits(idle_timeout=0.3))

    async def scenario():
        async with connect(server.url) as idle:
            await idle.wait_closed()
            return idle.close_code, idle.close_reason

    try:
        closed = asyncio.run(scenario())
    finally:
        server.stop()
    assert closed == (1008, "idle: join or host a table, or come back later")


def test_a_table_still_waiting_for_players_after_the_lobby_timeout_is_closed(tmp_path):
    server = ServerThread(tmp_path / "boom.sqlite", Limits(lobby_timeout=0.3))
    try:
        code = host(server, "australia", "--players", "2")

        async def scenario():
            async with connect(server.url) as socket:
                await socket.send(json.dumps({"type": "join", "table": code, "name": "Ana"}))
                seen = [json.loads(await asyncio.wait_for(socket.recv(), 5))["type"] for _ in range(2)]
                closed = json.loads(await asyncio.wait_for(socket.recv(), 5))
            late = await ask(server.url, json.dumps({"type": "join", "table": code, "name": "Ben"}))
            return seen, closed, late

        seen, closed, late = asyncio.run(scenario())
    finally:
        server.stop()
    assert seen == ["joined", "lobby"]
    assert closed == {
        "type": "error",
        "code": "unknown_table",
        "message": f"table {code} is closed: its seats were not all taken in 0.005 minutes",
    }
    assert late[0]["code"] == "unknown_table"
    store = open_store(server.db)
    assert store.codes(playing=True) == [] and store.codes() == [code] and store.closed(code)
    store.close()


def test_a_finished_table_is_dropped_from_memory_and_read_again_when_a_player_comes_back(server):
    code = host(server, "australia", "--players", "2", "--bots", "1", "--seed", "19")
    ana = asyncio.run(RawPlayer(server.url, code, "Ana").play())

    async def come_back():
        while code in server.server.tables:  # dropped within a second once nobody is connected
            await asyncio.sleep(0.05)
        async with connect(server.url) as socket:
            await socket.send(json.dumps({"type": "resume", "table": code, "token": ana.token}))
            return [json.loads(await asyncio.wait_for(socket.recv(), 5)) for _ in range(3)]

    again = asyncio.run(come_back())
    assert [m["type"] for m in again] == ["joined", "state", "game_over"]
    assert again[2] == ana.final and again[1]["view"]["phase"] == "over"


def test_one_address_may_keep_only_so_many_tables_open(tmp_path):
    server = ServerThread(tmp_path / "boom.sqlite", Limits(max_tables_per_ip=2))
    try:
        hosted = [
            CliRunner().invoke(main, ["host", server.url, "australia", "--players", "3", "--format", "json"])
            for _ in range(3)
        ]
        assert [r.exit_code for r in hosted[:2]] == [0, 0]
        refused = hosted[2]
        assert refused.exit_code != 0 and "Traceback" not in refused.output
        assert "2 tables opened from your address are not finished; finish one or try later" in refused.output
        assert len(server.server.tables) == 2
    finally:
        server.stop()
