"""Spectators: a `watch` gets the public view of a table, live or a round behind as its host chose, never a hand."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from conftest import EDITIONS
from net_support import ROOT, RawPlayer, ServerThread, bounded  # noqa: F401 - the autouse fixture that fails a hung test
from websockets.asyncio.client import connect

from rulesengine import load_edition
from rulesengine.net.protocol import check_server_message
from rulesengine.net.spectators import public_keys


@pytest.fixture
def server(tmp_path):
    running = ServerThread(tmp_path / "boom.sqlite")
    yield running
    running.stop()


async def host(url: str, spectators: str) -> str:
    async with connect(url) as socket:
        message = {"type": "host", "edition": "australia", "players": 3, "bots": 1, "bot_kind": "random"}
        await socket.send(json.dumps(message | {"spectators": spectators, "seed": 7}))
        return json.loads(await socket.recv())["table"]


async def watch(url: str, code: str, frames: list, until: asyncio.Event) -> None:
    async with connect(url, max_size=None) as socket:
        await socket.send(json.dumps({"type": "watch", "table": code}))
        while not (
            until.is_set() and frames and json.loads(frames[-1]).get("view", {}).get("sheet", {}).get("winners")
        ):
            try:
                frames.append(await asyncio.wait_for(socket.recv(), 1.0))
            except TimeoutError:
                continue


@pytest.mark.parametrize("delay", ["live", "round"])
def test_a_spectator_sees_the_public_table_and_never_a_hand(server, delay):
    frames: list[str] = []

    async def scenario():
        code = await host(server.url, delay)
        done = asyncio.Event()
        spectator = asyncio.create_task(watch(server.url, code, frames, done))
        players = [RawPlayer(server.url, code, name) for name in ("Ana", "Ben")]
        await asyncio.gather(*(p.play() for p in players))
        done.set()
        await asyncio.wait_for(spectator, 60)
        return players

    players = asyncio.run(scenario())
    messages = [json.loads(f) for f in frames]
    assert all(check_server_message(m) == [] for m in messages)
    assert messages[0]["type"] == "watching" and messages[0]["delay"] == delay
    spectated = [m for m in messages if m["type"] == "spectate"]
    public = set(public_keys(load_edition(EDITIONS / "australia.yaml")))
    assert spectated and all(set(m["view"]) <= public for m in spectated)
    for frame in frames:  # no seat's own keys, no decision asked, no token
        assert not any(f'"{key}":' in frame for key in ("hand", "throw", "seen_hands", "picked", "pending", "token"))
    assert spectated[-1]["view"]["sheet"] == players[0].final["sheet"]
    rounds = [m["view"]["round"] for m in spectated]
    assert rounds == sorted(rounds) and rounds[-1] == 4
    if delay == "round":  # a round behind: nothing face up until a round is over
        first_round = [m for m in spectated if m["view"]["round"] == 1]
        assert all(not seat["face_up"] for m in first_round for seat in m["view"]["table"])


def test_a_host_may_allow_no_spectators(server):
    async def scenario():
        code = await host(server.url, "off")
        async with connect(server.url) as socket:
            await socket.send(json.dumps({"type": "watch", "table": code}))
            return code, json.loads(await socket.recv())

    code, answer = asyncio.run(scenario())
    assert (answer["code"], answer["message"]) == ("no_spectators", f"the host of table {code} allows no spectators")


def test_boom_join_watch_prints_the_public_table_to_its_final_sheet(server):
    """`boom join URL CODE --watch`: the terminal spectator, a process of its own, from the first frame to the
    final sheet (what it may print is proven in test_net_secrecy_differential)."""

    async def scenario():
        code = await host(server.url, "live")
        watcher = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cli.main", "join", server.url, code, "--watch",
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=os.environ | {"COLUMNS": "120"},
        )  # fmt: skip
        first = await watcher.stdout.readline()  # it watches before anyone sits down
        players = [RawPlayer(server.url, code, name) for name in ("Ana", "Ben")]
        await asyncio.gather(*(p.play() for p in players))
        rest, errors = await watcher.communicate()
        return code, first.decode() + rest.decode(), errors.decode(), watcher.returncode, players

    code, printed, errors, status, players = asyncio.run(scenario())
    assert status == 0, errors
    assert printed.startswith(f"watching table {code} (Boomerang: Australia), live\nround 1 of 4, throw\n")
    assert printed.count("Round 1 of 4") == 1 and printed.count("Round 4 of 4") == 1  # each round's sheet, once
    assert "Final score sheet" in printed
    winners = players[0].final["sheet"]["winners"]
    assert all(name in printed.split("Final score sheet")[1] for name in ["Ana", "Ben", "Bot 1", *winners])


def test_boom_join_says_what_a_spectator_and_a_player_need(server):
    for arguments, said in (
        (["--watch", "--name", "Ana"], "a spectator holds no seat"),
        ([], "give your name at the table (or --watch to look on)"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "cli.main", "join", server.url, "ABCDEFGH", *arguments],
            cwd=ROOT, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert result.returncode == 2 and said in result.stderr and "Traceback" not in result.stderr
