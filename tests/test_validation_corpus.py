"""The broken-edition corpus: each file in tests/broken/ holds one mistake an author makes, and says
where boom must report it.

A file starts with one or more lines `# expect: CODE at LINE:COL [hint: TEXT]` (the position in the
file itself, or `at FILE:LINE:COL` for another file, relative to this one). Every diagnostic boom
gives must be expected and every expectation met: code, line, column and hint exactly. W402 (the
summary of reconstructed facts) is only compared when a file expects it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine import check_edition

BROKEN = Path(__file__).resolve().parent / "broken"
CASES = sorted(BROKEN.glob("*.yaml"))
EXPECT = re.compile(
    r"^# expect: (?P<code>[A-Z]\d{3}) at (?:(?P<file>[^:\s]+):)?(?P<line>\d+):(?P<col>\d+)(?: hint: (?P<hint>.*))?$"
)
ROOT = BROKEN.parent.parent
ERRORS_DOC = ROOT / "docs" / "errors.md"
# Codes no small file triggers: a chain of 17 extends, and the schema fallback for a keyword boom's
# schema does not use.
NOT_IN_CORPUS = {"X803", "S100"}


def expectations(path: Path) -> list[tuple]:
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = EXPECT.match(line)
        if match:
            file = str((path.parent / match["file"]).resolve()) if match["file"] else str(path.resolve())
            out.append((match["code"], file, int(match["line"]), int(match["col"]), match["hint"]))
    return out


def found(path: Path, expected: list[tuple]) -> list[tuple]:
    _, diagnostics = check_edition(path)
    wanted_codes = {e[0] for e in expected}
    out = []
    for d in diagnostics:
        if d.code in ("W402", "W409", "W408", "W411") and d.code not in wanted_codes:  # said of many files
            continue
        file = str(Path(d.span.file).resolve()) if d.span else None
        out.append((d.code, file, d.span.line if d.span else None, d.span.col if d.span else None, d.hint))
    return out


def _expected_hint_or_any(expected, actual):
    """An expectation without a hint accepts any hint."""
    return [
        (c, f, line, col, h if eh is not None else None)
        for (c, f, line, col, h), (_, _, _, _, eh) in zip(actual, expected, strict=True)
    ]


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 60


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_mistake_is_reported_exactly_where_it_is(path):
    expected = sorted(expectations(path), key=lambda e: (e[1], e[2], e[3], e[0]))
    assert expected, f"{path.name} has no '# expect:' line"
    actual = sorted(found(path, expected), key=lambda e: (str(e[1]), e[2] or 0, e[3] or 0, e[0]))
    assert [a[:4] for a in actual] == [e[:4] for e in expected]
    assert _expected_hint_or_any(expected, actual) == expected


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_command_line_reports_it_without_a_traceback(path):
    result = CliRunner().invoke(main, ["validate", str(path)], catch_exceptions=False)
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    errors = [e for e in expectations(path) if not e[0].startswith(("W", "N"))]
    assert result.exit_code == (1 if errors else 0), result.output
    for code, _, line, col, _ in expectations(path):
        if code != "W402":
            assert f":{line}:{col}: " in result.output


def documented_codes() -> set[str]:
    return set(re.findall(r"^### ([A-Z]\d{3})$", ERRORS_DOC.read_text(encoding="utf-8"), re.M))


def test_the_corpus_covers_every_code_an_edition_can_get():
    edition_codes = {c for c in documented_codes() if c[0] in "EXSMDW"}
    covered = {e[0] for path in CASES for e in expectations(path)}
    assert edition_codes - covered == NOT_IN_CORPUS


def test_every_code_the_code_base_emits_is_documented():
    emitted = set()
    for folder in ("rulesengine", "cli"):
        for source in (ROOT / folder).rglob("*.py"):
            emitted |= set(re.findall(r'"([A-Z][0-9]{3})"', source.read_text(encoding="utf-8")))
    assert emitted - documented_codes() == set(), "document these codes in docs/errors.md"


# -- what ships: the schema's documentation, the editions' modelines, the variants -------------------------
EDITIONS = ROOT / "editions"
SHIPPED = sorted(EDITIONS.glob("*.yaml")) + sorted((EDITIONS / "variants").glob("*.yaml"))
VARIANTS = sorted((EDITIONS / "variants").glob("*.yaml"))


def schema_properties(schema, where="") -> list[tuple[str, dict]]:
    """Every property schema, at any depth (under properties, items and additionalProperties)."""
    out = []
    for name, sub in schema.get("properties", {}).items():
        out.append((f"{where}.{name}", sub))
        out += schema_properties(sub, f"{where}.{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            out += schema_properties(schema[key], f"{where}[]")
    return out


def test_every_schema_property_has_a_title_a_description_and_examples():
    import json

    schema = json.loads((ROOT / "schemas" / "edition.schema.json").read_text(encoding="utf-8"))
    properties = schema_properties(schema)
    assert len(properties) > 50
    missing = [
        (where, key) for where, sub in properties for key in ("title", "description", "examples") if not sub.get(key)
    ]
    assert missing == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_edition_starts_with_the_schema_modeline(path):
    schema = ROOT / "schemas" / "edition.schema.json"
    relative = Path(*[".."] * (len(path.relative_to(ROOT).parts) - 1), schema.relative_to(ROOT))
    assert path.read_text(encoding="utf-8").splitlines()[0] == f"# yaml-language-server: $schema={relative.as_posix()}"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_edition_validates_without_warnings(path):
    edition, diagnostics = check_edition(path)
    assert edition is not None
    assert [d for d in diagnostics if d.code != "W402"] == []


def test_boom_validate_passes_on_every_variant():
    result = CliRunner().invoke(main, ["validate", *map(str, VARIANTS)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.count(": ok: ") == len(VARIANTS) >= 7


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.name)
def test_every_variant_is_a_few_lines_that_say_what_they_do(path):
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["extends"].startswith("../") and data.get("description")
    assert (
        len(
            [
                line
                for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.lstrip().startswith("#")
            ]
        )
        <= 25
    )


def test_the_variants_change_what_they_say():
    from rulesengine import load_edition

    variants = {p.stem: load_edition(p) for p in VARIANTS}
    for name in ("australia-direction", "europe-direction", "usa-direction"):
        assert variants[name].passing.directions == ("left", "right") and variants[name].players_min == 3
    assert variants["australia-catch-previous"].passing.catch == "previous"
    assert variants["australia-five-rounds"].rounds == 5
    first = variants["australia-first-edition"]
    assert first.rounds == 5
    collections = next(c for c in first.categories if c.key == "collections")
    three_leaves_and_a_shell = [first.card(x) for x in "AVYCBEF"]  # 1 + 1 + 1 + 3 = 6, doubled: 12
    assert collections.score.run({"cards": three_leaves_and_a_shell, "previous": 11}) == 12
    assert collections.score.run({"cards": three_leaves_and_a_shell, "previous": 12}) == 0  # must beat last round
    assert collections.score.run({"cards": three_leaves_and_a_shell, "previous": 0}) == 12


def test_the_readme_house_rule_validates_plays_and_prints(tmp_path):
    """The README's authoring example, saved where it says, works as written."""
    from rulesengine import Game, load_edition
    from rulesengine.bots.registry import RandomAgent
    from rulesengine.edition.rules_text import rules_text
    from rulesengine.game.loop import play

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Writing a house rule") :]
    example = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    (tmp_path / "variants").mkdir()
    (tmp_path / "australia.yaml").write_text(
        (EDITIONS / "australia.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    path = tmp_path / "variants" / "koalas.yaml"
    path.write_text(example, encoding="utf-8")
    edition, diagnostics = check_edition(path)
    assert diagnostics == [] and edition.rounds == 3
    game = play(Game(load_edition(path), ["a", "b", "c"], 1), [RandomAgent(s) for s in range(3)])
    assert len(game.record()["rounds"]) == 3
    assert "Koala bonus" in rules_text(path)
