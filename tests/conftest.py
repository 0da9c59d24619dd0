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
