"""The JSON Schema as editors use it: check-jsonschema, an external validator, on every shipped
edition and house rule, and on the partial overrides an `extends:` file may hold (issue #15)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulesengine import load_edition

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schemas" / "edition.schema.json"
SHIPPED = sorted(ROOT.glob("editions/*.yaml")) + sorted(ROOT.glob("editions/variants/*.yaml"))

# Valid partial overrides that the schema once refused ("'directions' is a required property", ...).
PARTIAL = {
    "players-max": "players: {max: 3}\n",
    "catch-only": "passing: {catch: previous}\n",
    "race-award": "races:\n  - {key: regions, award: 'if place == 1 then 4 else 0'}\n",
    "card-number": "cards:\n  - {letter: A, number: 2}\n",
    "one-card-more": ("cards:\n  - {letter: '%', name: Alice Springs, region: Northern Territory, number: 4,"
                      " icons: [Emus, Sightseeing]}\n"),
    "category-title": "categories:\n  - {key: animals, title: Beasts}\n",
}


def external(paths) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "check_jsonschema", "--schemafile", str(SCHEMA), *map(str, paths)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_every_shipped_edition_and_house_rule_passes_the_external_validator():
    assert len(SHIPPED) >= 10
    result = external(SHIPPED)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def partials(tmp_path):
    paths = {}
    for name, body in PARTIAL.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: {name}\nname: {name}\n{body}",
                        encoding="utf-8")
        paths[name] = path
    return paths


def test_partial_overrides_pass_the_external_validator_and_load(partials):
    result = external(partials.values())
    assert result.returncode == 0, result.stdout + result.stderr
    loaded = {name: load_edition(path) for name, path in partials.items()}
    assert loaded["players-max"].players_max == 3 and loaded["players-max"].players_min == 2
    assert loaded["card-number"].card("A").number == 2
    assert len(loaded["one-card-more"].cards) == 29
    assert loaded["race-award"].races[0].award.text == "if place == 1 then 4 else 0"


def test_a_full_edition_still_needs_its_sections(tmp_path):
    path = tmp_path / "bare.yaml"
    path.write_text("format: 1\nid: bare\nname: Bare\ncards:\n  - {letter: A}\n", encoding="utf-8")
    result = external([path])
    assert result.returncode == 1
    assert "'players' is a required property" in result.stdout
    assert "'name' is a required property" in result.stdout
