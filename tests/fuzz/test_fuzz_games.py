"""Fuzzing the per-game guarantee (issue #32): editions of any declared sizes within the limits, with
the kinds of categories the shipped editions have and well-typed random ones, either are refused
with located errors or validate, and then one game of greedy seats (every seat the edition allows)
ends within the edition's guarantee: its evaluations, each counted at its worst case, and its
decisions. A rule the game stops on (a division by zero in a random category) is a located error.
"""

from __future__ import annotations

import pytest
import yaml
from edge_editions import LIMITS, counted_game, edition_data
from hypothesis import event, given
from hypothesis import strategies as st

from rulesengine import BoomError, check_edition, load_edition
from rulesengine.dsl import NUMBER

from .budget import budget
from .dsl_strategies import Typed

pytestmark = pytest.mark.fuzz


@st.composite
def sizes(draw) -> dict:
    """Sizes within the limits, mostly small (a game is played with each)."""
    players = draw(st.integers(2, LIMITS["players"]))
    hand = draw(st.integers(2, min(LIMITS["hand"], 100 // players)))
    small = {"families": 3, "icons_per_family": 5, "regions": 7, "categories": 5, "races": 1, "card_sets": 1,
             "tables": 1, "paths": 0}
    drawn = {key: draw(st.integers(1, LIMITS[key]) | st.just(value)) for key, value in small.items()}
    drawn["paths"] = draw(st.sampled_from([0, 0, 10, LIMITS["paths"]]))
    icons = drawn["families"] * drawn["icons_per_family"]
    return dict(
        drawn,
        players=players,
        hand=hand,
        cards=draw(st.integers(players * hand, LIMITS["cards"])),
        rounds=draw(st.integers(1, LIMITS["rounds"]) | st.just(4)),
        icons_per_card=draw(st.integers(1, min(LIMITS["icons_per_card"], icons))),
        expensive=draw(st.booleans()),
    )


@budget(6, large_examples=300)
@given(shape=sizes(), data=st.data())
def test_a_validated_edition_plays_a_greedy_game_within_its_guarantee(tmp_path_factory, shape, data):
    folder = tmp_path_factory.mktemp("games")
    shape.setdefault("families", 1)
    if shape["families"] < 2:
        shape["families"] = 2  # a choice needs a family without values beside the valued one
    text = edition_data(**shape, ident="fuzzed")
    path = folder / "fuzzed.yaml"
    path.write_text(yaml.safe_dump(text, sort_keys=False), encoding="utf-8")
    base, _ = check_edition(path)
    if base is not None:  # some well-typed random categories over it
        typed = Typed(base)
        for number in range(data.draw(st.integers(0, 3), label="random categories")):
            score = data.draw(typed.expression(NUMBER, depth=3), label="score")
            text["categories"].insert(0, {"key": f"r{number}", "title": f"Random {number}", "score": score})
        text["categories"] = text["categories"][-24:]
        path.write_text(yaml.safe_dump(text, sort_keys=False), encoding="utf-8")
    edition, diagnostics = check_edition(path)
    errors = [d for d in diagnostics if d.severity == "error"]
    if edition is None:
        assert errors and all(d.span is not None for d in errors), errors
        event(f"refused: {errors[0].code}")
        return
    edition = load_edition(path)
    try:
        game, steps = counted_game(edition, edition.players_max, data.draw(st.integers(0, 2**31), label="seed"))
    except BoomError as exc:
        assert exc.diagnostics and all(d.span is not None for d in exc.diagnostics), exc.diagnostics
        event(f"game stopped: {exc.diagnostics[0].code}")
        return
    assert game.over
    assert steps <= edition.guarantee.game_work
    assert len(game.decisions) <= edition.guarantee.decisions
    event(f"played: {steps / max(edition.guarantee.game_work, 1):.1f} of the guarantee")
