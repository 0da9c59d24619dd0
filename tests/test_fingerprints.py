"""The same games: every shipped edition and variant plays, for fixed seeds and seats, exactly the games
recorded in tests/golden/fingerprints.json (decisions, sheet, events and views hashed apart; see
fingerprints.py). A change that means to change games writes them again with
`python tests/fingerprints.py --write` and says why in its commit."""

from __future__ import annotations

import json

import pytest
from fingerprints import GOLDEN, differences, fingerprints

from rulesengine.game.program import RUNNERS


@pytest.mark.parametrize("runner", RUNNERS)
def test_every_shipped_edition_plays_the_recorded_games(runner):
    """The compiled program and the reference interpreter alike (every score, choice and bot's value)."""
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = differences(expected, fingerprints(runner=runner))
    assert not changed, f"games changed (python tests/fingerprints.py --runner {runner} lists them):\n" + \
        "\n".join(changed[:40])


def test_a_changed_game_is_told_apart_part_by_part():
    expected = {"australia": {"random-2p-seed1": {"decisions": "a", "sheet": "b", "events": "c", "views": "d"}}}
    found = {"australia": {"random-2p-seed1": {"decisions": "a", "sheet": "x", "events": "c", "views": "d"}}}
    assert differences(expected, found) == ["australia random-2p-seed1 sheet: b -> x"]
