"""The Australia examples of DESIGN.md and the rulebook, through the YAML edition only."""

from __future__ import annotations

import pytest
from conftest import cards

from rulesengine.edition.build import compile_expression


def category_points(edition, key, hand, choice=None, others=(), visited=None, previous=0):
    category = next(c for c in edition.categories if c.key == key)
    env = {
        "cards": hand,
        "throw": hand[0],
        "catch": hand[-1],
        "others": list(others),
        "visited": visited or hand,
        "players": 2,
        "round": 1,
        "previous": previous,
        "choice": choice,
    }
    return category.score.run(env)


@pytest.mark.parametrize("throw, catch, points", [("E", "A", 3), ("A", "E", 3), ("Y", "A", 6), ("A", "B", 0)])
def test_throw_and_catch_is_the_difference(australia, throw, catch, points):
    # E is 4 (Northern Territory), A is 1 (Western Australia), Y is 7 (Tasmania)
    assert category_points(australia, "throw_catch", cards(australia, throw + "QRS" + catch)) == points


def test_collections_doubled_up_to_seven(australia):
    # 3 Leaves (A, V, Y) + 1 Shell (C) = 6 -> doubled to 12; B, E, F have no collection icon
    assert category_points(australia, "collections", cards(australia, "AVYCBEF")) == 12
    # 2 Wildflowers (D, I) + 1 Souvenir (K) = 9 -> 9
    assert category_points(australia, "collections", cards(australia, "DIKBEFQ")) == 9
    # exactly 7 is still doubled; 8 is not: Souvenir K 5 + Wildflowers D 2 (+ Leaves A 1)
    assert category_points(australia, "collections", cards(australia, "KDBEFQR")) == 14
    assert category_points(australia, "collections", cards(australia, "KDABEFQ")) == 8
    assert category_points(australia, "collections", cards(australia, "BEFQRST")) == 0


def test_animals_score_pairs(australia):
    # Kangaroos: B, C, J, O, #; Emus: E, N, R, T, Y
    assert category_points(australia, "animals", cards(australia, "BCADIKL")) == 3
    assert category_points(australia, "animals", cards(australia, "BADIKLP")) == 0
    assert category_points(australia, "animals", cards(australia, "BCJADIK")) == 3
    assert category_points(australia, "animals", cards(australia, "ENRTADI")) == 8
    # two different pairs add up: Kangaroos 3 + Emus 4
    assert category_points(australia, "animals", cards(australia, "BCENADI")) == 7


def test_activities_table_and_choice(australia):
    # Bushwalking: D, K, M, O, T, U (6); 5 of them -> 10, 3 -> 4, 2 -> 2, 6 -> 15
    assert category_points(australia, "activities", cards(australia, "DKMOTAB"), choice="Bushwalking") == 10
    assert category_points(australia, "activities", cards(australia, "DKMABCE"), choice="Bushwalking") == 4
    assert category_points(australia, "activities", cards(australia, "DKABCEF"), choice="Bushwalking") == 2
    assert category_points(australia, "activities", cards(australia, "DKMOTUA"), choice="Bushwalking") == 15
    assert category_points(australia, "activities", cards(australia, "DABCEFG"), choice="Bushwalking") == 0


def test_sites_count_distinct_cards_at_game_end(australia):
    sites = next(c for c in australia.categories if c.key == "sites")
    assert sites.when == "game_end"
    assert sites.score.run({"visited": cards(australia, "ABCDEFGHIJ"), "players": 3}) == 10


def test_edition_matches_the_reference_cards(australia):
    import csv
    from pathlib import Path

    rows = list(csv.DictReader(open(Path(__file__).parent / "reference" / "australia-cards.csv", encoding="utf-8")))
    assert len(rows) == len(australia.cards) == 28
    for row, card in zip(rows, australia.cards, strict=True):
        icons = [row[k] for k in ("collection", "animal", "activity") if row[k] != "none"]
        assert (card.letter, card.name, card.region.name, card.number, list(card.icons)) == (
            row["letter"],
            row["site"],
            row["region"],
            int(row["number"]),
            icons,
        )
        assert card.reconstructed == ()
    assert australia.reconstructed_facts == 0


def test_compile_expression_against_the_edition(australia):
    run = compile_expression(australia, "count('Kangaroos', cards) + len(regions)")
    assert run({"cards": cards(australia, "BCJ")}) == 3 + 7
