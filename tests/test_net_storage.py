"""The storage interface (net/storage.py), kept alike by SQLite and a real PostgreSQL; and a cluster's leases.

The same calls run against both stores (a parameter, never a monkeypatch) and must give the same answers. On
PostgreSQL, tables belong to nodes under leases: a node whose lease ran out loses its tables to the first node
that claims them, and cannot append to them any more (nothing acknowledged twice, nothing written by two).
"""

from __future__ import annotations

import json
import socket

import pytest

from rulesengine.errors import BoomError
from rulesengine.net.storage import TableMoved, safe_url, token_hash
from rulesengine.net.stores import open_store


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def where(request, tmp_path):
    if request.param == "sqlite":
        return tmp_path / "t.sqlite"
    return request.getfixturevalue("postgres_url")


def opened(where, tmp_path, **options):
    store = open_store(where, key=tmp_path / "cluster.key", **options)
    store.serve_as("ws://127.0.0.1:1")
    return store


def test_both_stores_keep_a_table_its_seats_and_decisions_alike(where, tmp_path):
    store = opened(where, tmp_path)
    try:
        edition = json.dumps({"id": "australia"})
        store.add_table("ABCDEFGH", edition, 2, 1, "random", 12345, 1.5, 2, host="127.0.0.9", spectators="round")
        store.add_seat("ABCDEFGH", 1, "Bot 1", "bot", None)
        store.add_seat("ABCDEFGH", 0, "Ana", "player", "secret-token-of-ana")
        for number, (seat, answer) in enumerate([(0, "A"), (1, "B"), (0, None)]):
            store.add_decision("ABCDEFGH", number, seat, answer, None if answer else "activities")
        stored = store.load("ABCDEFGH")
        assert (stored.players, stored.bots, stored.bot_kind, stored.seed, stored.deal) == (2, 1, "random", 12345, 2)
        assert stored.seats == ((0, "Ana", "player", token_hash("secret-token-of-ana")), (1, "Bot 1", "bot", None))
        assert stored.decisions == ([0, "A", None], [1, "B", None], [0, None, "activities"])
        assert (stored.spectators, stored.finished, stored.edition) == ("round", False, {"id": "australia"})
        assert store.decisions_since("ABCDEFGH", 2) == [[0, None, "activities"]]
        assert store.summary("ABCDEFGH") == (False, False, (token_hash("secret-token-of-ana"), None))
        assert store.opened_by("127.0.0.9") == 1 and store.opened_by("127.0.0.8") == 0
        assert store.codes(playing=True) == ["ABCDEFGH"] == store.codes()
        store.finish("ABCDEFGH", 12345)
        assert store.load("ABCDEFGH").finished and store.codes(playing=True) == []
        assert store.opened_by("127.0.0.9") == 0
        store.save_clock("ABCDEFGH", '{"seconds": 30}')
        assert store.load("ABCDEFGH").clock == '{"seconds": 30}'
        store.add_table("BBBBBBBB", edition, 2, 2, "random", 7, 2.0, 2)
        store.close_lobby("BBBBBBBB")
        assert store.closed("BBBBBBBB") and not store.closed("ABCDEFGH") and store.load("NOSUCHTB") is None
    finally:
        store.close()


def test_the_seed_of_a_running_game_is_sealed_in_both_stores(where, tmp_path):
    store = opened(where, tmp_path)
    try:
        store.add_table("SEALEDAB", "{}", 2, 2, "random", 987654321, 3.25, 2)
        assert store.db.execute("SELECT seed FROM tables WHERE code = 'SEALEDAB'").fetchone()[0] != 987654321
        assert store.load("SEALEDAB").seed == 987654321
        store.finish("SEALEDAB", 987654321)
        assert store.db.execute("SELECT seed FROM tables WHERE code = 'SEALEDAB'").fetchone()[0] == 987654321
    finally:
        store.close()


def test_finished_games_of_bots_alone_are_pruned_to_the_newest_in_both_stores(where, tmp_path):
    store = opened(where, tmp_path)
    try:
        for n in range(5):
            code = f"BOTS{n}AAA"
            store.add_table(code, "{}", 2, 2, "random", n, float(n), 2)
            store.add_decision(code, 0, 0, "A", None)
            store.finish(code, n)
        store.add_table("PEOPLEAA", "{}", 2, 0, "random", 9, 0.5, 2)
        assert store.prune_bot_games(2) == 3
        assert store.codes() == ["PEOPLEAA", "BOTS3AAA", "BOTS4AAA"]
    finally:
        store.close()


@pytest.mark.postgres
def test_a_node_whose_lease_ran_out_loses_its_tables_to_the_node_that_claims_them(postgres_url, tmp_path):
    first = opened(postgres_url, tmp_path)
    second = open_store(postgres_url, key=tmp_path / "cluster.key")
    second.serve_as("ws://127.0.0.1:2")
    try:
        first.add_table("LEASEDAB", "{}", 2, 0, "random", 5, 1.0, 2)
        first.add_decision("LEASEDAB", 0, 0, "A", None)
        owner = second.owner("LEASEDAB")
        assert (owner.node, owner.url, owner.alive) == (first.node, "ws://127.0.0.1:1", True)
        assert 0 < owner.expires_in <= 3.0 and first.owner("LEASEDAB") is None  # its own table
        assert not second.claim("LEASEDAB") and second.expired() == []  # the lease holds
        first.db.execute("UPDATE nodes SET expires = now() - interval '1 second' WHERE name = %s", (first.node,))
        assert second.expired() == ["LEASEDAB"] and not second.owner("LEASEDAB").alive
        assert second.claim("LEASEDAB") and second.owner("LEASEDAB") is None
        assert not first.claim("LEASEDAB")  # back again, but the table is the other node's now
        with pytest.raises(TableMoved):
            first.add_decision("LEASEDAB", 1, 1, "B", None)
        second.add_decision("LEASEDAB", 1, 1, "C", None)
        with pytest.raises(TableMoved):  # a number written already is never written twice
            second.add_decision("LEASEDAB", 1, 1, "D", None)
        assert first.load("LEASEDAB").decisions == ([0, "A", None], [1, "C", None])
        assert second.codes(playing=True) == ["LEASEDAB"] and first.codes(playing=True) == []
    finally:
        first.close()
        second.close()



@pytest.mark.postgres
def test_a_node_that_lost_its_table_writes_no_seat_clock_end_or_closing_to_it(postgres_url, tmp_path):
    """Every write to a table checks its owner, not only the append: a node back after its lease ran out and
    the table was claimed cannot seat a player, move its clock, finish or close it (#32)."""
    first = opened(postgres_url, tmp_path)
    second = open_store(postgres_url, key=tmp_path / "cluster.key")
    second.serve_as("ws://127.0.0.1:2")
    try:
        first.add_table("OWNEDABC", "{}", 3, 1, "random", 5, 1.0, 2, clock='{"move": 30}')
        first.add_seat("OWNEDABC", 2, "Bot 2", "bot", None)
        first.add_seat("OWNEDABC", 0, "Ana", "player", "token-of-ana")
        first.db.execute("UPDATE nodes SET expires = now() - interval '1 second' WHERE name = %s", (first.node,))
        assert second.claim("OWNEDABC")
        with pytest.raises(TableMoved) as moved:
            first.add_seat("OWNEDABC", 1, "Mallory", "player", "token-of-mallory")
        assert moved.value.diagnostics[0].code == "N209"
        with pytest.raises(TableMoved):
            first.save_clock("OWNEDABC", '{"move": 1}')
        with pytest.raises(TableMoved):
            first.finish("OWNEDABC", 5)
        with pytest.raises(TableMoved):
            first.close_lobby("OWNEDABC")
        stored = second.load("OWNEDABC")
        assert stored.seats == ((0, "Ana", "player", token_hash("token-of-ana")), (2, "Bot 2", "bot", None))
        assert (stored.clock, stored.finished, stored.seed) == ('{"move": 30}', False, 5)
        assert not second.closed("OWNEDABC")
        second.add_seat("OWNEDABC", 1, "Ben", "player", "token-of-ben")  # the owner writes as before
        second.save_clock("OWNEDABC", '{"move": 20}')
        assert [s[1] for s in second.load("OWNEDABC").seats] == ["Ana", "Ben", "Bot 2"]
        assert second.load("OWNEDABC").clock == '{"move": 20}'
        second.close_lobby("OWNEDABC")
        assert second.closed("OWNEDABC")
    finally:
        first.close()
        second.close()


@pytest.mark.postgres
def test_a_node_that_lost_a_lobby_seats_nobody_and_closes_nothing_and_says_moved(postgres_url, tmp_path):
    """The same through a node's tables (net/tables.py): a join refused `moved` (not an internal error), its
    seat never written; the lobby's timeout closes nothing (the owner's table now); the seated player is sent
    to the owner at the next tick."""
    from rulesengine.net.protocol import Limits, ProtocolError
    from rulesengine.net.tables import CLOSE, Tables

    first = opened(postgres_url, tmp_path)
    second = open_store(postgres_url, key=tmp_path / "cluster.key")
    second.serve_as("ws://127.0.0.1:2")
    now = [0.0]
    tables = Tables(first, Limits(lobby_timeout=60.0), clock=lambda: now[0])
    try:
        code = tables.open({"type": "host", "edition": "australia", "players": 3, "bots": 1}, "127.0.0.9")["table"]
        seat, _, _ = tables.join(code, "Ana", None)
        first.db.execute("UPDATE nodes SET expires = now() - interval '1 second' WHERE name = %s", (first.node,))
        assert second.claim(code)
        with pytest.raises(ProtocolError) as refused:
            tables.join(code, "Mallory", None)
        assert refused.value.code == "moved" and code not in tables.tables
        assert [s[1] for s in second.load(code).seats] == ["Ana", "Bot 1"]
        frames = tables.tick()
        told = [(c, n, json.loads(text)["code"], detach) for c, n, text, detach in frames]
        assert told == [(code, seat, "moved", CLOSE)]
        tables._restore(code)  # read back (as a resume with Ana's token would): its lobby times out here
        now[0] = 61.0
        assert tables.tick() == [] and code not in tables.tables  # forgotten here (nobody seated here to tell)
        assert not second.closed(code)
    finally:
        first.close()
        second.close()

@pytest.mark.postgres
def test_a_node_leaving_gives_its_tables_up_at_once_and_each_append_is_announced(postgres_url, tmp_path):
    import psycopg

    listener = psycopg.connect(postgres_url, autocommit=True)
    listener.execute("LISTEN boom_tables")
    first = opened(postgres_url, tmp_path)
    second = open_store(postgres_url, key=tmp_path / "cluster.key")
    second.serve_as("ws://127.0.0.1:2")
    try:
        first.add_table("NOTICEAB", "{}", 2, 0, "random", 5, 1.0, 2)
        first.add_decision("NOTICEAB", 0, 0, "A", None)
        first.add_decision("NOTICEAB", 1, 1, "B", None)
        notices = [n.payload for n in listener.notifies(timeout=5, stop_after=2)]
        assert notices == ["NOTICEAB 1", "NOTICEAB 2"]  # the table and the length of its log, nothing else
        first.close()
        assert second.expired() == ["NOTICEAB"] and second.claim("NOTICEAB")
    finally:
        first.close()
        second.close()
        listener.close()


def test_a_database_url_is_printed_without_its_password():
    assert safe_url("postgresql://boom:s3cret@db.example.org:5432/boom") == "postgresql://boom:***@db.example.org:5432/boom"
    assert safe_url("postgresql://boom@127.0.0.1/boom") == "postgresql://boom@127.0.0.1/boom"
    assert safe_url("boom.sqlite") == "boom.sqlite"


def test_an_unreachable_postgresql_is_one_clear_error_without_its_password():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(BoomError) as refused:
        open_store(f"postgresql://boom:s3cret@127.0.0.1:{port}/boom")
    (said,) = refused.value.diagnostics
    assert said.code == "N201" and said.message.startswith(f"cannot use the database postgresql://boom:***@127.0.0.1:{port}/boom")
    assert "s3cret" not in said.message


def test_nodes_starting_together_on_one_key_file_share_one_whole_key(tmp_path):
    """The fresh CI started two nodes of a cluster on one new key file: one created it empty and wrote it, the
    other read it in between and refused "not a key this server wrote". A key now appears whole or not at all."""
    from concurrent.futures import ProcessPoolExecutor

    from rulesengine.net.dbfile import SeedKey

    for attempt in range(5):
        path = tmp_path / f"cluster-{attempt}.key"
        with ProcessPoolExecutor(4) as pool:
            keys = list(pool.map(_key_of, [path] * 8))
        assert len(set(keys)) == 1 and len(keys[0]) == 32
        assert SeedKey(path, create=False).key == keys[0]
        assert oct(path.stat().st_mode & 0o777) == "0o600"
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []   # no file of our own left


def _key_of(path):
    from rulesengine.net.dbfile import SeedKey

    return SeedKey(path, create=True).key
