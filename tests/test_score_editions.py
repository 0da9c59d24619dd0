"""`boom score` and editions: the record's own edition when none is given, and a record scored under
another edition with --edition ("what would last night's game give under my house rule?")."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main

AUSTRALIA = str(EDITIONS / "australia.yaml")
DOUBLE = str(EDITIONS / "variants" / "australia-double-last-round.yaml")


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def played(tmp_path):
    record = tmp_path / "game.yaml"
    assert invoke("run", AUSTRALIA, "-p", 3, "--seed", 1, "-q", "--save-record", record).exit_code == 0
    return record


def test_without_an_edition_the_record_s_own_is_used(tmp_path):
    record = played(tmp_path)
    alone = invoke("score", "--record", record)
    assert alone.exit_code == 0
    assert alone.output == invoke("score", AUSTRALIA, "--record", record).output
    assert alone.output.endswith("1. Ben  109\n2. Cy  99\n3. Ana  89\nWinner: Ben\n")   # the README's game


def test_a_record_naming_no_edition_asks_for_one(tmp_path):
    record = tmp_path / "table.yaml"
    record.write_text("players: [Ana, Ben]\nrounds: []\n")
    result = invoke("score", "--record", record)
    assert result.exit_code == 2
    assert (f"{record} names no edition (no 'edition:' line): give it, e.g. boom score australia --record {record}"
            in result.output)


def test_another_edition_scores_the_same_game_under_its_rules(tmp_path):
    record = played(tmp_path)
    what_if = invoke("score", "--record", record, "--edition", DOUBLE)
    assert what_if.exit_code == 0
    assert what_if.output.startswith("Scored under Boomerang: Australia (double last round); "
                                     "the game was played under australia.\n")
    # the README's game: round 4's total once more, 15, 31, 27 on the sheet and the region bonuses won in it
    # (0, 3, 3): 89 + 15, 109 + 34, 99 + 30
    assert "│ Last round again │  15 │  34 │  30 │" in what_if.output
    assert what_if.output.endswith("1. Ben  143\n2. Cy  129\n3. Ana  104\nWinner: Ben\n")


def test_the_wrong_edition_as_file_says_how_to_ask_the_what_if(tmp_path):
    record = played(tmp_path)
    refused = invoke("score", DOUBLE, "--record", record)
    assert refused.exit_code == 1
    assert refused.output == (
        f"{record}:1:10: error: this record is a game of 'australia', not of 'australia-double-last-round'\n"
        "    edition: australia\n"
        "             ^~~~~~~~~\n"
        "    hint: to see what it gives under australia-double-last-round: "
        "boom score --record FILE --edition australia-double-last-round\n")
    both = invoke("score", AUSTRALIA, "--record", record, "--edition", DOUBLE)
    assert both.exit_code == 2 and "give the edition as EDITION" in both.output
