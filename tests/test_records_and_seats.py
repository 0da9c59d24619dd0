"""Record writing and seat line-ups live in the library (cli/ only parses arguments and prints)."""

from __future__ import annotations

import json

import pytest
import yaml

from rulesengine.bots.registry import parse_seats
from rulesengine.game.records import write_record

RECORD = {"edition": "australia", "players": ["Ana", "Bé"],
          "rounds": [{"drafts": {"Ana": ["A", "B"], "Bé": ["C", "D"]}, "choices": {}}]}


def test_a_record_is_written_as_json_or_yaml_by_its_name(tmp_path):
    write_record(tmp_path / "game.JSON", RECORD)
    write_record(tmp_path / "game.yaml", RECORD)
    assert json.loads((tmp_path / "game.JSON").read_text(encoding="utf-8")) == RECORD
    assert (tmp_path / "game.JSON").read_text(encoding="utf-8").endswith("}\n")
    assert yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8")) == RECORD
    assert "Bé: [C, D]" in (tmp_path / "game.yaml").read_text(encoding="utf-8")


def test_a_line_up_names_one_bot_per_seat():
    assert parse_seats(" greedy, random,,search ") == ["greedy", "random", "search"]
    assert parse_seats("blend:20,greedy") == ["blend:20", "greedy"]


@pytest.mark.parametrize("text, message", [
    ("greedy,grredy", "unknown bot 'grredy' (bots: random, greedy1, greedy, search, ismcts, blend, guided; a budget "
                      "as search:ROLLOUTS, blend:ROLLOUTS, ismcts:ITERATIONS or guided:ITERATIONS)"),
    ("greedy,blend:0", "unknown bot 'blend:0' (bots: random, greedy1, greedy, search, ismcts, blend, guided; a budget "
                       "as search:ROLLOUTS, blend:ROLLOUTS, ismcts:ITERATIONS or guided:ITERATIONS)"),
    (" , ", "name at least one bot"),
])
def test_a_wrong_line_up_says_what_is_wrong(text, message):
    with pytest.raises(ValueError) as caught:
        parse_seats(text)
    assert str(caught.value) == message
