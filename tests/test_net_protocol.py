"""The protocol without sockets: schemas, parsing refusals, the secrecy allow-lists, the store, editions."""

from __future__ import annotations

import json
import sqlite3

import pytest
from shipped import SHIPPED

from rulesengine.errors import BoomError
from rulesengine.game.dealing import DEAL_VERSION
from rulesengine.game.state import Game
from rulesengine.net.editions import data_for_name, edition_from_data
from rulesengine.net.protocol import CLIENT_TYPES, SERVER_TYPES, Limits, ProtocolError, parse_client_message, validator
from rulesengine.net.secrecy import seat_events, seat_view
from rulesengine.net.stores import open_store
from rulesengine.net.table import Table


def test_every_message_type_has_a_valid_schema():
    for kind in CLIENT_TYPES + SERVER_TYPES:
        assert validator(kind).schema["properties"]["type"] == {"const": kind}


@pytest.mark.parametrize(
    "frame, code, message",
    [
        ("{", "bad_json", "not JSON: Expecting property name enclosed in double quotes"),
        ("7", "bad_message", 'a message is a JSON object with a "type"'),
        ('{"type": "host"}', "bad_message", "host: message: 'edition' is a required property"),
        (
            '{"type": "join", "table": "abc", "name": "Ana"}',
            "bad_message",
            "join: table: 'abc' does not match '^[A-Z0-9]{4,12}$'",
        ),
        (
            '{"type": "join", "table": "ABCDEF", "name": "Ana", "admin": true}',
            "bad_message",
            "join: message: Additional properties are not allowed ('admin' was unexpected)",
        ),
        (
            (
                '{"type": "decide", "table": "ABCDEF", "token": "short", "round": 1, "kind": "throw",'
                ' "id": "1.throw..0", "answer": "A"}'
            ),
            "bad_message",
            "decide: token: 'short' is too short",
        ),
        (
            '{"type": "join", "table": "ABCDEF", "name": "' + "n" * 30 + '"}',
            "too_large",
            "a frame may hold at most 64 bytes",
        ),
    ],
)
def test_refused_frames_say_what_is_wrong(frame, code, message):
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(frame, Limits(max_frame=64) if code == "too_large" else Limits())
    assert (caught.value.code, caught.value.message) == (code, message)


def test_binary_frames_are_refused():
    with pytest.raises(ProtocolError, match="send text frames"):
        parse_client_message(b'{"type": "join"}')


def test_a_field_or_event_the_engine_adds_later_is_not_sent(australia, monkeypatch):
    game = Game(australia, ["Ana", "Ben", "Cy"], 1)
    real_view = Game.view
    monkeypatch.setattr(Game, "view", lambda self, seat: dict(real_view(self, seat), seed=self.seed, hands=[]))
    game.events.append({"type": "debug_state", "to": None, "hands": [[c.letter for c in h] for h in game.places.hands]})
    view = seat_view(game, 0)
    assert "seed" not in view and "hands" not in view
    events, cursor = seat_events(game, 0)
    assert [e["type"] for e in events] == ["round_start", "deal"] and cursor == 5
    assert events[1]["cards"] == [c.letter for c in game.places.hands[0]] and "to" not in events[1]


def test_the_store_keeps_tokens_only_as_hashes_and_rebuilds_a_table(tmp_path, australia):
    store = open_store(tmp_path / "t.sqlite")
    data = data_for_name("australia")
    table = Table("ABCDEF", edition_from_data(data), json.dumps(data), 2, 1, "random", 77, store)
    table.save_new(0.0)
    seat, token = table.join("Ana")
    decision = table.check(
        seat,
        {"kind": "throw", "round": 1, "category": None, "id": "1.throw..0",
         "answer": table.game.places.hands[0][0].letter},
    )
    table.apply(decision, decision.options[0])
    raw = (tmp_path / "t.sqlite").read_bytes() + (tmp_path / "t.sqlite-wal").read_bytes()
    assert token.encode() not in raw
    # the running game's seed is sealed with the key beside the database (a copy of the file alone shows none)
    row = sqlite3.connect(tmp_path / "t.sqlite").execute("SELECT seed, sealed FROM tables").fetchone()
    assert row[1] == 1 and row[0] != 77 and (tmp_path / "t.sqlite.key").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "t.sqlite").stat().st_mode & 0o777 == 0o600
    stored = store.load("ABCDEF")
    assert (stored.players, stored.bots, stored.seed, stored.finished, stored.deal) == (2, 1, 77, False, DEAL_VERSION)
    assert [s[:3] for s in stored.seats] == [(0, "Ana", "player"), (1, "Bot 1", "bot")]
    assert stored.decisions == ([0, decision.options[0], None],)
    again = Table.restore(stored, table.edition, store, 5.0)
    assert again.seat_of(token) == 0 and again.game.decisions == table.game.decisions
    assert again.seats[0].status() == "away" and again.seats[1].status() == "bot"
    with pytest.raises(ProtocolError, match="this token opens no seat at table ABCDEF"):
        again.seat_of("x" * 32)
    store.close()


def test_a_table_refuses_out_of_turn_and_illegal_answers(tmp_path):
    data = data_for_name("australia")
    store = open_store(tmp_path / "t.sqlite")
    table = Table("ABCDEF", edition_from_data(data), json.dumps(data), 2, 0, "random", 3, store)
    table.join("Ana")
    with pytest.raises(ProtocolError, match="waits for 1 more players"):
        table.check(0, {"kind": "throw", "round": 1, "category": None, "id": "1.throw..0", "answer": "A"})
    table.join("Ben")
    with pytest.raises(ProtocolError, match="no draft of round 1 is asked of you now; you are asked: throw"):
        table.check(0, {"kind": "draft", "round": 1, "category": None, "id": "1.draft..0", "answer": "A"})
    held = [c.letter for c in table.game.places.hands[1]]
    with pytest.raises(ProtocolError, match=f"'{held[0]}' is not a legal throw now"):
        table.check(0, {"kind": "throw", "round": 1, "category": None, "id": "1.throw..0", "answer": held[0]})


def test_a_decide_is_bound_to_the_decision_it_answers_and_a_repeat_is_refused(tmp_path):
    data = data_for_name("australia")
    store = open_store(tmp_path / "t.sqlite")
    table = Table("ABCDEF", edition_from_data(data), json.dumps(data), 2, 0, "random", 3, store)
    table.save_new(0.0)
    table.join("Ana")
    table.join("Ben")
    first = table.state(0)["view"]["pending"][0]
    assert first["id"] == "1.throw..0"
    throw = {"kind": "throw", "round": 1, "category": None, "id": first["id"], "answer": first["options"][0]}
    table.apply(table.check(0, throw), throw["answer"])
    second = table.state(1)["view"]["pending"][0]["options"][0]
    table.apply(table.check(1, dict(throw, answer=second)), second)
    drafts = [table.state(0)["view"]["pending"][0]]
    assert drafts[0]["id"] == "1.draft..0"
    pick = {"kind": "draft", "round": 1, "category": None, "id": "1.draft..0", "answer": drafts[0]["options"][0]}
    table.apply(table.check(0, pick), pick["answer"])
    other = table.state(1)["view"]["pending"][0]
    table.apply(table.check(1, dict(pick, id=other["id"], answer=other["options"][0])), other["options"][0])
    now = table.state(0)["view"]["pending"][0]
    assert now["id"] == "1.draft..1"
    # the same frame again, with a card still in hand: refused, never taken as the next pick
    repeat = dict(pick, answer=now["options"][0])
    with pytest.raises(
        ProtocolError, match="decision 1.draft..0 was answered already; now asked: 1.draft..1"
    ) as caught:
        table.check(0, repeat)
    assert caught.value.code == "stale" and len(table.game.decisions) == 4
    # a table read back from its store gives the same ids
    again = Table.restore(table.store.load("ABCDEF"), table.edition, table.store, 0.0)
    assert again.state(0)["view"]["pending"][0]["id"] == "1.draft..1"


def test_sent_edition_data_may_not_name_a_file_on_the_server():
    with pytest.raises(BoomError, match="with 'extends' resolved"):
        edition_from_data({"extends": "/etc/passwd"})
    with pytest.raises(BoomError, match="unknown edition 'atlantis'"):
        data_for_name("atlantis")


def test_the_fast_check_of_decide_accepts_only_what_its_schema_accepts():
    from rulesengine.net.protocol import _plain_decide

    good = {
        "type": "decide",
        "table": "ABCDEF",
        "token": "t" * 16,
        "round": 1,
        "kind": "throw",
        "category": None,
        "id": "1.throw..0",
        "answer": "A",
    }
    variants = [
        good,
        dict(good, ref=3),
        dict(good, category="activities", kind="choice", answer=None),
        dict(good, round=0),
        dict(good, round=True),
        dict(good, round=1.0),
        dict(good, table="abcdef"),
        dict(good, token="t" * 65),
        dict(good, kind="steal"),
        dict(good, answer=["A"]),
        dict(good, extra=1),
        {k: v for k, v in good.items() if k != "answer"},
        dict(good, ref=-1),
        dict(good, category="x" * 65),
        dict(good, table="ABCDEF\n"),
        {k: v for k, v in good.items() if k != "id"},
        dict(good, id="1.throw..0\n"),
        dict(good, id=5),
    ]
    accepted = [v for v in variants if _plain_decide(v)]
    assert len(accepted) == 3
    assert all(validator("decide").is_valid(v) for v in accepted)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_view_key_and_event_type_of_the_engine_is_declared_with_its_audience(path):
    """What a game shows a seat is what its round's blocks declare (secrecy.py sends only that): every key of
    every view, every key of a view entry's mappings, and every event, told to all or to its seat as declared."""
    from rulesengine import load_edition
    from rulesengine.bots.registry import RandomAgent
    from rulesengine.game.blocks import OWN, PUBLIC, round_plan
    from rulesengine.game.loop import play
    from rulesengine.net.secrecy import view_keys

    edition = load_edition(path)
    plan = round_plan(edition)
    n = min(max(edition.players_min, 3), edition.players_max)
    n = n if edition.draft.fits(n) else edition.players_min
    game = Game(edition, [f"P{s}" for s in range(n)], 2)
    views = []
    play(game, [RandomAgent(seat, edition) for seat in range(n)], lambda g: views.append(g.view(0)))
    assert {key for view in views for key in view} == set(view_keys(edition))
    for key, allowed in plan.entries.items():
        assert {k for view in views for entry in view[key] for k in entry} == set(allowed)
    assert {e["type"] for e in game.events if e["to"] is None} <= {t for t, a in plan.events.items() if a == PUBLIC}
    assert {e["type"] for e in game.events if e["to"] is not None} <= {t for t, a in plan.events.items() if a == OWN}


def test_no_seat_can_work_out_another_seats_next_hand_from_the_public_history(australia):
    """With 3 players the 7 cards not dealt in round 1 are known to all; dealt one at a time, they are
    spread over the hands of round 2 (dealt as a block, they were seat 0's whole hand)."""
    from rulesengine.bots.registry import RandomAgent

    game = Game(australia, ["Ana", "Ben", "Cy"], 0)
    agents = [RandomAgent(seat) for seat in range(3)]
    while game.round == 0:
        for decision in game.pending():
            game.apply(
                decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category
            )
    view = seat_view(game, 1)
    dealt_before = {letter for letters in view["history"][0]["drafts"].values() for letter in letters}
    worked_out = {c.letter for c in australia.cards} - dealt_before
    assert worked_out != {c.letter for c in game.places.hands[0]}


def test_a_decision_that_cannot_be_written_is_not_played(tmp_path, monkeypatch):
    import sqlite3

    data = data_for_name("australia")
    store = open_store(tmp_path / "t.sqlite")
    table = Table("ABCDEF", edition_from_data(data), json.dumps(data), 2, 1, "random", 3, store)
    table.save_new(0.0)
    table.join("Ana")
    first = table.game.places.hands[0][0].letter
    decision = table.check(0, {"kind": "throw", "round": 1, "category": None, "id": "1.throw..0", "answer": first})

    def disk_full(*args):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "add_decision", disk_full)
    with pytest.raises(sqlite3.OperationalError):
        table.apply(decision, decision.options[0])
    assert table.game.decisions == [] and table.game.pending()[0] == decision
