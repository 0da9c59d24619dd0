"""Inputs the fuzzers (or their authors, reading the code they pointed at) found crashing or hanging
the YAML reader and the `extends:` merger, kept as plain tests once fixed."""

from __future__ import annotations

import pytest

from rulesengine import check_edition

from .paths import EDITIONS

AUSTRALIA = (EDITIONS / "australia.yaml").read_text(encoding="utf-8")


def checked(tmp_path, name: str, text: str):
    """check_edition of text written at tmp_path/name: every diagnostic located (no wall-clock limit:
    tests count work, timings belong in bench/)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    edition, diagnostics = check_edition(path)
    assert all(d.span is not None for d in diagnostics), diagnostics
    return edition, diagnostics


def messages(diagnostics) -> list[str]:
    return [f"{d.span.line}:{d.span.col}: {d.message}" for d in diagnostics if d.severity == "error"]


def test_a_number_as_an_icon_name_is_an_error_not_a_crash(tmp_path):
    # a YAML key `0:` used to stay an int, and the 'unknown icon' hint called len() on it
    edition, diagnostics = checked(tmp_path, "e.yaml", AUSTRALIA.replace("icons: {Kangaroos: 3,", "icons: {0: 3,"))
    assert edition is None and any("'Kangaroos'" in m for m in messages(diagnostics))


@pytest.mark.parametrize(
    "child, message",
    [
        ('extends: "a\\0b"\n', "1:10: cannot find the edition 'a\\x00b' (looked for "),  # a NUL is kept as visible text
        ("extends: " + "a" * 5000 + "\n", "1:10: cannot find the edition '" + "a" * 5000 + "' (File name too long)"),
        (
            "extends: ../australia.yaml\nremove: {families: [[a]]}\n",
            "2:21: 'remove.families' must be a list of names, not of lists",
        ),
        (
            "extends: ../australia.yaml\nremove: {cards: [{A: 1}]}\n",
            "2:18: 'remove.cards' must be a list of names, not of dicts",
        ),
        (
            "extends: ../australia.yaml\ncards:\n  - {letter: [A], number: 3}\n",
            "3:14: cards[28].letter must be a text, not a list",
        ),
        (
            "extends: ../australia.yaml\ncategories:\n  - {key: {a: 1}, score: '1'}\n",
            "3:11: categories[5].key must be a text, not a mapping",
        ),
    ],
    ids=[
        "NUL in extends",
        "name too long",
        "list in remove",
        "mapping in remove",
        "list as a card letter",
        "mapping as a category key",
    ],
)
def test_odd_house_rules_are_errors_not_crashes(tmp_path, child, message):
    (tmp_path / "variants").mkdir()
    (tmp_path / "australia.yaml").write_text(AUSTRALIA, encoding="utf-8")
    edition, diagnostics = checked(tmp_path / "variants", "child.yaml", child)
    assert edition is None and any(m.startswith(message) for m in messages(diagnostics)), messages(diagnostics)


@pytest.mark.parametrize("parent", ["cards: 5\nfamilies: 7\n", "families: [1, 2]\ncards: {a: 1}\n"])
def test_removing_from_a_broken_parent_reports_the_parent(tmp_path, parent):
    (tmp_path / "parent.yaml").write_text(parent, encoding="utf-8")
    edition, diagnostics = checked(
        tmp_path, "child.yaml", "extends: parent.yaml\nremove: {cards: [A], families: [a]}\n"
    )
    assert edition is None
    assert any(d.span.file.endswith("parent.yaml") and "must be a" in d.message for d in diagnostics)


def merge_work(tmp_path, n: int, monkeypatch) -> tuple[int, list]:
    """How many remembered positions the merger touches for a house rule changing n cards."""
    from rulesengine.edition import merge

    touched = [0]
    record, moved = merge.Merge.record, merge.Merge.moved

    def counting_record(self, path, child_path):
        touched[0] += 1
        return record(self, path, child_path)

    def counting_moved(self, items, keep, path):
        touched[0] += len(items)
        return moved(self, items, keep, path)

    monkeypatch.setattr(merge.Merge, "record", counting_record)
    monkeypatch.setattr(merge.Merge, "moved", counting_moved)
    folder = tmp_path / str(n)
    folder.mkdir()
    (folder / "australia.yaml").write_text(AUSTRALIA, encoding="utf-8")
    added = "".join(
        f"  - {{letter: 'N{i}', name: x, region: Tasmania, number: 1, icons: [Leaves]}}\n" for i in range(n)
    )
    (folder / "middle.yaml").write_text("extends: australia.yaml\ncards:\n" + added, encoding="utf-8")
    changed = "".join(f"  - {{letter: 'N{i}', number: 2, icons: [Emus]}}\n" for i in range(n))
    removed = "remove: {cards: [" + ", ".join(f"'N{i}'" for i in range(0, n, 3)) + "]}\n"
    edition, diagnostics = checked(folder, "child.yaml", "extends: middle.yaml\n" + removed + "cards:\n" + changed)
    assert edition is None
    return touched[0], diagnostics


def test_a_large_house_rule_merges_in_linear_time(tmp_path, monkeypatch):
    # the merger used to scan every remembered position once per changed value: minutes for 3,000
    # cards. Counted, not timed: twice the cards may touch about twice the positions, not four times.
    small, _ = merge_work(tmp_path, 200, monkeypatch)
    large, diagnostics = merge_work(tmp_path, 400, monkeypatch)
    assert large < 3 * small
    # N0 was removed from the middle file, so the child's N0 is a new card, incomplete, at its own line
    [no_name] = [d for d in diagnostics if d.message == "the card 'N0' is missing the key 'name'"]
    assert no_name.span.file.endswith("child.yaml") and no_name.span.line == 4
    assert any(d.message.startswith("cards: takes at most 100 items") for d in diagnostics)


def test_an_error_in_an_expression_full_of_escapes_is_located_quickly(tmp_path):
    # locating a character in a scalar used to scan the raw text once per character, in Python
    expression = "len(visited) + len([" + "1, " * 700 + "cach])"
    escaped = "".join(f"\\x{ord(ch):02x}" for ch in expression)
    edition, diagnostics = checked(tmp_path, "e.yaml", AUSTRALIA.replace("score: len(visited)", f'score: "{escaped}"'))
    assert edition is None and any("unknown name 'cach'" in m for m in messages(diagnostics))


def test_outputs_into_a_missing_folder_are_refused_before_the_game(tmp_path):
    from click.testing import CliRunner

    from cli.main import main

    target = tmp_path / "no" / "such" / "dir" / "game.yaml"
    for option in ("--save-record", "--save", "--log"):
        result = CliRunner().invoke(
            main, ["run", str(EDITIONS / "australia.yaml"), "--players", "2", "--seed", "1", "-q", option, str(target)]
        )
        assert result.exit_code == 2  # refused like a bad option, before the game
        assert f"error: cannot write {target}: its folder does not exist or is not writable" in result.output
        assert "Winner" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    "text, value",
    [
        ("(let x = true; [(let y = x.region; x) for x in []])", []),  # an attribute of an item of `[]`
        ("sum([x.number for x in []])", 0),
        ("len([x for x in [x for x in [x for x in [x for x in []]]]])", 0),  # a chain of lists is not nested
    ],
)
def test_expressions_the_dsl_fuzzer_found_refused_now_evaluate(text, value):
    from rulesengine import load_edition
    from rulesengine.edition.build import compile_expression

    assert compile_expression(load_edition(EDITIONS / "australia.yaml"), text)({}) == value


def test_an_unknown_attribute_of_an_item_of_the_empty_list_is_still_an_error():
    from rulesengine import load_edition
    from rulesengine.edition.build import compile_expression
    from rulesengine.errors import EditionError

    with pytest.raises(EditionError) as caught:
        compile_expression(load_edition(EDITIONS / "australia.yaml"), "[x.regin for x in []]")
    (diagnostic,) = caught.value.diagnostics
    assert (diagnostic.code, diagnostic.span.col, diagnostic.hint) == ("D204", 2, "did you mean 'region'?")


def test_options_alone_at_game_end_conforms_to_its_type():
    """The `large` profile drew the bare expression `options` at game end: the value (the seat's options, none
    declared in Australia) was right and the fuzzer's type check knew no seat options; both runners agree."""
    from types import SimpleNamespace

    from rulesengine.dsl import OptionsType
    from rulesengine.edition import load_edition

    from .dsl_strategies import conforms

    australia = load_edition(EDITIONS / "australia.yaml")
    assert conforms(SimpleNamespace(), OptionsType(()), australia)
    assert not conforms(SimpleNamespace(handicap=-5), OptionsType(()), australia)
    assert conforms(SimpleNamespace(handicap=-5), OptionsType(("handicap",)), australia)
    assert not conforms(SimpleNamespace(handicap="-5"), OptionsType(("handicap",)), australia)


def test_a_hand_of_one_card_with_a_throw_and_a_catch_is_refused(tmp_path):
    """The `large` profile of test_mutated_house_rules validated a house rule dealing 1 card in its first round
    beside a Throw and a Catch; its game then stopped with an IndexError (the Catch took from an empty hand)."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "australia.yaml").write_bytes((EDITIONS / "australia.yaml").read_bytes())
    path = tmp_path / "variants" / "one.yaml"
    path.write_text(
        "extends: ../australia.yaml\nid: australia-one\nname: One\nflow:\n  round:\n"
        "    - deal: {cards: [1, 6, 7, 7]}\n    - throw:\n    - pick_and_pass:\n    - catch:\n    - choices:\n",
        encoding="utf-8",
    )
    edition, diagnostics = check_edition(path)
    errors = [(d.code, d.message, d.span.line) for d in diagnostics if d.severity == "error"]
    assert edition is None and errors == [("M333", "a hand of 1 card cannot give both the Throw and the Catch", 6)]
