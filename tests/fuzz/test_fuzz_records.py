"""Fuzzing game records (the score pad's input): a record either scores, or every problem is a
RecordError at a line and column of the record; the records of real games score as they were played.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import event, given
from hypothesis import strategies as st

from rulesengine import BoomError, Game, RecordError, load_edition, load_record, render, score_record
from rulesengine.bots.registry import RandomAgent
from rulesengine.game.loop import play

from .budget import budget
from .paths import EDITIONS
from .yaml_strategies import json_like, mutated_text

pytestmark = pytest.mark.fuzz

EDITIONS_BY_ID = {e.id: e for e in (load_edition(p) for p in sorted(EDITIONS.glob("*.yaml")))}
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]


def played(edition, players: int, seed: int) -> tuple[dict, dict]:
    """The record and the sheet of a game of bots."""
    game = Game(edition, NAMES[:players], seed)
    play(game, [RandomAgent(seed * 10 + seat) for seat in range(players)])
    return game.record(), game.scores.sheet()


GAMES = [
    (edition, *played(edition, players, seed))
    for edition in EDITIONS_BY_ID.values()
    for players, seed in ((edition.players_min, 1), (edition.players_max, 2), (3, 3))
]


@pytest.fixture(scope="module")
def record_path(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz-records") / "record.yaml"


def score_any_record(edition, path):
    """Score the record at path: a sheet, or a RecordError located in the record."""

    def load_and_score():
        record, source_map = load_record(path)
        return record, score_record(edition, record, source_map)

    try:
        scored = load_and_score()
    except RecordError as exc:
        assert exc.diagnostics
        for diagnostic in exc.diagnostics:
            assert diagnostic.span is not None and diagnostic.span.file == str(path), diagnostic
            text = Path(path).read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n")
            assert 1 <= diagnostic.span.line <= text.count("\n") + 2, diagnostic
            lines = text.splitlines()
            assert diagnostic.quote in (  # a file that does not parse as a record is never quoted
                None, lines[diagnostic.span.line - 1] if diagnostic.span.line <= len(lines) else None
            ), diagnostic
            render(diagnostic)
        event(f"record refused: {exc.diagnostics[0].code}")
        return None
    except BoomError as exc:  # a rule of the game broken by the record, found while scoring
        assert exc.diagnostics
        event(f"record refused while scoring: {exc.diagnostics[0].code}")
        return None
    record, sheet = scored
    assert [p["name"] for p in sheet["players"]] == record["players"]
    assert all(p["total"] == sum(p["categories"].values()) for p in sheet["players"])
    event("record scored")
    return sheet


WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 40),
    st.text(max_size=5),
    st.lists(st.text(max_size=2), max_size=3),
    st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=2),
    st.sampled_from(["A", "#", "@", "Z", "a", "Swimming", "Leaves", "activities"]),
)


@st.composite
def mutated_records(draw):
    """A real game's record with a few of the mistakes people make (and some nobody would)."""
    edition, record, sheet = draw(st.sampled_from(GAMES))
    record = json.loads(json.dumps(record))
    changes = draw(
        st.lists(
            st.sampled_from(
                [
                    "drop card",
                    "duplicate card",
                    "swap cards across seats",
                    "replace card",
                    "wrong type",
                    "unknown player",
                    "rename player",
                    "drop player",
                    "extra player",
                    "drop round",
                    "extra round",
                    "choice",
                    "bad choice",
                    "drop key",
                    "unknown key",
                    "edition",
                ]
            ),
            min_size=0,
            max_size=3,
        )
    )
    for change in changes:
        rounds = record.get("rounds") if isinstance(record, dict) else None
        if not isinstance(rounds, list) or not rounds:
            break
        r = draw(st.integers(0, len(rounds) - 1))
        round_data = rounds[r] if isinstance(rounds[r], dict) else {}
        drafts = round_data.get("drafts") if isinstance(round_data.get("drafts"), dict) else {}
        seats = list(drafts)
        seat = draw(st.sampled_from(seats)) if seats else None
        hand = drafts.get(seat) if seat is not None and isinstance(drafts.get(seat), list) else None
        if change == "drop card" and hand:
            hand.pop(draw(st.integers(0, len(hand) - 1)))
        elif change == "duplicate card" and hand:
            hand.append(draw(st.sampled_from(hand)))
        elif change == "swap cards across seats" and hand and len(seats) > 1:
            other = drafts[draw(st.sampled_from([s for s in seats if s != seat]))]
            if isinstance(other, list) and other:
                i, j = draw(st.integers(0, len(hand) - 1)), draw(st.integers(0, len(other) - 1))
                hand[i] = other[j]
        elif change == "replace card" and hand:
            hand[draw(st.integers(0, len(hand) - 1))] = draw(st.sampled_from([c.letter for c in edition.cards]) | WRONG)
        elif change == "wrong type":
            target = draw(st.sampled_from(["players", "rounds", "round", "drafts", "hand", "choices"]))
            value = draw(WRONG)
            if target in ("players", "rounds"):
                record[target] = value
            elif target == "round":
                rounds[r] = value
            elif target == "drafts":
                round_data["drafts"] = value
            elif target == "hand" and seat is not None:
                drafts[seat] = value
            else:
                round_data["choices"] = value
        elif change == "unknown player" and seat is not None:
            drafts[draw(st.sampled_from(["Zed", "ana", "", "1"]))] = drafts.pop(seat)
        elif change == "rename player" and isinstance(record.get("players"), list) and record["players"]:
            record["players"][0] = draw(WRONG)
        elif change == "drop player" and isinstance(record.get("players"), list) and record["players"]:
            record["players"].pop()
        elif change == "extra player" and isinstance(record.get("players"), list):
            record["players"].append(draw(st.sampled_from(NAMES)))
        elif change == "drop round":
            rounds.pop(r)
        elif change == "extra round":
            rounds.append(json.loads(json.dumps(rounds[r])))
        elif change in ("choice", "bad choice") and seat is not None:
            categories = [c.key for c in edition.choice_categories] or ["activities"]
            icons = [i for f in edition.families.values() for i in f.icons]
            key = (
                draw(st.sampled_from(categories))
                if change == "choice"
                else draw(st.sampled_from(categories) | WRONG.map(str))
            )
            icon = draw(st.sampled_from(icons)) if change == "choice" else draw(st.sampled_from(icons) | WRONG)
            choices = round_data.setdefault("choices", {})
            if isinstance(choices, dict):
                choices.setdefault(seat, {})
                if isinstance(choices[seat], dict):
                    choices[seat][key] = icon
        elif change == "drop key":
            record.pop(draw(st.sampled_from(["players", "rounds", "edition"])), None)
        elif change == "unknown key":
            target = record if draw(st.booleans()) else round_data
            target[draw(st.sampled_from(["player", "round", "draft", "choise", "notes"]))] = draw(WRONG)
        elif change == "edition":
            record["edition"] = draw(st.sampled_from(list(EDITIONS_BY_ID)) | WRONG)
    as_json = draw(st.booleans())
    text = (
        json.dumps(record, indent=draw(st.sampled_from([None, 2])))
        if as_json
        else yaml.safe_dump(record, sort_keys=False, allow_unicode=True)
    )
    return edition, text, (sheet if not changes else None)


@budget(250)
@given(case=mutated_records())
def test_mutated_records(record_path, case):
    edition, text, sheet = case
    record_path.write_bytes(text.encode("utf-8", "surrogatepass"))
    scored = score_any_record(edition, record_path)
    if sheet is not None:
        assert scored == sheet, "a record scores as its game was played"


RECORD_TEXTS = [yaml.safe_dump(record, sort_keys=False) for _, record, _ in GAMES]


@budget(100)
@given(
    edition=st.sampled_from(list(EDITIONS_BY_ID.values())),
    text=mutated_text(RECORD_TEXTS) | json_like().map(yaml.safe_dump),
)
def test_mutated_record_texts(record_path, edition, text):
    record_path.write_bytes(text.encode("utf-8", "surrogatepass"))
    score_any_record(edition, record_path)
