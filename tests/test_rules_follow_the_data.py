"""Rules text from the data (#31): descriptions name the values they state (`{families.animal}`,
`{regions.bonus}`, `{tables.activity_points.2}`), so `boom rules` of a house rule that changes every
icon value, region bonus and table row states the new values, and no description keeps an old one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cli.main import main
from rulesengine import check_edition

ROOT = Path(__file__).resolve().parent.parent


def everything_changed(tmp_path, edition: str) -> Path:
    """A house rule of the edition giving icon i (in file order) the value 100 + i, region j the bonus
    200 + j and table row k the value 300 + k."""
    data = yaml.safe_load((ROOT / "editions" / f"{edition}.yaml").read_text(encoding="utf-8"))
    icons = [(key, icon) for key, family in data["families"].items() if isinstance(family["icons"], dict)
             for icon in family["icons"]]
    families = {}
    for index, (key, icon) in enumerate(icons):
        families.setdefault(key, {"icons": {}})["icons"][icon] = 100 + index
    regions = [{"name": r["name"], "bonus": 200 + j} for j, r in enumerate(data["regions"])]
    rows = [(table, row) for table, values in data.get("tables", {}).items() for row in values]
    tables = {}
    for k, (table, row) in enumerate(rows):
        tables.setdefault(table, {})[row] = 300 + k
    rule = {"extends": edition, "id": f"{edition}-changed", "families": families, "regions": regions,
            "tables": tables}
    path = tmp_path / f"{edition}-changed.yaml"
    path.write_text(yaml.safe_dump(rule, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def rules_paragraphs(path) -> str:
    """`boom rules` with each paragraph on one line (the text is wrapped at 96 columns)."""
    result = CliRunner().invoke(main, ["rules", str(path), "-q"])
    assert result.exit_code == 0, result.output
    return " ".join(line.strip() for line in result.output.splitlines())


EXPECTED = {
    "australia": [
        "Add the values of the Collections icons on your cards (Leaves 100, Wildflowers 101, Shells 102, "
        "Souvenirs 103); a sum of 7 or less is doubled.",
        "Each pair of the same animal scores that animal's value once (Kangaroos 104, Emus 105, Wombats 106, "
        "Koalas 107, Platypuses 108); a single animal scores nothing.",
        "Points for how many of your cards this round show the activity you choose (cards → points: 1 → 300, "
        "2 → 301, 3 → 302, 4 → 303, 5 → 304, 6 → 305).",
        "The region's bonus (200 points, or 201 for Northern Territory, 202 for Queensland, 203 for South "
        "Australia, 204 for New South Wales, 205 for Victoria, 206 for Tasmania) to every player",
    ],
    "europe": [
        "Add the values of the Cuisine icons on your cards (Beer 100, Cheese 101, Wine 102, Spirits 103); a sum "
        "of 8 or more is halved, rounded up.",
        "Each pair of the same transport scores its value once (Car 104, Train 105, Bicycle 106, Boat 107, "
        "Plane 108); a single one scores nothing.",
        "this round scores 300 points with 2 players, 301 with 3 players, 302 with 4 players.",
        "For having visited a country in every region: 303 points to the first player(s) to do it, 304 to the "
        "next, and 305 to the third only with 3 or 4 players.",
    ],
    "usa": [
        "Add the values of the Americana icons on your cards (Mail box 100, Baseball cap 101, Football jersey "
        "102, US flag 103); the sum scores only when",
        "Each pair of the same animal scores that animal's value once (Trout 104, Cattle 105, Grizzly 106, "
        "Bald eagle 107, Bigfoot 108); a single animal scores nothing.",
        "(cards → points: 1 → 300, 2 → 301, 3 → 302, 4 → 303, 5 → 304, 6 → 305).",
        "The region's bonus (200 points, or 201 for Mountain West, 202 for Southwest, 203 for Midwest, 204 for "
        "Southeast, 205 for Mid-Atlantic, 206 for Northeast) to every player",
    ],
}
OLD_STATEMENTS = {  # what the same sentences said with the published values
    "australia": ["Leaves 1, Wildflowers 2", "Koalas 7", "1 → 0, 2 → 2", "bonus (3 points)"],
    "europe": ["Beer 1, Cheese 2", "Car 3, Train 4", "scores 4 points with 2 players", "7 points to the first"],
    "usa": ["Mail box 1, Baseball cap 2", "Trout 3, Cattle 4", "1 → 0, 2 → 2", "bonus (3 points)"],
}


@pytest.mark.parametrize("edition", sorted(EXPECTED))
def test_rules_follow_every_value_a_house_rule_changes(tmp_path, edition):
    original, changed = rules_paragraphs(edition), rules_paragraphs(everything_changed(tmp_path, edition))
    for old in OLD_STATEMENTS[edition]:
        assert old in original and old not in changed, old
    for sentence in EXPECTED[edition]:
        assert sentence in changed, sentence


@pytest.mark.parametrize("edition", sorted(EXPECTED))
def test_no_description_states_a_changed_value(tmp_path, edition):
    """The stale-number warning (W413) finds nothing: every number the data holds is a placeholder."""
    _, diagnostics = check_edition(everything_changed(tmp_path, edition))
    assert [d.message for d in diagnostics if d.code == "W413" or d.severity == "error"] == []


def test_a_description_that_spells_out_a_changed_number_is_warned_of(tmp_path):
    """The trap: "Koalas worth 14" left the rules saying "Koalas 7"; "Tasmania pays 6", "3 points"."""
    path = tmp_path / "stale.yaml"
    path.write_text("""extends: australia
id: stale
families:
  animal: {icons: {Koalas: 14}}
regions:
  - {name: Tasmania, bonus: 6}
categories:
  - key: animals
    description: Each pair of the same animal scores its value once (Kangaroos 3, Koalas 7).
races:
  - key: regions
    description: The region's bonus (3 points) to whoever completes it first.
""", encoding="utf-8")
    _, diagnostics = check_edition(path)
    found = [(d.span.line, d.span.col, d.message, d.hint) for d in diagnostics if d.code == "W413"]
    assert found == [
        (9, 90, "this description says 7, but Koalas is now 14",
         "write {families.animal.Koalas} where the number goes: `boom rules` fills in the value"),
        (12, 38, "this description says 3, but the bonus of Tasmania is now 6",
         "write {regions.bonus} (every region's) or {regions.Tasmania.bonus} where the number goes: "
         "`boom rules` fills in the value"),
    ]


def test_a_placeholder_that_names_nothing_is_an_error_at_its_characters(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("extends: australia\nid: typo\ncategories:\n  - key: animals\n"
                    "    description: Koalas score {families.animal.Koala} a pair.\n", encoding="utf-8")
    _, diagnostics = check_edition(path)
    [error] = [d for d in diagnostics if d.severity == "error"]
    assert (error.code, error.span.line, error.span.col, error.span.end_col) == ("M340", 5, 31, 54)
    assert (error.message, error.hint) == ("unknown icon 'Koala' in this placeholder", "did you mean 'Koalas'?")


def test_a_log_written_before_the_descriptions_changed_still_verifies_with_a_note(tmp_path):
    """The shipped descriptions changed (placeholders) after tests/golden/australia-bots.log was written:
    the file's digest differs, every decision and event replays identically, so it verifies, saying so.
    A change of the rules makes the replay differ, and the changed file is named first."""
    import json

    lines = (ROOT / "tests" / "golden" / "australia-bots.log").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    edition = tmp_path / "australia.yaml"
    edition.write_text((ROOT / "editions" / "australia.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    header["edition"] = str(edition)
    log = tmp_path / "australia.log"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output
    assert f"note: {log}:1: the edition file {edition} differs from the one the game was played with; every " \
           "decision and event still replays identically" in result.output
    edition.write_text(edition.read_text(encoding="utf-8").replace("score: abs(throw.number - catch.number)",
                                                                   "score: 2 * abs(throw.number - catch.number)"),
                       encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == f"{log}:1: the edition file {edition} differs from the one the game " \
                                            "was played with"
