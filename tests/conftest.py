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
