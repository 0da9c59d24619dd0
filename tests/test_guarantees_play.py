"""Issue #32, no internal error (exit 3) from a file that validates: the set builtins are typed (their
items are compared as a set), names for any number of seats, numbers bounded (see
test_guarantees_budget.py for sums)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def house(tmp_path, score: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\nid: house\ncategories:\n  - key: odd\n    title: Odd\n    score: {score}\n"
    )
    return path


@pytest.mark.parametrize(
    "score, argument, got",
    [
        ("if subset([cards], [cards, others]) then 1 else 0", "argument 1 of 'subset'", "list of lists"),
        ("if intersects(opponents, [left]) then 1 else 0", "argument 1 of 'intersects'", "list of seats"),
        ("if intersects([[1]], [[2], [1]]) then 1 else 0", "argument 1 of 'intersects'", "list of lists"),
    ],
)
def test_the_set_builtins_refuse_items_that_are_not_compared_as_a_set(tmp_path, score, argument, got):
    """They validated, then stopped the game with an internal error: a list or a seat cannot be hashed."""
    result = invoke("validate", house(tmp_path, score))
    assert result.exit_code == 1
    assert f"{tmp_path / 'house.yaml'}:6:" in result.output.splitlines()[0]
    assert (
        f"error: {argument}: expected a list of cards, icons, numbers or regions, got {got} "
        "(the items are compared as a set)"
    ) in result.output


def test_the_set_builtins_still_take_cards_icons_numbers_and_regions(tmp_path):
    score = (
        "if subset(cards, visited) and intersects(icons(cards, animal), kinds(animal)) "
        "and subset([1, 2], [2, 1]) and intersects(regions, regions) then 1 else 0"
    )
    assert invoke("validate", house(tmp_path, score)).exit_code == 0
    assert invoke("run", house(tmp_path, score), "-p", 3, "--seed", 2, "-q").exit_code == 0


def test_membership_in_a_list_of_seats_plays(tmp_path):
    """`in` compares items one by one (==), so seats and lists are fine there."""
    path = house(tmp_path, "if left in opponents and [cards] != [others] then 1 else 0")
    assert invoke("run", path, "-p", 3, "--seed", 2, "-q", "--seats", "greedy,random,greedy").exit_code == 0


def test_twelve_seats_without_names_are_named(tmp_path):
    text = AUSTRALIA.read_text().replace("players: {min: 2, max: 4}", "players: {min: 2, max: 12}")
    path = tmp_path / "twelve.yaml"
    path.write_text(text.replace("\nhand_size: 7\n", "\nhand_size: 2\n"))
    result = invoke("run", path, "-p", 12, "--seed", 1, "--name", "Zoe", "--name", "Ana")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "Boomerang: Australia: Zoe (random), Ana (random), Ben (random), Cy (random), Dee (random), Eve (random), "
        "Fay (random), Gus (random), Hal (random), Ivy (random), Jo (random), Kit (random); seed 1"
    )


def test_there_is_a_default_name_for_every_seat_a_game_can_have():
    from cli.run import DEFAULT_NAMES
    from rulesengine.game.save_fields import MAX_PLAYERS

    assert len(set(DEFAULT_NAMES)) == MAX_PLAYERS
