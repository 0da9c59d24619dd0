"""The errors a house-rule author meets, said so that they can fix them (issue #15)."""

from __future__ import annotations

from pathlib import Path

from rulesengine import check_edition

AUSTRALIA = Path(__file__).resolve().parent.parent / "editions" / "australia.yaml"


def errors(tmp_path, body):
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {AUSTRALIA}\n{body}", encoding="utf-8")
    edition, diagnostics = check_edition(path)
    assert edition is None
    return [(d.code, d.span.line, d.span.col, d.message, d.hint) for d in diagnostics if d.severity == "error"]


def test_an_id_may_hold_a_dash_and_the_error_says_so(tmp_path):
    [(code, line, col, message, _)] = errors(tmp_path, "id: Bad_Id\n")
    assert (code, line, col) == ("S106", 2, 5)
    assert message == ("id: 'Bad_Id' is not a valid name "
                       "(lower-case letters, digits, '_' and '-', starting with a letter)")


def test_a_comma_that_splits_a_one_line_entry_is_explained(tmp_path):
    found = errors(tmp_path, "categories:\n  - {key: k, score: min(len(cards), 3)}\n")
    [(code, line, col, message, hint)] = [e for e in found if e[0] == "S101"]
    assert (line, col, message) == (3, 37, "unknown key '3)' in the category 'k'")
    assert hint.startswith("a comma inside a one-line {...} entry ends the value there")


def test_a_removed_category_still_a_parent_tie_break_points_at_the_remove(tmp_path):
    [(code, line, col, message, hint)] = errors(tmp_path, "remove:\n  categories: [throw_catch]\n")
    assert (code, line, col) == ("M315", 3, 16)
    assert message == "'throw_catch' is removed here, but the tie_breaks of the edition it extends still name it"
    assert hint == "set tie_breaks in this file too, e.g. tie_breaks: [collections], or [] for none"


def test_a_tie_break_is_a_key_or_a_key_with_an_order(tmp_path):
    [(code, line, col, message, _)] = errors(tmp_path, "tie_breaks: [{key: animals, order: most}]\n")
    assert (code, line, col) == ("S104", 2, 36)
    assert message == "tie_breaks[0].order must be one of 'highest', 'lowest', not 'most'"
