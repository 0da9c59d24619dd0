"""A server that stays fair against a determined client: its database, its budgets, what it refuses and why.

Each test fails on the server as it was before these defences: a world-readable database holding running seeds,
two servers on one file, a damaged WAL silently dropping acknowledged decisions, `players: 3.0`, bidi names,
pages of other sites, table limits forgotten on restart, editions compiled and kept forever.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest
import websockets
from net_support import ServerThread, bounded  # noqa: F401 - the autouse fixture that fails a hung test
from websockets.asyncio.client import connect

from rulesengine.errors import BoomError
from rulesengine.net import editions as net_editions
from rulesengine.net.dbfile import wal_damage
from rulesengine.net.protocol import Limits, ProtocolError, parse_client_message
from rulesengine.net.stores import open_store


async def exchange(url: str, *messages, origin=None) -> list[dict]:
    headers = {"Origin": origin} if origin else None
    async with connect(url, max_size=None, additional_headers=headers) as socket:
        out = []
        for message in messages:
            await socket.send(json.dumps(message))
            out.append(json.loads(await asyncio.wait_for(socket.recv(), 30)))
        return out


def host_message(**fields) -> dict:
    return {"type": "host", "edition": "australia", "players": 3, "bots": 3, "bot_kind": "random"} | fields


@pytest.mark.parametrize(
    ("frame", "where"),
    [
        (host_message(players=3.0), "players: 3.0 is not of type 'integer'"),
        (host_message(seed=5.0), "seed: 5.0 is not of type 'integer', 'null'"),
        (host_message(bots=True), "bots: True is not of type 'integer'"),
        ({"type": "join", "table": "ABCDEF", "name": "\u202eanA"}, r"name: '\u202eanA' does not match"),
        ({"type": "join", "table": "ABCDEF", "name": "Ana\u200b"}, r"name: 'Ana\u200b' does not match"),
        ({"type": "join", "table": "ABCDEF", "name": "A\u2066n"}, r"name: 'A\u2066n' does not match"),
    ],
)
def test_integers_are_integers_and_names_hold_no_bidi_or_invisible_controls(frame, where):
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(json.dumps(frame))
    assert caught.value.code == "bad_message" and where in caught.value.message


def test_the_database_is_private_owned_by_one_server_and_its_running_seeds_sealed(tmp_path):
    path = tmp_path / "boom.sqlite"
    store = open_store(path)
    try:
        assert path.stat().st_mode & 0o777 == 0o600
        with pytest.raises(BoomError, match=r"is in use by another boom serve \(process \d+\)"):
            open_store(path)
        store.add_table("ABCDEFGH", "{}", 2, 0, "random", 123456789, 1.5, 3)
        raw = sqlite3.connect(path).execute("SELECT seed, sealed FROM tables").fetchone()
        assert raw[1] == 1 and raw[0] != 123456789
        assert open_store(path, owner=False).summary("ABCDEFGH") == (False, False, ())
        store.finish("ABCDEFGH", 123456789)  # over: the seed is public now (the exported log holds it)
        assert sqlite3.connect(path).execute("SELECT seed, sealed FROM tables").fetchone() == (123456789, 0)
    finally:
        store.close()
    open_store(path).close()  # the lock goes with the server


def damaged_wal(path) -> None:
    """A database with committed transactions in its WAL, one frame in the middle overwritten."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE t (n INTEGER)")
    for n in range(40):
        db.execute("INSERT INTO t VALUES (?)", (n,))
    wal = path.with_name(path.name + "-wal")
    copy = wal.read_bytes()
    db.close()  # (closing checkpoints and removes the WAL: put the one with every transaction back)
    data = bytearray(copy)
    page_size = int.from_bytes(data[8:12], "big")
    at = 32 + 10 * (24 + page_size) + 24 + 100  # inside frame 11's page
    data[at : at + 8] = b"damaged!"
    wal.write_bytes(bytes(data))


def test_a_damaged_wal_is_refused_at_start_up_with_what_to_do(tmp_path):
    path = tmp_path / "boom.sqlite"
    damaged_wal(path)
    assert wal_damage(path).startswith("boom.sqlite-wal breaks at frame 11 of ")
    with pytest.raises(BoomError, match=r"the database .*boom.sqlite is damaged: .* would be silently dropped"):
        open_store(path)
    # an intact WAL is fine
    clean = tmp_path / "clean.sqlite"
    open_store(clean).close()
    assert wal_damage(clean) is None


def test_a_page_of_another_site_may_not_open_a_websocket_but_the_servers_own_pages_may(tmp_path):
    server = ServerThread(tmp_path / "boom.sqlite")
    try:
        with pytest.raises(websockets.InvalidStatus) as caught:
            asyncio.run(exchange(server.url, host_message(), origin="https://evil.example"))
        assert caught.value.response.status_code == 403
        own = f"http://127.0.0.1:{server.port}"
        hosted = asyncio.run(exchange(server.url, host_message(), origin=own))
        assert hosted[0]["type"] == "hosted" and len(hosted[0]["table"]) == 8
        also = asyncio.run(exchange(server.url, host_message(), origin=f"http://localhost:{server.port}"))
        assert also[0]["type"] == "hosted"
    finally:
        server.stop()


def test_the_tables_an_address_opened_are_still_counted_after_a_restart(tmp_path):
    limits = Limits(max_tables_per_ip=2, lobby_timeout=3600)
    server = ServerThread(tmp_path / "boom.sqlite", limits)
    lobby = host_message(bots=0)
    try:
        answers = asyncio.run(exchange(server.url, lobby, lobby))
    finally:
        server.stop()
    assert [a["type"] for a in answers] == ["hosted", "hosted"]
    again = ServerThread(tmp_path / "boom.sqlite", limits)
    try:
        refused = asyncio.run(exchange(again.url, lobby))[0]
    finally:
        again.stop()
    assert refused["code"] == "too_many_tables"
    assert refused["message"] == "2 tables opened from your address are not finished; finish one or try later"
    stored = sqlite3.connect(tmp_path / "boom.sqlite").execute("SELECT host FROM tables").fetchall()
    assert all(row[0] and "127.0.0.1" not in row[0] for row in stored)  # keyed, never the address in clear


def test_a_probe_of_a_finished_table_replays_nothing_and_finished_bot_games_are_pruned(tmp_path, monkeypatch):
    server = ServerThread(tmp_path / "boom.sqlite", Limits(keep_bot_games=2, away_timeout=0.5))
    try:
        codes = [asyncio.run(exchange(server.url, host_message(seed=n)))[0]["table"] for n in range(4)]
        while any(not t.over for t in list(server.server.tables.values())) or len(server.server.tables) > 0:
            asyncio.run(asyncio.sleep(0.1))
        from rulesengine.net import table as net_table

        def no_replay(*args, **kwargs):
            raise AssertionError("a finished table was replayed for a probe")

        monkeypatch.setattr(net_table.Table, "restore", no_replay)
        probes = asyncio.run(
            exchange(
                server.url,
                {"type": "join", "table": codes[-1], "name": "Eve"},
                {"type": "resume", "table": codes[-1], "token": "x" * 32},
            )
        )
    finally:
        server.stop()
    assert [p["code"] for p in probes] == ["game_over", "game_over"]
    kept = [row[0] for row in sqlite3.connect(tmp_path / "boom.sqlite").execute("SELECT code FROM tables")]
    assert sorted(kept) == sorted(codes[2:])  # the two newest finished all-bot games


def test_host_sent_editions_are_compiled_only_once_accepted_and_kept_in_a_bounded_cache(tmp_path, monkeypatch):
    data = net_editions.data_for_name("australia")
    compiled = []
    real = net_editions.load_edition
    monkeypatch.setattr(net_editions, "load_edition", lambda path: compiled.append(path) or real(path))
    monkeypatch.setattr(net_editions, "CACHE_SIZE", 3)
    monkeypatch.setattr(net_editions, "_loaded", type(net_editions._loaded)())
    server = ServerThread(tmp_path / "boom.sqlite", Limits(max_tables_per_ip=1, host_rate=1000, host_burst=1000))
    try:
        first = asyncio.run(exchange(server.url, host_message(edition=dict(data, name="House 0"), bots=0)))[0]
        refused = [
            asyncio.run(exchange(server.url, host_message(edition=dict(data, name=f"House {n}"), bots=0)))[0]
            for n in range(1, 4)
        ]
    finally:
        server.stop()
    assert first["type"] == "hosted" and [r["code"] for r in refused] == ["too_many_tables"] * 3
    assert len(compiled) == 1  # the refused requests compiled nothing
    for n in range(6):
        net_editions.edition_from_data(dict(data, name=f"Kept {n}"))
    assert len(net_editions._loaded) == 3
