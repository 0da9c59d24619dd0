"""docs/authoring.md's merge table, the schema's hover text and the merge itself agree (issue #31).

Each row names a place, its rule, an edition, an example house rule and what it gives. The rule must
be the one the schema's description at that place states ("In a house rule: RULE."), the example
merged onto the edition must give each value of the last column, and the house rule must validate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulesengine import check_edition
from rulesengine.edition.extends import load_with_extends
from rulesengine.edition.merge import KEYED_LISTS
from rulesengine.edition.schema import schema_document

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")


def rows() -> list[list[str]]:
    table = DOC.split("<!-- merge table: begin -->")[1].split("<!-- merge table: end -->")[0]
    lines = [line for line in table.strip().splitlines()[2:] if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines]


def unquoted(cell: str) -> str:
    return cell[1:-1] if cell.startswith("`") and cell.endswith("`") else cell


def schema_at(place: str) -> dict:
    node = schema_document()
    for part in re.findall(r"[a-z_]+|\*|\[\]", place):
        branches = [b for b in node.get("anyOf") or node.get("oneOf") or () if "$ref" not in b]
        inner = branches[0] if branches else node
        if part == "*":
            node = inner["additionalProperties"]
        elif part == "[]":
            node = inner["items"]
        else:
            node = inner["properties"][part]
    return node


def value_at(data, path: str):
    """A value of the merged data by a dotted path; after a keyed list, a part names the entry."""
    node, parts = data, path.split(".")
    previous = None
    for part in parts:
        if isinstance(node, list) and previous in KEYED_LISTS:
            [node] = [e for e in node if str(e.get(KEYED_LISTS[previous])) == part]
        else:
            node = node[part]
        previous = part
    return node


TABLE = rows()


def test_the_table_has_a_row_for_every_place_of_the_schema_that_merges_otherwise_than_replacing():
    places = {unquoted(row[0]).split(" ")[0] for row in TABLE}
    assert {"players", "passing", "passing.directions", "families", "families.*", "families.*.icons", "regions",
            "cards", "cards[].icons", "map", "map.paths", "card_sets", "card_sets.*", "tables", "tables.*",
            "categories", "categories[].choice", "races", "tie_breaks", "flow", "remove", "borrow"} <= places


@pytest.mark.parametrize("place, rule, edition, example, gives", TABLE, ids=[f"{r[0]} {r[3]}"[:60] for r in TABLE])
def test_each_row_is_what_the_schema_says_and_what_the_merge_does(tmp_path, place, rule, edition, example, gives):
    place = unquoted(place).split(" ")[0]
    assert f"In a house rule: {rule}." in schema_at(place)["description"]
    path = tmp_path / "rule.yaml"
    path.write_text(f"extends: {edition}\nid: rule\n{unquoted(example)}\n", encoding="utf-8")
    data, _ = load_with_extends(path)
    for key, expected in yaml.safe_load(unquoted(gives)).items():
        if key.startswith("len "):
            assert len(value_at(data, key[4:])) == expected, key
        else:
            assert value_at(data, key) == expected, key
    _, diagnostics = check_edition(path)
    assert [d.message for d in diagnostics if d.severity == "error"] == []
