"""Per-move clocks (#37): the host sets seconds or hours a move; a seat whose time runs out has its move made by
the table's bot, or forfeits; a slow table waits for a player who left, and its deadlines outlive a restart.

The deadlines are read on a wall clock the test holds (ServerThread's `wall`): time moves when the test moves
it, so nothing here depends on how fast this machine is.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3

from net_support import RawPlayer, ServerThread, bounded  # noqa: F401 - the autouse fixture that fails a hung test
from websockets.asyncio.client import connect

from rulesengine.net import Limits
from rulesengine.net.clocks import GRACE, Clock, describe, parse_span, span
from rulesengine.net.protocol import check_server_message

# ticks every 0.1 s (a third of the away timeout), which a table with a clock does not use for its seats
FAST_TICKS = Limits(away_timeout=0.3)


class Wall:
    """A wall clock that moves only when told."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


async def host(url: str, players: int, clock: int, on_time: str, seed: int = 5) -> dict:
    async with connect(url) as socket:
        message = {"type": "host", "edition": "australia", "players": players, "seed": seed, "bot_kind": "random"}
        await socket.send(json.dumps(message | {"clock": clock, "on_time": on_time}))
        return json.loads(await socket.recv())


def only_seat(server: ServerThread, seat: int):
    """True once the seat is the only one of its table whose clock runs (the others answered theirs)."""

    def alone() -> bool:
        (table,) = server.server.tables.values()
        return table.clock is not None and set(table.clock.due) <= {seat}

    return alone


async def sleeper(url: str, code: str, name: str, wall: Wall, step: float, frames: list, alone) -> None:
    """A player who sits down and never answers: each time it is asked something, the test's wall clock moves on
    by `step`, once the others have answered theirs (alone())."""
    async with connect(url, max_size=None) as socket:
        await socket.send(json.dumps({"type": "join", "table": code, "name": name}))
        asked = set()
        async for raw in socket:
            frames.append(raw)
            message = json.loads(raw)
            assert check_server_message(message) == [], check_server_message(message)
            if message["type"] == "game_over":
                return
            if message["type"] == "state":
                ids = {p["id"] for p in message["view"]["pending"]} - asked
                if ids:
                    asked |= ids
                    while not alone():
                        await asyncio.sleep(0.01)
                    wall.now += step


def test_a_move_past_its_clock_is_made_by_the_bot_and_the_player_keeps_the_seat(tmp_path):
    wall = Wall()
    server = ServerThread(tmp_path / "boom.sqlite", FAST_TICKS, wall=wall)
    frames: list[str] = []
    try:

        async def scenario():
            hosted = await host(server.url, 3, 30, "bot")
            code = hosted["table"]
            players = [RawPlayer(server.url, code, name) for name in ("Ana", "Ben")]
            tasks = [asyncio.create_task(p.play()) for p in players]
            await asyncio.sleep(0.2)  # Ana and Ben sit first: the sleeper is seat 2
            await sleeper(server.url, code, "Cy", wall, 31, frames, only_seat(server, 2))
            await asyncio.gather(*tasks)
            return hosted, players

        hosted, players = asyncio.run(scenario())
    finally:
        server.stop()
    assert hosted["clock"] == {"move": 30, "on_time": "bot"}
    messages = [json.loads(f) for f in frames]
    lobby = next(m for m in messages if m["type"] == "lobby")
    assert lobby["clock"] == {"move": 30, "on_time": "bot"}
    states = [m for m in messages if m["type"] == "state"]
    # each question was put to Cy with its whole clock (the wall stood still until the others had answered)
    seen, asked = set(), []
    for state in states:
        new = {p["id"] for p in state["view"]["pending"]} - seen
        seen |= new
        asked += [state["clock"]["left"]] if new else []
    assert len(asked) == len(seen) > 10 and set(asked) == {30.0}
    assert all(s["clock"]["move"] == 30 and s["clock"]["on_time"] == "bot" for s in states)
    # Cy was told, and so were the others, each time its time ran out; it never played a card itself
    late = [m for m in messages if m["type"] == "seat_status" and m["status"] == "late"]
    assert late and {m["seat"] for m in late} == {2}
    told = [m for p in players for m in p.messages("seat_status") if m["status"] == "late"]
    assert len(told) == 2 * len(late)
    final = next(m for m in messages if m["type"] == "game_over")
    assert "forfeited" not in final
    assert [p.final for p in players] == [final, final]
    assert len(late) == len(seen)  # every question Cy was asked ran out, and the bot answered it
    db = sqlite3.connect(tmp_path / "boom.sqlite")
    per_seat = dict(db.execute("SELECT seat, COUNT(*) FROM decisions GROUP BY seat"))
    assert per_seat[2] == per_seat[0] == per_seat[1] == players[0].decisions == len(seen)


def test_a_seat_whose_clock_runs_out_forfeits_when_the_host_said_so(tmp_path):
    wall = Wall()
    server = ServerThread(tmp_path / "boom.sqlite", FAST_TICKS, wall=wall)
    frames: list[str] = []
    try:

        async def scenario():
            code = (await host(server.url, 3, 3600, "forfeit"))["table"]
            players = [RawPlayer(server.url, code, name) for name in ("Ana", "Ben")]
            tasks = [asyncio.create_task(p.play()) for p in players]
            await asyncio.sleep(0.2)
            await sleeper(server.url, code, "Cy", wall, 3601, frames, only_seat(server, 2))
            await asyncio.gather(*tasks)
            # the forfeited player comes back and tries to play: refused, with why
            async with connect(server.url) as socket:
                token = next(json.loads(f) for f in frames if json.loads(f)["type"] == "joined")["token"]
                await socket.send(json.dumps({"type": "resume", "table": code, "token": token}))
                answers = [json.loads(await socket.recv()) for _ in range(3)]
            return players, answers

        players, answers = asyncio.run(scenario())
    finally:
        server.stop()
    messages = [json.loads(f) for f in frames]
    forfeit = [m for p in players for m in p.messages("seat_status") if m["status"] == "forfeit"]
    assert [(m["seat"], m["name"]) for m in forfeit] == [(2, "Cy"), (2, "Cy")]  # told once, to each of the others
    # once its first question ran out, Cy is asked nothing more: the bot plays its seat to the end
    told = next(n for n, m in enumerate(messages) if m["type"] == "seat_status" and m["status"] == "forfeit")
    after = [m for m in messages[told:] if m["type"] == "state"]
    assert len(after) > 10 and all(s["view"]["pending"] == [] for s in after)
    final = next(m for m in messages if m["type"] == "game_over")
    assert final["forfeited"] == [2] and players[0].final == final
    assert [a["type"] for a in answers] == ["joined", "state", "game_over"]


def test_a_slow_table_waits_for_its_player_and_keeps_its_deadlines_across_restarts(tmp_path):
    db, wall = tmp_path / "boom.sqlite", Wall()
    day = 24 * 3600
    server = ServerThread(db, FAST_TICKS, wall=wall)
    try:

        async def first_evening():
            code = (await host(server.url, 2, day, "bot"))["table"]
            ana, ben = RawPlayer(server.url, code, "Ana"), RawPlayer(server.url, code, "Ben")
            await asyncio.gather(ana.play(stop_after=3), ben.play(stop_after=3))  # both leave mid-round
            await asyncio.sleep(1.0)  # ten ticks, more than three away timeouts: no bot takes a seat
            (table,) = server.server.tables.values()
            return code, ana, ben, [(s.status(), s.stand_in) for s in table.seats]

        code, ana, ben, seats = asyncio.run(first_evening())

    finally:
        server.stop()
    assert seats == [("away", False), ("away", False)]
    assert not [m for p in (ana, ben) for m in p.messages("seat_status") if m["status"] in ("bot", "late")]
    stored = Clock.from_text(sqlite3.connect(db).execute("SELECT clock FROM tables").fetchone()[0])
    assert stored.move == day and stored.on_time == "bot"
    assert {seat: at for seat, (_, at) in stored.due.items()} == {0: wall.now + day, 1: wall.now + day}

    # ten hours later the server runs again: Ana comes back and finds 14 hours on her clock
    wall.now += 10 * 3600
    server = ServerThread(db, FAST_TICKS, port=server.port, wall=wall)
    try:

        async def next_morning():
            await asyncio.sleep(1.0)  # the restarted server ticks: nobody is late
            ana.frames.clear()
            await ana.play(stop_after=1)

        asyncio.run(next_morning())
    finally:
        server.stop()
    first = next(m for m in ana.messages("state"))
    assert first["clock"]["left"] == 14 * 3600

    # the server was down two days: Ben's deadline passed meanwhile, so he gets the grace, not a bot at once
    wall.now += 2 * day
    server = ServerThread(db, FAST_TICKS, port=server.port, wall=wall)
    try:

        async def two_days_later():
            ben.frames.clear()
            await ben.play(stop_after=1)

        asyncio.run(two_days_later())
    finally:
        server.stop()
    first = next(m for m in ben.messages("state"))
    assert first["clock"]["left"] == GRACE
    assert not [m for m in ben.messages("seat_status") if m["status"] in ("bot", "late")]


def test_clock_settings_are_checked_and_said_in_words():
    assert parse_span("30s") == 30 and parse_span("5m") == 300 and parse_span("24h") == 86400
    assert parse_span("2d") == 172800 and parse_span("90") == 90
    assert span(45) == "45 s" and span(300) == "5 min" and span(86400) == "24 h" and span(3 * 86400 + 3600) == "3 d 1 h"
    assert describe({"move": 30, "on_time": "bot"}) == "30 s a move; then a bot plays it"
    assert describe({"move": 86400, "on_time": "forfeit"}) == "24 h a move; then the seat forfeits"
    for bad, said in (("3s", "5 s to 7 days, not 3 s"), ("8d", "not 8 d"), ("soon", "not a time")):
        try:
            parse_span(bad)
        except ValueError as exc:
            assert said in str(exc)
        else:
            raise AssertionError(bad)


def test_a_host_message_with_a_clock_out_of_range_is_refused(tmp_path):
    server = ServerThread(tmp_path / "boom.sqlite")
    try:

        async def scenario():
            out = []
            async with connect(server.url) as socket:
                for clock, on_time in ((2, "bot"), (30.5, "bot"), (30, "later"), (8 * 86400, "bot")):
                    message = {"type": "host", "edition": "australia", "players": 2, "clock": clock, "on_time": on_time}
                    await socket.send(json.dumps(message))
                    out.append(json.loads(await socket.recv()))
            return out

        answers = asyncio.run(scenario())
    finally:
        server.stop()
    assert [a["code"] for a in answers] == ["bad_message"] * 4
    assert "clock" in answers[0]["message"] and "on_time" in answers[2]["message"]
