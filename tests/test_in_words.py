"""Formulas said in plain words (rulesengine/edition/in_words.py), for editions without descriptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesengine import load_edition
from rulesengine.edition.in_words import in_words

CASES = [
    (
        "let s = sum([value(i) for i in icons(cards, americana)]); if s > previous then s else 0",
        "s if s is more than your Americana score of the previous round, else 0, where s is the sum of the values "
        "of the Americana icons on your cards this round",
    ),
    (
        "sum([value(i) for i in icons(cards, americana)])",
        "the sum of the values of the Americana icons on your cards this round",
    ),
    (
        "abs(throw.number - catch.number)",
        "the difference between the number of your Throw card and the number of your Catch card",
    ),
    (
        "sum([value(kind) * (count(kind, cards) // 2) for kind in kinds(animal)])",
        "the sum, for each kind of Animals, of the value of that kind times (the number of that kind on your cards "
        "this round divided by 2, rounded down)",
    ),
    (
        "lookup(activity_points, count(choice, cards))",
        "the entry of the activity points table for the number of the chosen icon on your cards this round",
    ),
    (
        "if place == 1 then 7 else if place == 2 then 3 else if players >= 3 then 1 else 0",
        "7 if the place is 1; 3 if the place is 2; 1 if the number of players is at least 3; else 0",
    ),
    (
        "all([intersects(r.cards, visited) for r in regions])",
        "for every region of the regions, some of the cards of that region are among the cards you have visited",
    ),
    (
        "let t = len(visited); (t + 1) // 2",
        "(the number of the cards you have visited plus 1) divided by 2, rounded down",
    ),
    (
        "count('Trout', cards) >= 1 and not (round == 1)",
        "the number of Trout on your cards this round is at least 1 and not (the round number is 1)",
    ),
]


USA = load_edition(Path(__file__).resolve().parent.parent / "editions" / "usa.yaml")


@pytest.mark.parametrize("text, words", CASES, ids=[c[0][:30] for c in CASES])
def test_a_formula_in_words(text, words):
    assert in_words(text, USA, "Americana") == words


def test_a_card_letter_is_named_and_a_card_set_lists_its_cards():
    assert in_words("subset(['P'], visited) and connected(visited, west_coast, east_coast)", USA) == (
        "all of card P (St. Louis) are among the cards you have visited and paths between the cards you have visited "
        "join one of the west coast cards (A, B, C, D) to one of the east coast cards (T, X, Z, @, #)"
    )


def test_not_in_is_said_in_words():
    """Found by the fuzz test: `not in` had no words."""
    from rulesengine.edition.in_words import in_words

    assert in_words("(throw not in cards)") == "your Throw card is not among your cards this round"
