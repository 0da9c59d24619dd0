"""Fuzzing edition files: every text, however broken, gives a checked Edition or located diagnostics
(never an exception); an edition that checks can be played to its end and its record scored again.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import event, example, given
from hypothesis import strategies as st
from shipped import shipped_that_load

from rulesengine import BoomError, Game, check_edition, load_record, render, score_record
from rulesengine.bots.registry import RandomAgent
from rulesengine.dsl.meter import METER
from rulesengine.game.loop import play

from .budget import budget
from .paths import EDITIONS
from .yaml_strategies import mutated_data, mutated_text, random_yaml

pytestmark = pytest.mark.fuzz

BASES = sorted(p for p in EDITIONS.glob("*.yaml"))
BASE_TEXTS = [p.read_text(encoding="utf-8") for p in BASES]
VARIANTS = [p.read_text(encoding="utf-8") for p in shipped_that_load() if p.parent.name == "variants"]
HOUSE_RULES = [text for text in VARIANTS if "extends:" in text] + [
    """extends: ../australia.yaml
id: australia-house
name: "House rules"
remove: {cards: ['#'], categories: [activities], tables: [activity_points]}
players: {min: 2, max: 3}
cards:
  - {letter: 'A', number: 3}
  - {letter: '&', name: 'New place', region: Tasmania, number: 7, icons: [Leaves, Emus]}
categories:
  - key: sites
    score: len(visited) * 2
  - key: pairs
    score: count('Emus', cards) // 2
races:
  - key: regions
    award: if place <= 2 then region.bonus else 0
""",
    "extends: ../variants/mutant.yaml\nid: loop\n",
    "extends: mutant.yaml\nid: self\n",
    "extends: ../nowhere.yaml\n",
]


@pytest.fixture(scope="module")
def editions_copy(tmp_path_factory):
    """A copy of editions/ where mutants are written, so `extends: ../australia.yaml` resolves."""
    root = tmp_path_factory.mktemp("fuzz-editions") / "editions"
    shutil.copytree(EDITIONS, root)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def check_any_edition(path) -> None:
    edition, diagnostics = check_edition(path)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert (edition is None) == bool(errors), (edition, errors)
    for diagnostic in diagnostics:
        span = diagnostic.span
        assert span is not None, diagnostic
        text = Path(span.file).read_text(encoding="utf-8")
        # YAML breaks lines at \x85 (NEL), \u2028 and \u2029 too, as splitlines() does (the `large` profile drew
        # '\x85\x850', an error on its line 3): the lines counted as the reader counts them
        lines = text.splitlines()
        assert 1 <= span.line <= len(lines) + 2 and span.col >= 1, diagnostic
        # a file that does not parse as an edition is never quoted (#32: a link to ~/.aws/credentials)
        assert diagnostic.quote in (None, lines[span.line - 1] if span.line <= len(lines) else None), diagnostic
        assert diagnostic.message and diagnostic.code, diagnostic
        render(diagnostic)
    event(f"edition: {'ok' if edition else errors[0].code}")
    if edition is not None:
        play_and_score(edition, path)


def play_and_score(edition, path) -> None:
    """Play one game with bots; if it ends, scoring its record must give the same sheet."""
    players = [f"P{i}" for i in range(edition.players_min)]
    before = METER.spent
    try:
        game = Game(edition, players, seed=len(edition.cards))
        play(game, [RandomAgent(seat) for seat in range(len(players))])
    except BoomError as exc:
        assert exc.diagnostics
        event(f"game: {exc.diagnostics[0].code}")
        return
    # its work is bounded by the guarantee it validated with (steps charged, not seconds: #32)
    assert METER.spent - before <= edition.guarantee.game_work, (METER.spent - before, edition.guarantee)
    record_path = path.with_name("mutant-record.yaml")
    record_path.write_text(yaml.safe_dump(game.record(), sort_keys=False, allow_unicode=True), encoding="utf-8")
    record, source_map = load_record(record_path)
    assert score_record(edition, record, source_map) == game.scores.sheet()
    event("game: played and scored again")


@budget(150)
@given(text=mutated_text(BASE_TEXTS))
def test_mutated_edition_texts(editions_copy, text):
    path = editions_copy / "mutant.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))  # a lone surrogate: bytes that are not UTF-8
    check_any_edition(path)


@budget(100)
@given(text=mutated_data([yaml.safe_load(t) for t in BASE_TEXTS]))
def test_mutated_edition_data(editions_copy, text):
    path = editions_copy / "mutant.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))  # a lone surrogate: bytes that are not UTF-8
    check_any_edition(path)


@budget(100)
@given(text=mutated_text(HOUSE_RULES) | st.sampled_from(HOUSE_RULES))
def test_mutated_house_rules(editions_copy, text):
    path = editions_copy / "variants" / "mutant.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))  # a lone surrogate: bytes that are not UTF-8
    check_any_edition(path)


@budget(100)
@given(text=mutated_data([yaml.safe_load(t) for t in HOUSE_RULES[:-3]]))
def test_mutated_house_rule_data(editions_copy, text):
    path = editions_copy / "variants" / "mutant.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))  # a lone surrogate: bytes that are not UTF-8
    check_any_edition(path)


@budget(100)
@given(text=random_yaml())
@example(text="\x85\x850")   # NEL breaks lines in YAML: the error is on line 3 (the `large` profile found it)
def test_random_yaml_documents(editions_copy, text):
    path = editions_copy / "random.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))  # a lone surrogate: bytes that are not UTF-8
    check_any_edition(path)
