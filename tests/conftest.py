"""Shared fixtures: editions are loaded once per test session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ROOT / "editions"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulesengine import load_edition  # noqa: E402


@pytest.fixture(scope="session")
def australia():
    return load_edition(EDITIONS / "australia.yaml")


def cards(edition, letters: str):
    """Cards by letter: cards(e, 'ABC@')."""
    return [edition.card(letter) for letter in letters]


def letters(cards) -> set:
    """The letters of some cards, as a set."""
    return {c.letter for c in cards}



# `make check` runs the quick part of the suite (`-m "not slow"`, under a minute on 2 cores); `make
# test` and CI run everything. Slow: the fuzzers, whole games for every bot, edition and player
# count, the differential scorers, subprocess round trips (measured with --durations).
SLOW = ("tests/fuzz/", "tests/test_differential.py", "tests/test_bots.py::test_every_bot_plays",
        "tests/test_bots.py::test_bots_only_make_legal_decisions", "tests/test_shipped.py::test_a_half_written",
        "tests/test_session.py::test_a_game_killed", "tests/test_properties.py",
        "tests/test_hardening_files.py::test_two_processes",
        "tests/test_hardening_play.py::test_validate_refuses_a_fifo", "tests/test_bench_scripts.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


# A game the CLI saves or logs by default lands in the working folder as boom-*.json / boom-*.log: a test
# that runs one must do so in a temporary folder, or its files end up in the checkout (and in commits).
_LEFT_BEFORE: set = set()


def _games_in_checkout() -> set:
    return {p.name for p in ROOT.glob("boom-*") if p.is_file()}


def pytest_sessionstart(session):
    _LEFT_BEFORE.update(_games_in_checkout())


def pytest_sessionfinish(session, exitstatus):
    left = sorted(_games_in_checkout() - _LEFT_BEFORE)
    if left:
        print(f"\nerror: the tests left saved games in {ROOT}: {', '.join(left)} (run that test in tmp_path)")
        session.exitstatus = 1
