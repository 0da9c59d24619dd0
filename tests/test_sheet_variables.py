"""Expressions that read the score sheet so far (issue #29): the house rules of editions/variants/ that
need it, each scored on rounds computed by hand and on random games against the hand scorers of
tests/handscorers, with each runner of the edition's scoring (the compiled program and the reference).

    australia-catch-up             `totals` (every seat's total so far, yours first) in a round line
    australia-split-regions        `sharing` (the seats taking a race's place together) in an award
    usa-americana-beat-your-best   `lines.americana` (your Americana line so far) in a round line
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulesengine import Game, load_edition
from rulesengine.bots.registry import GreedyAgent, RandomAgent, agent_seed
from rulesengine.edition.scopes import SheetSoFar, sheet_so_far
from rulesengine.game.loop import play
from rulesengine.game.program import RUNNERS
from rulesengine.game.scoring import ScoreKeeper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from handscorers import australia as hand_australia  # noqa: E402
from handscorers import usa as hand_usa  # noqa: E402

VARIANTS = Path(__file__).resolve().parent.parent / "editions" / "variants"
NAMES = ["Ana", "Ben", "Cy", "Dee"]
# tests/test_house_rules.py's hand round, three players (Ann 28 points, Bob 15: Throw & Catch |6 - 6| 0,
# Collections 12, no animal pair, Queensland 3; Cat 18: |3 - 5| 2, Collections 2 doubled to 4, Emus and
# Wombats 4 + 5, New South Wales 3); in round 2 each seat takes its right neighbour's cards of round 1
HAND = ["HMZABCD", "IEFGJKL", "NOPQRST"]


def scored(name: str, rounds: list, runner: str, players=("Ann", "Bob", "Cat")) -> ScoreKeeper:
    edition = load_edition(VARIANTS / f"{name}.yaml", runner=runner)
    scores = ScoreKeeper(edition, list(players))
    for hands in rounds:
        scores.score_round([[edition.card(x) for x in hand] for hand in hands], [{} for _ in players])
    return scores


def line(scores: ScoreKeeper, key: str) -> list:
    """Each seat's points on a line, round by round."""
    return [[points[key] for points in seat_rounds] for seat_rounds in scores.rounds]


@pytest.mark.parametrize("runner", RUNNERS)
def test_the_last_so_far_catches_up(runner):
    scores = scored("australia-catch-up", [HAND, HAND[1:] + HAND[:1]], runner)
    assert [scores.round_totals(seat)[0] for seat in range(3)] == [28, 15, 18]
    assert line(scores, "catch_up") == [[0, 0], [0, 3], [0, 0]]   # round 1: nobody; round 2: Bob, 15 < 18 < 28


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_region_completed_by_two_in_one_round_splits_its_bonus(runner):
    # round 1: Ana completes the Northern Territory (E F G H) alone: 3. Round 2: Ana (A B, then C D) and Ben
    # (C D, then A B) both complete Western Australia: 3 // 2 = 1 each; Ben completes Victoria alone: 3.
    rounds = [["ABEFGHI", "CDJKLMN"], ["CDOPQRS", "ABTUVWX"]]
    split = scored("australia-split-regions", rounds, runner, players=("Ana", "Ben"))
    assert line(split, "regions") == [[3, 1], [0, 4]]
    whole = scored("australia-split-regions", rounds[:1], runner, players=("Ana", "Ben"))
    assert line(whole, "regions") == [[3], [0]]
    base = ScoreKeeper(load_edition(VARIANTS.parent / "australia.yaml", runner=runner), ["Ana", "Ben"])
    for hands in rounds:
        base.score_round([[base.edition.card(x) for x in hand] for hand in hands], [{}, {}])
    assert line(base, "regions") == [[3, 3], [0, 6]]   # the rulebook: each scores the whole bonus


@pytest.mark.parametrize("runner", RUNNERS)
def test_americana_must_beat_the_best_earlier_round(runner):
    # Ana's Americana sums: 5 (W, US flag), 3 (A, Football jersey), 4 (L 3 + J 1); Ben's: 6 (I 2 + J 1 + L 3),
    # 2 (I), 3 (A). The rulebook's bar is the previous round's score: 4 > 0 and 3 > 0 score in round 3.
    rounds = [["WBCDEFG", "HIJKLMN"], ["AHKMNPS", "BCDEFGI"], ["LJBCDEF", "AGHKMNP"]]
    best = scored("usa-americana-beat-your-best", rounds, runner, players=("Ana", "Ben"))
    assert line(best, "americana") == [[5, 0, 0], [6, 0, 0]]
    base = ScoreKeeper(load_edition(VARIANTS.parent / "usa.yaml", runner=runner), ["Ana", "Ben"])
    for hands in rounds:
        base.score_round([[base.edition.card(x) for x in hand] for hand in hands], [{}, {}])
    assert line(base, "americana") == [[5, 0, 4], [6, 0, 3]]


def test_the_sheet_so_far_of_a_seat():
    edition = load_edition(VARIANTS / "australia-catch-up.yaml")
    rounds = [[{"throw_catch": 2, "regions": 3}, {"throw_catch": 5}], [{"throw_catch": 1}, {"collections": 4}],
              [{"animals": 9}, {}]]
    sheet = sheet_so_far(edition, rounds, 1)
    assert isinstance(sheet, SheetSoFar)
    assert sheet.round_totals == [1, 4] and sheet.lines.collections == [0, 4] and sheet.lines.regions == [0, 0]
    assert sheet.totals == [5, 9, 10]   # Ben first, then Cat, then Ann (seat order from Ben's left)
    assert sheet.standing == 3 and sheet_so_far(edition, rounds, 2).standing == 2
    tied = sheet_so_far(edition, [[{"animals": 4}], [{"animals": 4}], [{}]], 0)
    assert (tied.totals, tied.standing) == ([4, 4, 0], 1)   # a shared place is the better one
    first = sheet_so_far(edition, [[], [], []], 0)
    assert (first.round_totals, first.totals, first.standing, first.lines.catch_up) == ([], [0, 0, 0], 1, [])


def _random_game(name: str, seed: int, runner: str):
    edition = load_edition(VARIANTS / f"{name}.yaml", runner=runner)
    players = 2 + seed % 3
    game = Game(edition, NAMES[:players], seed)
    play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
    return game.record(), game.scores.sheet()


GAMES = 90


@pytest.mark.parametrize("runner", RUNNERS)
def test_catch_up_against_the_hand_scorer(runner):
    """Every line but catch_up is the hand scorer's; catch_up gives 3 from round 2 to the seats whose total
    so far (the hand scorer's rounds and their catch-up points) is the fewest."""
    caught = 0
    for seed in range(GAMES):
        record, sheet = _random_game("australia-catch-up", seed, runner)
        expected = hand_australia.score(record)
        so_far = [0] * len(record["players"])
        for index in range(len(record["rounds"])):
            fewest = min(so_far)
            for seat, (mine, theirs) in enumerate(zip(sheet["players"], expected["players"], strict=True)):
                points = dict(mine["rounds"][index])
                bonus = points.pop("catch_up")
                assert points == theirs["rounds"][index], (seed, index, seat)
                assert bonus == (3 if index > 0 and so_far[seat] == fewest else 0), (seed, index, seat)
                caught += bonus > 0
            for seat, mine in enumerate(sheet["players"]):
                so_far[seat] += sum(mine["rounds"][index].values())
        for mine, theirs in zip(sheet["players"], expected["players"], strict=True):
            assert mine["total"] == theirs["total"] + mine["categories"]["catch_up"]
    assert caught > GAMES   # the bonus was given, and more than once a game on average


@pytest.mark.parametrize("runner", RUNNERS)
def test_split_regions_against_the_hand_scorer(runner):
    """Every line but regions is the hand scorer's; regions is worked out here from its regions: the seats that
    first complete one in the same round share its 3 points, rounded down."""
    shared = 0
    for seed in range(GAMES):
        record, sheet = _random_game("australia-split-regions", seed, runner)
        expected = hand_australia.score(record)
        names = record["players"]
        visited = {name: set() for name in names}
        taken: set = set()
        for index, played in enumerate(record["rounds"]):
            regions = dict.fromkeys(names, 0)
            for name in names:
                visited[name] |= set(played["drafts"][name])
            for region, letters in hand_australia.REGIONS.items():
                done = [name for name in names if region not in taken and letters <= visited[name]]
                for name in done:
                    regions[name] += 3 // len(done)
                taken |= {region} if done else set()
                shared += len(done) > 1
            for mine, theirs in zip(sheet["players"], expected["players"], strict=True):
                points, hand = dict(mine["rounds"][index]), dict(theirs["rounds"][index])
                assert points.pop("regions") == regions[mine["name"]], (seed, index, mine["name"])
                hand.pop("regions")
                assert points == hand, (seed, index)
    assert shared > 5   # regions completed by two seats in one round were met


@pytest.mark.parametrize("runner", RUNNERS)
def test_beat_your_best_against_the_hand_scorer(runner):
    """Every line but americana is the hand scorer's; americana is the hand scorer's sum of the round when it is
    greater than every earlier Americana score of the seat, else 0."""
    differs = 0
    for seed in range(GAMES):
        record, sheet = _random_game("usa-americana-beat-your-best", seed, runner)
        expected = hand_usa.score(record)
        for mine, theirs in zip(sheet["players"], expected["players"], strict=True):
            scores: list = []
            for index, played in enumerate(record["rounds"]):
                total = hand_usa.americana_sum(played["drafts"][mine["name"]])
                want = total if total > max(scores, default=0) else 0
                points, hand = dict(mine["rounds"][index]), dict(theirs["rounds"][index])
                assert points.pop("americana") == want, (seed, index, mine["name"])
                differs += hand.pop("americana") != want
                assert points == hand, (seed, index)
                scores.append(want)
    assert differs > 5   # the games met rounds where the rulebook's bar and this one disagree


@pytest.mark.parametrize("name", ["australia-catch-up", "australia-split-regions", "usa-americana-beat-your-best"])
def test_greedy_bots_play_them_alike_with_either_runner(name):
    """The bots read the sheet so far too (their value of a hand): the same game whichever runner scores."""
    def game(runner):
        edition = load_edition(VARIANTS / f"{name}.yaml", runner=runner)
        return play(Game(edition, NAMES[:3], 4), [GreedyAgent(agent_seed(4, s), edition) for s in range(3)])
    compiled, reference = game("compiled"), game("reference")
    assert reference.decisions == compiled.decisions
    assert reference.scores.sheet() == compiled.scores.sheet()


def test_a_sheet_variable_read_in_a_round_and_at_game_end_plays_alike_with_either_runner(tmp_path):
    """The bots' value of a hand binds the sheet so far once a seat, then the game end sets `round_totals`,
    `totals` and `standing` as a seat alone has them and back: the generated function once made them its own
    locals, so a round line reading one stopped a greedy game (UnboundLocalError; found by an edge edition
    of #32)."""
    rule = tmp_path / "both.yaml"
    rule.write_text(
        f"extends: {VARIANTS.parent / 'australia.yaml'}\nid: both\nname: Both\ncategories:\n"
        "  - key: now\n    title: Now\n    score: sum(round_totals) // 10 + standing\n"
        "  - key: end\n    title: End\n    when: game_end\n"
        "    score: len(round_totals) + sum(lines.now) // 10 + first(totals) // 50 + standing\n",
        encoding="utf-8")

    def game(runner):
        edition = load_edition(rule, runner=runner)
        return play(Game(edition, NAMES[:3], 3), [GreedyAgent(agent_seed(3, s), edition) for s in range(3)])
    compiled, reference = game("compiled"), game("reference")
    assert reference.decisions == compiled.decisions
    assert reference.scores.sheet() == compiled.scores.sheet()
