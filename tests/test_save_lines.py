"""Saves one field a line and one decision a line; a long quoted line shown as a window around the caret."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine.errors import Diagnostic, Span, render
from rulesengine.game.saves import Session


def saved(tmp_path):
    save = tmp_path / "g.json"
    session = Session.start(str(EDITIONS / "australia.yaml"), ["Ana", "Ben"], ["random", "random"], 3,
                            save_path=str(save))
    session.game.apply(0, session.game.pending()[0].options[0], None)
    session.game.apply(1, session.game.pending()[0].options[1], None)
    session.checkpoint()
    session.unlock()
    return save


def test_a_save_is_written_one_field_a_line_and_one_decision_a_line(tmp_path):
    save = saved(tmp_path)
    lines = save.read_text().splitlines()
    data = json.loads(save.read_text())
    fields = list(data).index("decisions")  # the header's: type, format, edition ... options
    assert lines[0] == "{" and lines[-1] == "}" and fields == 10
    assert lines[1:fields + 1] == [f" {json.dumps(key)}: {json.dumps(data[key])}," for key in list(data)[:fields]]
    assert lines[fields + 1:fields + 5] == [' "decisions": [', f"  {json.dumps(data['decisions'][0])},",
                                            f"  {json.dumps(data['decisions'][1])}", " ],"]
    assert lines[fields + 5:] == [' "over": false', "}"]
    assert max(len(line) for line in lines) < 100


def test_a_bad_decision_is_quoted_on_its_own_short_line(tmp_path):
    save = saved(tmp_path)
    second = json.loads(save.read_text())["decisions"][1]
    save.write_text(save.read_text().replace(json.dumps(second), json.dumps([1, "ZZ", None])))
    result = CliRunner().invoke(main, ["resume", str(save), "-q"])
    assert result.exit_code == 1
    assert result.output.startswith(f"{save}:14:3: error: decision 2: 'ZZ' is not a legal throw for Ben")
    assert result.output.splitlines()[1:3] == ['      [1, "ZZ", null]', "      ^~~~~~~~~~~~~~~"]


def test_a_long_line_is_quoted_as_a_window_of_60_columns_around_the_caret():
    line = "[" + ", ".join(f'"k{i:03}"' for i in range(100)) + "]"          # 800 columns, one line
    at = line.index('"k050"') + 1
    text = render(Diagnostic(Span("old.json", 1, at, 1, at + 6), "bad key", "F901", quote=line))
    assert text.splitlines() == [
        f"old.json:1:{at}: error: bad key",
        '    ...046", "k047", "k048", "k049", "k050", "k051", "k052", "k053"...',
        "                                     ^~~~~~",
    ]
    start = render(Diagnostic(Span("old.json", 1, 2), "bad", "F901", quote=line)).splitlines()
    assert start[1] == "    " + line[:60] + "..." and start[2] == "     ^"
    end = render(Diagnostic(Span("old.json", 1, len(line)), "bad", "F901", quote=line)).splitlines()
    assert end[1] == "    ..." + line[-60:] and end[2] == "    " + " " * 62 + "^"
    short = render(Diagnostic(Span("f.yaml", 1, 5), "bad", "E1", quote="x" * 80)).splitlines()
    assert short[1] == "    " + "x" * 80                                      # a line that fits is shown whole
