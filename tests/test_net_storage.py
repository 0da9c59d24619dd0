"""The storage interface (net/storage.py): what a store keeps and gives back, asked through the interface alone.

The tests take the store as a parameter (the SQLite file here), so every store behind the interface answers the
same calls with the same values.
"""

from __future__ import annotations

import json

import pytest

from rulesengine.net.storage import open_store, token_hash


@pytest.fixture(params=["sqlite"])
def where(request, tmp_path):
    return tmp_path / "t.sqlite"


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
