"""The fast YAML reader (libyaml's parser under PyYAML's composer) reads exactly as the pure one.

Every position an error points at comes from the source map, so both readers must give the same
data and the same map for every file, and a file the fast reader cannot read must be reported in
the pure reader's words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesengine.edition import bounded_yaml, source
from rulesengine.errors import EditionError

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for folder in ("editions", "tests") for p in (ROOT / folder).rglob("*.yaml"))
UNICODE = """# überall: ünïcödé before the values
name: "Boomerang: Ünïted — ☃"
cards:
  - {letter: 'É', name: 'Zürich ☃☃', icons: [Bière, Käse]}
  - {letter: 'Ø', name: "Ørsted\\tPark", number: 3}
scores: |
  sum([value(i) for i in icons(cards, cuisine)])   # ☃ in a comment
"""


def read(monkeypatch, path: str, text: str | None, fast: bool):
    monkeypatch.setattr(bounded_yaml, "_CParser", bounded_yaml._CParser if fast else None)
    try:
        data, source_map = source.load_yaml(path, text)
        return data, source_map.values, source_map.keys, source_map.scalars
    except EditionError as exc:
        return [(d.code, d.message, d.span) for d in exc.diagnostics]


@pytest.mark.skipif(bounded_yaml._CParser is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("name", FILES)
def test_the_fast_reader_reads_every_file_as_the_pure_one(monkeypatch, name):
    path = ROOT / name
    assert read(monkeypatch, str(path), None, True) == read(monkeypatch, str(path), None, False)


@pytest.mark.skipif(bounded_yaml._CParser is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("text", [UNICODE, "a: [1, 2\nb: 3\n", "a: 'x\x00'\n", "[" * 100 + "]" * 100,
                                  "a: &x [1]\nb: *x\n"])
def test_the_fast_reader_keeps_positions_in_characters_and_leaves_problems_to_the_pure_one(monkeypatch, text):
    assert read(monkeypatch, "mem.yaml", text, True) == read(monkeypatch, "mem.yaml", text, False)


def test_a_value_after_wide_characters_is_located_by_character():
    data, source_map = source.load_yaml("mem.yaml", UNICODE)
    span = source_map.values[("cards", 1, "name")]
    assert data["cards"][1]["name"] == "Ørsted\tPark"
    assert (span.line, span.col) == (5, 25)       # the quote after "name: ", counted in characters
