"""A normal table of four on a `boom serve --workers 2` under three attacks at once (#37): 2,000 idle sockets, a flood
of host requests with hostile editions, 20 tables of search bots. tests/test_net_attack.py asserts what must hold
(the table plays to its end, memory bounded, the attackers refused); bench/net_attack.py times it.

The server is its own process, the attackers another (as they would be other machines), each attacker one
household (its own loopback address; 127.0.0.0/8 all reaches this machine), as the server's per-address shares
count them; the four players are the calling process.
"""


from __future__ import annotations

import asyncio
import json
import multiprocessing
import resource
import subprocess
import sys
from pathlib import Path

import websockets
from net_support import ROOT, RawPlayer
from ports import free_port
from processes import family, memory_mib
from websockets.asyncio.client import connect

IDLE_SOCKETS = 2000


async def idle_sockets(port: int, stop, report: dict) -> None:
    """2,000 TCP connections from one address that never say a word, opened again as the server drops them."""
    held, attempts = [], 0
    while not stop.is_set() and attempts < 10 * IDLE_SOCKETS:
        attempts += 1
        try:
            held.append(await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.2.1", 0)))
        except OSError:
            pass
        if len(held) >= IDLE_SOCKETS:
            report["idle"] = "opened"
            for _, writer in held:
                writer.close()
            held = []
            await asyncio.sleep(0.5)
    report["attempts"] = attempts


async def hostile_hosts(url: str, report: dict) -> None:
    """300 host requests, each with an edition of its own (each would cost a compile and its memory)."""
    from rulesengine.net.editions import data_for_name

    data, answers = data_for_name("australia"), []
    async with connect(url, local_addr=("127.0.2.2", 0), max_size=None) as socket:
        try:
            for n in range(300):
                edition = dict(data, id=f"hostile-{n}", name=f"Hostile {n}", description="x" * 4000)
                await socket.send(json.dumps({"type": "host", "edition": edition, "players": 2, "bots": 2}))
            while len(answers) < 300:
                answers.append(json.loads(await asyncio.wait_for(socket.recv(), 5)).get("code", "hosted"))
        except TimeoutError:
            pass  # the rest were dropped as too fast
        except websockets.ConnectionClosed as closed:
            answers.append(f"closed {closed.rcvd.code} {closed.rcvd.reason}")
    report["hosts"] = answers


async def search_tables(url: str, report: dict) -> None:
    codes = []
    while len(codes) < 20:
        async with connect(url, local_addr=("127.0.2.3", 0)) as socket:
            message = {"type": "host", "edition": "australia", "players": 4, "bots": 4, "bot_kind": "search"}
            await socket.send(json.dumps(message))
            answer = json.loads(await socket.recv())
        if answer["type"] == "hosted":
            codes.append(answer["table"])
        else:
            await asyncio.sleep(1.0)  # `too_many_hosts`: a host may ask again later
    report["search"] = codes


def attack(port: int, ready, stop, report) -> None:
    """The attackers' process: the three attacks at once; `ready` once each is under way."""

    async def main():
        url = f"ws://127.0.0.1:{port}"
        local: dict = {}
        sockets = asyncio.create_task(idle_sockets(port, stop, local))
        await asyncio.gather(hostile_hosts(url, local), search_tables(url, local))
        ready.set()
        await asyncio.to_thread(stop.wait)
        await sockets
        report.update(local)

    asyncio.run(main())


def play_under_attack(folder: Path) -> tuple[list, list, list[float], dict]:
    """One table of four played on a quiet server, then another while the three attacks run; the players of
    each, the server's memory sampled every 0.25 s during the second game, and what the attackers got.
    bench/net_attack.py times the same scenario (acknowledgement p99 with and without the attack)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--db", str(folder / "b.sqlite")]
        + ["--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    context = multiprocessing.get_context("spawn")
    manager = context.Manager()
    ready, stop, report = context.Event(), context.Event(), manager.dict()
    attacker = context.Process(target=attack, args=(port, ready, stop, report), daemon=True)
    memory: list[float] = []
    try:
        server.stdout.readline()
        url = f"ws://127.0.0.1:{port}"

        async def table(household: int):
            async with connect(url, local_addr=(f"127.0.{household}.1", 0)) as socket:
                await socket.send(json.dumps({"type": "host", "edition": "australia", "players": 4, "bots": 0}))
                code = json.loads(await socket.recv())["table"]
            return [RawPlayer(url, code, name, source=f"127.0.{household}.{n + 1}") for n, name in enumerate("ABCD")]

        async def scenario():
            quiet = await table(4)  # the same table on the same server without an attack: the machine's baseline
            await asyncio.gather(*(p.play() for p in quiet))
            players = await table(3)
            attacker.start()
            await asyncio.to_thread(ready.wait, 300)  # every attack under way
            game = asyncio.gather(*(p.play() for p in players))
            while not game.done():
                memory.append(memory_mib(family(server.pid), "VmRSS"))
                await asyncio.sleep(0.25)
            return quiet, await game

        quiet, players = asyncio.run(scenario())
        stop.set()
        attacker.join(60)
        seen = dict(report)
    finally:
        stop.set()
        server.terminate()
        server.wait()
        if attacker.is_alive():
            attacker.kill()
        manager.shutdown()
    return quiet, players, memory, seen


