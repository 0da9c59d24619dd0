"""The house rules of editions/variants/ (issue #15), each scored on rounds computed by hand and
played to the end by bots.

The hand round, three players, Australia's cards (letter: icons, region, number):
  Ann  H M Z A B C D   Throw H (4), Catch D (1); Koalas H M Z; Kangaroos B C; collections
                       A Leaves 1 + C Shells 3 + D Wildflowers 2 = 6; all of Western Australia
  Bob  I E F G J K L   Throw I (6), Catch L (6); no Koala; Kangaroo J; collections I 2 + G 3 +
                       K Souvenirs 5 + L 2 = 12; no animal pair; Wombat F; Platypus G; all of Queensland
  Cat  N O P Q R S T   Throw N (3), Catch T (5); no Koala; Kangaroo O; collections P 2 = 2;
                       Emus N R T; Wombats Q S; all of New South Wales
Seats in order Ann, Bob, Cat: each one's left neighbour (the seat it passes to) is the next one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesengine import Game, load_edition
from rulesengine.bots.registry import GreedyAgent, RandomAgent
from rulesengine.edition.scopes import game_end_env, line_keys, moment, sheet_lines
from rulesengine.errors import GameRuleError
from rulesengine.game.loop import play
from rulesengine.game.ranking import Decider, rank_seats
from rulesengine.game.scoring import ScoreKeeper

VARIANTS = Path(__file__).resolve().parent.parent / "editions" / "variants"
HOUSE = sorted(VARIANTS.glob("australia-*.yaml"))
PLAYERS = ["Ann", "Bob", "Cat"]
HAND = ["HMZABCD", "IEFGJKL", "NOPQRST"]


def edition(name):
    return load_edition(VARIANTS / f"{name}.yaml")


def keeper(name, rounds=(HAND,), players=PLAYERS, finish=False):
    ed = edition(name)
    scores = ScoreKeeper(ed, players)
    for hands in rounds:
        scores.score_round([[ed.card(x) for x in hand] for hand in hands], [{} for _ in players])
    if finish:
        scores.finish()
    return scores


def line(scores, key, round_index=0):
    return [scores.rounds[seat][round_index][key] for seat in range(len(scores.players))]


def end_line(scores, key):
    return [points[key] for points in scores.end_scores]


@pytest.mark.parametrize(("name", "key", "points"), [
    ("australia-koala-majority", "koala_majority", [5, 0, 0]),       # 3 Koalas against 0 and 0
    ("australia-follow-the-leader", "follow_the_leader", [6, 3, 4]),  # Bob's I, Cat's N, Ann's H
    ("australia-last-throw-double", "throw_catch", [3, 0, 2]),        # round 1 of 4: not doubled
    ("australia-fewest-kangaroos-tie", "kangaroos_seen", [2, 1, 1]),
    ("australia-rivalry", "rivalry", [3, 3, 0]),                      # 6 > Cat's 2, 12 > Ann's 6, 2 < Bob's 12
    ("australia-souvenir-hunter", "souvenirs", [0, 2, 0]),
    ("australia-collections-cap", "collections", [10, 10, 4]),        # 12 and 12 capped, 2 doubled
    ("australia-no-animals-penalty", "no_animals", [0, -3, 0]),       # only Bob has no pair
    ("australia-generous-throw", "throw_catch", [5, 12, 8]),
    ("australia-kalbarri-six", "throw_catch", [2, 0, 2]),             # Ann: |4 - 6|
])
def test_a_round_computed_by_hand(name, key, points):
    assert line(keeper(name), key) == points


def test_the_last_round_doubles_the_throw_and_catch():
    scores = keeper("australia-last-throw-double", rounds=[HAND] * 4)
    assert [line(scores, "throw_catch", r) for r in range(4)] == [[3, 0, 2]] * 3 + [[6, 0, 4]]


def test_with_two_players_left_and_right_are_the_same_seat():
    scores = keeper("australia-follow-the-leader", rounds=[HAND[:2]], players=PLAYERS[:2])
    assert line(scores, "follow_the_leader") == [6, 4]


def test_game_end_majority_reads_every_seats_visited_cards():
    assert end_line(keeper("australia-wombat-majority", finish=True), "wombat_majority") == [0, 0, 4]  # 2 > 1 and 0
    assert end_line(keeper("australia-platypus-hunt", finish=True), "platypuses") == [0, 4, 0]


def test_a_line_that_does_not_count_is_shown_and_breaks_ties_lowest_first():
    scores = keeper("australia-fewest-kangaroos-tie")
    # Ann: Throw & Catch 3, Collections 6 doubled 12, Animals Koalas 7 + Kangaroos 3, a region 3 = 28
    assert scores.category_totals(0)["kangaroos_seen"] == 2 and scores.total(0) == 28
    ed = scores.edition
    assert ed.tie_breaks == ("kangaroos_seen", "throw_catch") and ed.lowest_first == {"kangaroos_seen"}
    fewer, more = {"kangaroos_seen": 1, "throw_catch": 0}, {"kangaroos_seen": 2, "throw_catch": 9}
    ranked = rank_seats([40, 40], [more, fewer], ed.tie_breaks, ed.lowest_first)
    assert ranked.winners == (1,) and ranked.decided_by == Decider("kangaroos_seen", 1, 2)
    ranked = rank_seats([40, 40], [dict(fewer, throw_catch=1), dict(fewer, throw_catch=2)], ed.tie_breaks,
                        ed.lowest_first)
    assert ranked.winners == (1,) and ranked.decided_by.key == "throw_catch"
    no_throw = keeper("australia-no-throw-catch")
    assert no_throw.category_totals(0)["throw_catch"] == 3 and no_throw.total(0) == 25


def test_later_region_finishers_score_one():
    # round 2 passes the hands on: Ann takes Bob's cards, Bob Cat's, Cat Ann's. Ann completes Queensland
    # (second, 1) and the Northern Territory (E F G + her H: first, 3); Bob New South Wales (second, 1);
    # Cat Western Australia (second, 1) and South Australia (her N O P + Ann's M: first, 3).
    scores = keeper("australia-region-seconds", rounds=[HAND, HAND[1:] + HAND[:1]])
    assert line(scores, "regions", 0) == [3, 3, 3]
    assert line(scores, "regions", 1) == [4, 1, 4]
    base = ScoreKeeper(load_edition(VARIANTS.parent / "australia.yaml"), PLAYERS)
    for hands in (HAND, HAND[1:] + HAND[:1]):
        base.score_round([[base.edition.card(x) for x in hand] for hand in hands], [{}, {}, {}])
    assert [base.rounds[s][1]["regions"] for s in range(3)] == [3, 0, 3]


@pytest.mark.parametrize(("name", "key", "totals", "points"), [
    ("australia-best-three-rounds", "worst_rounds", [10, 3, 7, 12], -3),
    ("australia-best-three-rounds", "worst_rounds", [10, 12], 0),
    ("australia-double-last-round", "last_round_again", [10, 3, 7, 12], 12),
])
def test_game_end_lines_from_round_totals(name, key, totals, points):
    ed = edition(name)
    [category] = [c for c in ed.categories if c.key == key]
    assert category.score.run(game_end_env(moment(ed, 3, 4), [], None, totals)) == points


def test_the_best_round_of_a_line_from_the_sheets_lines():
    ed = edition("australia-best-collections")
    [category] = [c for c in ed.categories if c.key == "best_collections"]
    rounds = [{"collections": 3}, {"collections": 9}, {"collections": 5}]
    env = game_end_env(moment(ed, 3, 4), [], None, [], sheet_lines(line_keys(ed), rounds))
    assert category.score.run(env) == 9
    # HAND's Collections (see australia-collections-cap): Ann 12, Bob 12, Cat 2 doubled to 4
    scores = keeper("australia-best-collections", finish=True)
    assert line(scores, "collections") == [12, 12, 4] and end_line(scores, "best_collections") == [12, 12, 4]
    sites, best = end_line(scores, "sites"), end_line(scores, "best_collections")
    assert [scores.total(s) for s in range(3)] == [sum(scores.round_totals(s)) + sites[s] + best[s] for s in range(3)]


def test_round_totals_are_what_counts():
    scores = keeper("australia-double-last-round", rounds=[HAND, HAND[1:] + HAND[:1]], finish=True)
    # Ann's round 1: 28 (see above); Cat's round 2 has Ann's cards plus SA: the same 28 less her
    # region (WA is taken) plus SA's 3: Throw & Catch 3, Collections 12, Animals 10, regions 3
    assert scores.round_totals(0)[0] == 28 and end_line(scores, "last_round_again")[2] == scores.round_totals(2)[1]
    assert scores.round_totals(2)[1] == 3 + 12 + 10 + 3


def test_one_card_more_and_fewer_players():
    ed = edition("australia-alice-springs")
    assert len(ed.cards) == 29 and ed.card("%").region.name == "Northern Territory"
    scores = keeper("australia-alice-springs", rounds=[["EFGHABC", "IJKLMNO"]], players=["Ann", "Bob"])
    assert line(scores, "regions") == [0, 3]      # Ann lacks Alice Springs; Bob has all of Queensland
    with pytest.raises(GameRuleError, match="2 to 3 players, not 4"):
        Game(edition("australia-three-players"), ["a", "b", "c", "d"])


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
def test_every_house_rule_is_played_by_bots(path):
    ed = load_edition(path)
    n = max(ed.players_min, min(ed.players_max, 3))
    agents = [GreedyAgent(1, ed)] + [RandomAgent(s) for s in range(1, n)]
    game = play(Game(ed, [f"p{i}" for i in range(n)], 7), agents)
    assert len(game.record()["rounds"]) == ed.rounds
    for player in game.scores.sheet()["players"]:
        assert player["total"] == sum(player["categories"][key] for key in ed.counting_keys)
        assert set(player["categories"]) == set(ed.sheet_keys)


def test_teams_rank_on_the_sum_of_the_partners_totals():
    # Dan takes the cards nobody took in the hand round: U V W X Y @ # (Throw U 2, Catch # 7: 5; collections
    # V Leaves 1 + W Shells 3 + X Leaves 1 + Y Leaves 1 + @ Leaves 1 = 7, doubled 14; Platypus X, Emus Y,
    # Kangaroos #: no pair; Victoria U V W X: 3) = 22. Ann 28; Bob: 0 + 12 + 0 + Queensland 3 = 15;
    # Cat: 2 + 4 + Emus 4 + Wombats 5 + New South Wales 3 = 18.
    scores = keeper("australia-teams", rounds=[HAND + ["UVWXY@#"]], players=["Ann", "Bob", "Cat", "Dan"], finish=True)
    assert [scores.total(s) - scores.end_scores[s]["sites"] for s in range(4)] == [28, 15, 18, 22]
    sheet = scores.sheet()
    teams = [(t["name"], t["total"]) for t in sheet["teams"]]
    assert teams == [("Ann & Cat", 28 + 18 + 14), ("Bob & Dan", 15 + 22 + 14)]
    assert sheet["winners"] == ["Ann", "Cat"]
    from cli.sheets import ranking_lines
    assert ranking_lines(sheet) == ["1. Ann & Cat  60", "2. Bob & Dan  51", "Winning team: Ann & Cat"]



def test_teams_need_seats_that_split_evenly(tmp_path):
    path = tmp_path / "teams-2-4.yaml"
    path.write_text(f"extends: {VARIANTS / 'australia-teams.yaml'}\nid: t\nplayers: {{min: 2}}\n", encoding="utf-8")
    with pytest.raises(GameRuleError, match="played in 2 teams of equal size [(]at least 2 each[)], not by 3 players"):
        Game(load_edition(path), ["a", "b", "c"])

