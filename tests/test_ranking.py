"""The one ranking rule: totals, then the tie-breaks in order; equal seats share a rank; the printed
lines say what broke a tie."""

from __future__ import annotations

from handscorers.test_handscorers import USA_SYMMETRIC, game
from test_cli import ROOT

from cli.sheets import ranking_lines
from rulesengine import load_edition, score_record
from rulesengine.game.ranking import Decider, Place, rank_seats

TIE_BREAKS = ("passport", "throw_catch")


def test_totals_alone_rank_and_nothing_is_said_about_tie_breaks():
    ranking = rank_seats([80, 95, 70], [{}, {}, {}], TIE_BREAKS)
    assert ranking.places == (Place(1, 1, False), Place(2, 0, False), Place(3, 2, False))
    assert ranking.winners == (1,) and ranking.decided_by is None


def test_three_equal_totals_and_equal_tie_breaks_share_first_place():
    same = {"passport": 3, "throw_catch": 12}
    ranking = rank_seats([142, 142, 142], [same, same, same], TIE_BREAKS)
    assert [(p.rank, p.seat, p.shared) for p in ranking.places] == [(1, 0, True), (1, 1, True), (1, 2, True)]
    assert ranking.winners == (0, 1, 2) and ranking.decided_by is None


def test_the_second_tie_break_decides_and_is_named_with_both_scores():
    categories = [
        {"passport": 7, "throw_catch": 21},
        {"passport": 7, "throw_catch": 17},
        {"passport": 3, "throw_catch": 30},
    ]
    ranking = rank_seats([142, 142, 142], categories, TIE_BREAKS)
    assert [p.seat for p in ranking.places] == [0, 1, 2]
    assert [p.rank for p in ranking.places] == [1, 2, 3]
    assert ranking.decided_by == Decider("throw_catch", 21, 17)


def test_shared_second_place_skips_third():
    same = {"passport": 0, "throw_catch": 4}
    ranking = rank_seats([90, 80, 80, 60], [{}, same, same, {}], TIE_BREAKS)
    assert [(p.rank, p.seat, p.shared) for p in ranking.places] == [
        (1, 0, False),
        (2, 1, True),
        (2, 2, True),
        (4, 3, False),
    ]


def _usa_sheet(rounds):
    return score_record(load_edition(ROOT / "editions" / "usa.yaml"), game(["Ana", "Ben"], rounds), None)


def test_a_full_tie_is_printed_as_a_shared_first_place():
    # The symmetric USA game of the hand scorers: 61 each, coast to coast 0 and Throw & Catch 6 each.
    sheet = _usa_sheet(USA_SYMMETRIC)
    assert sheet["ranking"] == [{"rank": 1, "name": "Ana", "shared": True}, {"rank": 1, "name": "Ben", "shared": True}]
    assert ranking_lines(sheet) == ["1= Ana  61", "1= Ben  61", "Shared victory: Ana, Ben"]


def test_a_tie_broken_by_throw_and_catch_says_so_with_both_scores():
    # As the hand scorers' test_usa_tie_broken_by_throw_catch: 61 each, Throw & Catch 8 (Ben) to 6.
    rounds = list(USA_SYMMETRIC)
    rounds[2] = (rounds[2][0], {"Ana": {"activities": "Hiking"}})
    rounds[3] = ({"Ana": "MABEFGL", "Ben": "JIPQSDK"}, rounds[3][1])
    sheet = _usa_sheet(rounds)
    assert sheet["decided_by"] == {"key": "throw_catch", "title": "Throw & Catch", "winner": 8, "runner_up": 6}
    assert ranking_lines(sheet) == ["1. Ben  61", "2. Ana  61", "Ben wins on Throw & Catch, 8 to 6"]


def test_a_tie_below_first_place_names_its_tie_break_beside_the_place():
    # The 2010 game: Ana and Ben both 11, Ana kept 5 boomerangs to Ben's 4 (its published tie-break)
    hunt = load_edition(ROOT / "editions" / "boomerang-2010.yaml")
    rows = [("Ana", 11, 5), ("Ben", 11, 4), ("Cy", 20, 27)]
    sheet = {
        "players": [{"name": n, "total": t, "categories": {"animals": t}, "stocks": {"boomerangs": b}}
                    for n, t, b in rows],
        "ranking": [{"rank": 1, "name": "Cy", "shared": False}, {"rank": 2, "name": "Ana", "shared": False},
                    {"rank": 3, "name": "Ben", "shared": False}],
        "winners": ["Cy"], "decided_by": None,
    }
    assert ranking_lines(sheet, hunt) == ["1. Cy  20", "2. Ana  11  (ahead of Ben on boomerangs kept, 5 to 4)",
                                          "3. Ben  11", "Winner: Cy"]
    sheet["players"][1]["stocks"]["boomerangs"] = 5   # now equal all the way: the rank is shared, nothing said
    sheet["ranking"][1:] = [{"rank": 2, "name": "Ana", "shared": True}, {"rank": 2, "name": "Ben", "shared": True}]
    assert ranking_lines(sheet, hunt) == ["1. Cy  20", "2= Ana  11", "2= Ben  11", "Winner: Cy"]


def test_a_tie_below_first_place_in_usa_names_the_second_tie_break_when_the_first_is_equal():
    usa = load_edition(ROOT / "editions" / "usa.yaml")
    assert usa.tie_breaks[:2] == ("coast_to_coast", "throw_catch")
    rows = [("Ana", 90, 0, 0), ("Ben", 80, 2, 9), ("Cy", 80, 2, 6)]
    sheet = {
        "players": [{"name": n, "total": t, "categories": {"coast_to_coast": p, "throw_catch": c}}
                    for n, t, p, c in rows],
        "ranking": [{"rank": i, "name": n, "shared": False} for i, n in enumerate(("Ana", "Ben", "Cy"), 1)],
        "winners": ["Ana"], "decided_by": None,
    }
    assert ranking_lines(sheet, usa)[1] == "2. Ben  80  (ahead of Cy on Throw & Catch, 9 to 6)"
