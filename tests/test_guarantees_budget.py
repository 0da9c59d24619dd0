"""Issue #32, the work budget and the per-game guarantee: comparisons charged by the whole shape of
their operands, the worst case of a whole greedy game computed from the edition and refused beyond
its limit with the figure, decisions per game bounded (and the save limit with them), every number
bounded round after round, the greedy bot sampling fewer worlds when one evaluation is expensive,
and editions at the edge of every limit playing one greedy game within the guarantee, counted in
evaluation steps (tests/edge_editions.py). Hostile editions are kept in tests/hostile/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from edge_editions import Metered, bidding_edition, counted_game, edge_sizes, edition_data, write

from cli.main import main
from rulesengine import Game, check_edition, load_edition
from rulesengine.bots.greedy import GreedyAgent
from rulesengine.bots.registry import agent_seed
from rulesengine.dsl.meter import METER
from rulesengine.edition.guarantee import (
    DECISION_WORK,
    GREEDY_COMPLETIONS,
    GREEDY_SAMPLES,
    MAX_GAME_DECISIONS,
    MAX_GAME_WORK,
    TYPICAL_TRIALS,
    evaluation_steps,
)
from rulesengine.game.loop import play

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
HOSTILE = Path(__file__).resolve().parent / "hostile"


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def errors(path) -> list:
    _, diagnostics = check_edition(path)
    return [d for d in diagnostics if d.severity == "error"]


# -- comparisons cost their whole shape ------------------------------------------------------------
def test_twelve_lets_of_nested_lists_are_refused_at_the_comparison():
    """It validated: `a6 == b6` was charged 28 steps, and one evaluation compared 28^6 pairs of cards."""
    [problem] = errors(HOSTILE / "nested-lists.yaml")
    assert problem.code == "D210" and (problem.span.line, problem.span.col) == (22, 10)
    assert problem.message == "this can take 481,890,307 steps to evaluate, more than the budget of 100,000"


@pytest.mark.parametrize(
    "score, steps",
    [
        # two one-item lists (2 steps each), compared in full: the longer's 1 x 21 cards, then the `if`
        ("if [cards] == [others] then 1 else 0", 2 + 2 + (1 * 21 + 1) + (1 + 1)),
        # cards (1 step) in a list of two lists (3 steps): each item compared in full, 2 x 28 cards (visited)
        ("if cards in [others, visited] then 1 else 0", 1 + 3 + (2 * 28 + 1) + (1 + 1)),
    ],
)
def test_comparison_and_membership_are_charged_by_the_whole_shape(score, steps):
    """By hand: a name 1 step, a list literal 1 + its items, the comparison 1 + every item compared,
    the `if` 1 + its condition + the larger branch (a number: 1)."""
    from rulesengine.dsl import worst_case
    from rulesengine.dsl.budget import MAX_WORK
    from rulesengine.edition.build import ROUND_VARIABLES

    edition = load_edition(AUSTRALIA)
    from rulesengine import dsl
    from rulesengine.dsl import Scope

    checked = dsl.check(score, Scope(dict(ROUND_VARIABLES), edition.language.constants), edition.language)
    work, where = worst_case(checked.node, edition.language.bounds, dict(ROUND_VARIABLES), checked.resolved)
    assert where is None and work == steps <= MAX_WORK


# -- the per-game guarantee ------------------------------------------------------------------------
def test_australias_guarantee_is_the_sum_of_its_parts():
    """Australia, by hand from the steps of its expressions: a hand is valued by every round category
    (Activities at each of its 4 icons, with its `requires`), the region race's `qualifies` for each of
    7 regions and the game-end line; a greedy game of 4 seats, 4 rounds, hands of 7."""
    edition = load_edition(AUSTRALIA)
    steps = evaluation_steps(edition)
    by_key = {c.key: steps[id(c.score)] for c in edition.categories}
    activities = next(c for c in edition.categories if c.key == "activities")
    requires = steps[id(activities.choice.requires)]
    [race] = edition.races
    value = (by_key["throw_catch"] + by_key["collections"] + by_key["animals"] + 4 * (by_key["activities"] + requires)
             + 7 * steps[id(race.qualifies)] + by_key["sites"])
    choices = 4 * (by_key["activities"] + requires)
    sheet_round = 4 * value + 7 * steps[id(race.award)]
    game = (4 * 4 * (GREEDY_SAMPLES * GREEDY_COMPLETIONS * (7 * 8 // 2) * value + choices) + 4 * sheet_round
            + (4 * 5 // 2) * sheet_round + TYPICAL_TRIALS * choices)
    guarantee = edition.guarantee
    assert guarantee.value_work == value == 645
    assert guarantee.decisions == 4 * 4 * (7 + 1) == 128
    assert (guarantee.samples, guarantee.completions) == (6, 3)
    assert guarantee.game_work == game == 5_270_820


def issue_edition(tmp_path) -> Path:
    """The issue's edition: more cards, 5 players, 20 rounds, 19 categories just under the budget."""
    data = edition_data(**dict(edge_sizes()["hand"], rounds=20, expensive=False), ident="issue")
    heavy = "sum([len([d for d in deck if d.number == c.number]) for c in deck]) // 100"
    data["categories"] = [{"key": f"h{i}", "title": f"Heavy {i}", "score": heavy} for i in range(19)]
    return write(tmp_path, "issue", data)


def test_an_edition_whose_greedy_game_takes_hours_is_refused_with_the_figure(tmp_path):
    """By hand: a hand is valued by 19 categories of 70,505 steps and the region race's `qualifies` (124
    steps) for each of 7 regions; one decision over 20 cards would take 20 x V > 5,000,000 steps, so
    the bot samples one world; 20 rounds x 5 seats x the 20 x 21 / 2 options of a round; the sheet
    scores each round (5 hands and 7 awards of 8 steps) and the bots' standing scores the rounds so far
    again at each round (210 rounds in all)."""
    path = issue_edition(tmp_path)
    [problem] = errors(path)
    value = 19 * 70_505 + 7 * 124
    sheet = 5 * value + 7 * 8
    game = 20 * 5 * (1 * 1 * 210 * value) + 20 * sheet + 210 * sheet
    assert problem.code == "M351" and game == 29_691_268_330 > MAX_GAME_WORK
    assert problem.message == (
        f"a game of greedy bots can take up to {game:,} evaluation steps (about 99 minutes on one core), more "
        "than the limit of 300,000,000 (about a minute)"
    )
    assert problem.hint.startswith(f"valuing one hand takes up to {value:,} steps")


def test_a_2010_style_edition_with_1000_boomerangs_a_seat_is_refused_with_its_decisions():
    """It validated, and a bidding round took thousands of decisions: a save then held more than resume reads.
    By hand: 2 x 54 cards + 1 = 109 rounds at most; a round asks each of the 5 seats a secret choice and a stop,
    and every token of the table is thrown at most once (5 x 1,000): the blocks' declarations."""
    problems = errors(HOSTILE / "boomerangs-1000.yaml")
    assert [p.code for p in problems] == ["M350", "M351"]
    assert problems[0].message == (
        f"a game of this edition can take up to {109 * (5 * 1000 + 5 * 2):,} decisions, more than the limit of "
        f"{MAX_GAME_DECISIONS:,} (a saved game holds them all)"
    )
    assert (problems[0].span.line, problems[0].span.col) == (6, 3)


def test_the_save_limit_holds_the_longest_game_an_edition_may_have():
    from rulesengine.game.saves import SAVE_MAX_NODES

    header = 40  # nodes of a header (players, seats, options...) with 12 players
    assert SAVE_MAX_NODES >= 4 * MAX_GAME_DECISIONS + header


def test_the_shipped_2010_game_is_within_the_decisions_a_save_holds():
    edition = load_edition(ROOT / "editions" / "boomerang-2010.yaml")
    assert edition.guarantee.decisions == 109 * (5 * 12 + 5 * 2) == 7_630 <= MAX_GAME_DECISIONS


def test_points_that_double_round_after_round_are_refused_where_they_pass_the_maximum():
    """It validated; `boom simulate` then stopped with an internal error (a float overflow): 7 x 2^48 is
    the first sum over 10^15 (len(cards) is at most 7, round 1 has previous = 0)."""
    [problem] = errors(HOSTILE / "sums-beyond.yaml")
    assert problem.code == "D212" and (problem.span.line, problem.span.col) == (59, 17)
    assert problem.message == (
        f"this can reach {7 * 2**48:,}, more than 1,000,000,000,000,000, the largest number a game keeps"
    )
    result = invoke("simulate", HOSTILE / "sums-beyond.yaml", "-p", 2, "--games", 2, "--jobs", 1)
    assert result.exit_code == 1 and "D212" not in result.output and "the largest number a game keeps" in result.output


def test_points_that_grow_from_previous_are_bounded_over_the_rounds(tmp_path):
    """previous * 1000 + 1000 over 20 rounds: 1,000 in round 1, 1,001,000 in round 2... in round 5 the
    product is at its cap (10^15; more fails when played) and the sum passes it."""
    path = tmp_path / "grow.yaml"
    path.write_text(f"extends: {AUSTRALIA}\nid: grow\nrounds: 20\ncategories:\n  - key: grow\n    title: Grow\n"
                    "    score: previous * 1000 + 1000\n")
    [problem] = errors(path)
    assert problem.code == "D212" and problem.message == (
        f"this can reach {10**15 + 1000:,} in round 5, more than 1,000,000,000,000,000, the largest number a game "
        "keeps"
    )
    path.write_text(path.read_text().replace("previous * 1000 + 1000", "previous + 1000"))
    assert errors(path) == []  # 20,000 at most over 20 rounds


# -- the greedy bot samples fewer worlds when one evaluation is expensive ---------------------------
def test_the_greedy_bot_samples_fewer_worlds_when_one_evaluation_is_expensive(tmp_path, monkeypatch):
    from rulesengine.bots import greedy

    edition = load_edition(write(tmp_path, "work", edition_data(**edge_sizes()["work"], ident="work")))
    # a hand of 7: 18 worlds of 7 x V steps would be over 5,000,000 steps a decision, 9 are within
    value = edition.guarantee.value_work
    assert 18 * 7 * value > DECISION_WORK >= 9 * 7 * value
    assert (edition.guarantee.samples, edition.guarantee.completions) == (3, 3)
    asked = []
    real = greedy.sample_rounds
    monkeypatch.setattr(greedy, "sample_rounds", lambda e, v, rng, count: asked.append(count) or real(e, v, rng, count))
    counted_game(edition, 2, 3)
    assert asked and set(asked) == {3}


def test_a_shipped_edition_keeps_every_world():
    for name in ("australia", "europe", "usa"):
        guarantee = load_edition(ROOT / "editions" / f"{name}.yaml").guarantee
        assert (guarantee.samples, guarantee.completions) == (GREEDY_SAMPLES, GREEDY_COMPLETIONS)


# -- editions at the edge of every limit play within the guarantee ----------------------------------
SLOW = {"hand", "work", "players"}


@pytest.mark.parametrize(
    "limit", [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in edge_sizes()]
)
def test_an_edition_at_the_edge_of_a_limit_plays_a_greedy_game_within_its_guarantee(tmp_path, limit):
    """One greedy game with every seat the edition allows, every evaluation counted at its worst case (with the
    reference runner), and the same game with the compiled program: the same decisions and sheet. The steps
    the two runners charge (dsl/meter.py) differ, by a bound that holds for both: decision by decision the
    compiled program charges at most what the reference charges, which is at most the decision's worst case,
    so the greedy bot's cut (DECISION_STEPS) binds neither where the guarantee holds."""
    path = write(tmp_path, limit, edition_data(**edge_sizes()[limit], ident=limit.replace("_", "-")))
    edition = load_edition(path)
    charged: dict = {"reference": [], "compiled": []}
    before = METER.spent
    game, steps = counted_game(edition, edition.players_max, 1, charged["reference"])
    in_game = {"reference": METER.spent - before}
    assert game.over
    before = METER.spent
    compiled = play(Game(edition, [f"P{seat}" for seat in range(edition.players_max)], 1),
                    [Metered(GreedyAgent(agent_seed(1, seat), edition), charged["compiled"])
                     for seat in range(edition.players_max)])
    in_game["compiled"] = METER.spent - before
    assert (compiled.decisions, compiled.scores.sheet()) == (game.decisions, game.scores.sheet())
    assert all(c <= r for c, r in zip(charged["compiled"], charged["reference"], strict=True))
    assert max(charged["reference"]) <= edition.guarantee.decision_work <= DECISION_WORK
    assert in_game["compiled"] <= in_game["reference"] <= steps
    assert 0 < steps <= edition.guarantee.game_work <= MAX_GAME_WORK
    assert len(game.decisions) <= edition.guarantee.decisions
    save = json.dumps(game.decisions)
    assert save.count("[") - 1 <= MAX_GAME_DECISIONS


def test_a_bidding_game_at_the_edge_of_the_decisions_a_save_holds_plays_within_its_guarantee(tmp_path):
    """12 seats and 13 tokens a seat: 109 rounds x (12 x 13 tokens thrown + 12 secret choices + 12 stops)
    = 19,620 decisions at most, within 20,000; 14 tokens (20,928) are refused (M350)."""
    path = bidding_edition(tmp_path)
    edition = load_edition(path)
    assert edition.stocks == {"boomerangs": 13}
    assert edition.guarantee.decisions == 109 * (12 * 13 + 12 * 2) == 19_620
    game, steps = counted_game(edition, edition.players_max, 1)
    assert game.over
    assert 0 < steps <= edition.guarantee.game_work <= MAX_GAME_WORK
    assert len(game.decisions) <= edition.guarantee.decisions
    more = path.read_text().replace("boomerangs: 13", "boomerangs: 14")
    path.write_text(more)
    assert [p.code for p in errors(path)] == ["M350"]


def test_a_seat_option_counts_at_the_edge_of_its_range_when_numbers_are_bounded(tmp_path):
    """`options.handicap` may be set anywhere in -50..50 (australia-handicap): three times 50 x 10^13 is
    1.5 x 10^15, over the largest number a game keeps, refused at the sum that passes it (D212)."""
    rule = tmp_path / "big.yaml"
    term = "options.handicap * 10000000000000"
    rule.write_text(f"extends: {ROOT / 'editions' / 'variants' / 'australia-handicap.yaml'}\nid: big\nname: Big\n"
                    f"categories:\n  - key: big\n    title: Big\n    score: {term} + {term} + {term}\n",
                    encoding="utf-8")
    [problem] = errors(rule)
    assert problem.code == "D212"
    assert problem.message == "this can reach 1,500,000,000,000,000, more than 1,000,000,000,000,000, the largest " \
                              "number a game keeps"
