"""Public goals (issue #30): a goals deck declared in the edition (`goals:`), some drawn at the game's start from
the game's generator, shown to every seat and scored at game end on one line of the sheet, through the program
and the reference interpreter alike. editions/variants/australia-public-goals.yaml is scored on rounds counted
by hand, against the hand scorer over many random games with each runner, and played by random, greedy and
search seats; the draw goes into the record, the save and the log, and every bad declaration or file is one
located error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine import Game, load_edition
from rulesengine.bots.evaluate import standing_from_scores, standing_from_view
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.edition.loader import check_edition
from rulesengine.game.loop import play
from rulesengine.game.program import RUNNERS
from rulesengine.game.scoring import ScoreKeeper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from handscorers import australia as hand_australia  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GOALS = ROOT / "editions" / "variants" / "australia-public-goals.yaml"
AUSTRALIA = ROOT / "editions" / "australia.yaml"
PLAYERS = ["Ann", "Bob", "Cat"]
# two rounds counted by hand: Ann visits 14 sites (round 2 all new), Bob and Cat take their round-1 cards again
ROUNDS = [["HMZABCD", "IEFGJKL", "NOPQRST"], ["UVWXY@#", "IEFGJKL", "NOPQRST"]]
EVERY_GOAL = ["well-travelled", "wildlife-spotter", "globetrotter", "beachcomber", "island-hopper"]


def _scored(edition, goals) -> ScoreKeeper:
    scores = ScoreKeeper(edition, PLAYERS)
    if goals:
        scores.set_goals(goals)
    for hands in ROUNDS:
        scores.score_round([[edition.card(x) for x in hand] for hand in hands], [{} for _ in PLAYERS])
    scores.finish()
    return scores


@pytest.mark.parametrize("runner", RUNNERS)
def test_each_goal_scores_what_the_hand_count_gives(runner):
    """Ann: regions NT, SA, Tasmania, WA, Victoria (5: 10); animals Koalas, Kangaroos, Wombats, Platypuses, Emus
    (5: 10); 14 sites against 7 and 7 (5); Shells on C and W (6); Tasmania Z, Y, @, # (12): 43.
    Bob: NT and Queensland (4); Emus, Wombats, Platypuses, Kangaroos (8); one Shells (G): 12.
    Cat: SA and NSW (4); Emus, Kangaroos, Wombats (6): 10."""
    edition = load_edition(GOALS, runner=runner)
    scores = _scored(edition, EVERY_GOAL)
    sheet = scores.sheet()
    assert [p["goals"] for p in sheet["players"]] == [
        {"well-travelled": 10, "wildlife-spotter": 10, "globetrotter": 5, "beachcomber": 6, "island-hopper": 12},
        {"well-travelled": 4, "wildlife-spotter": 8, "globetrotter": 0, "beachcomber": 0, "island-hopper": 0},
        {"well-travelled": 4, "wildlife-spotter": 6, "globetrotter": 0, "beachcomber": 0, "island-hopper": 0},
    ]
    assert [p["categories"]["goals"] for p in sheet["players"]] == [43, 12, 10]
    plain = _scored(load_edition(AUSTRALIA, runner=runner), None)   # the same rounds without goals
    assert [scores.total(s) - plain.total(s) for s in range(3)] == [43, 12, 10]


@pytest.mark.parametrize("runner", RUNNERS)
def test_two_goals_drawn_score_on_one_line(runner):
    edition = load_edition(GOALS, runner=runner)
    scores = _scored(edition, ["island-hopper", "globetrotter"])
    assert [p["categories"]["goals"] for p in scores.sheet()["players"]] == [17, 0, 0]
    assert scores.sheet()["players"][0]["goals"] == {"island-hopper": 12, "globetrotter": 5}


def test_the_draw_comes_from_the_game_s_generator_and_is_shown_to_everyone():
    edition = load_edition(GOALS)
    game = Game(edition, PLAYERS, 4)
    # random.Random(4).sample of the five goals, 2: what the record, every view and the spectator's show
    assert game.record()["goals"] == ["wildlife-spotter", "globetrotter"]
    shown = [{"id": "wildlife-spotter", "name": "Wildlife spotter",
              "description": "2 points for each kind of animal your visited sites show"},
             {"id": "globetrotter", "name": "Globetrotter",
              "description": "5 points if you visited more sites than every other player"}]
    assert all(game.view(seat)["goals"] == shown for seat in range(3))
    assert "goals" not in Game(load_edition(AUSTRALIA), PLAYERS, 4).view(0)   # no other edition shows any
    given = Game(edition, PLAYERS, 4, goals=["beachcomber", "well-travelled"])   # a save's: the deal is the same
    assert given.record()["goals"] == ["beachcomber", "well-travelled"]
    assert given.view(0)["hand"] == game.view(0)["hand"]


@pytest.mark.parametrize("runner", RUNNERS)
def test_random_games_against_the_hand_scorer(runner):
    edition = load_edition(GOALS, runner=runner)
    drawn = set()
    for seed in range(30):
        players = PLAYERS[: 2 + seed % 2] + (["Dan"] if seed % 5 == 0 else [])
        game = play(Game(edition, players, seed), [make_bot("random", edition, agent_seed(seed, s))
                                                   for s in range(len(players))])
        record = game.record()
        drawn.update(record["goals"])
        expected = hand_australia.score(record)
        sheet = game.scores.sheet()
        for mine, theirs in zip(sheet["players"], expected["players"], strict=True):
            assert mine["categories"] == theirs["categories"], seed
            assert mine["goals"] == theirs["goals"], seed
            assert mine["total"] == theirs["total"], seed
        assert sheet["winners"] == expected["winners"], seed
    assert drawn == set(EVERY_GOAL)


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_the_variant(kind):
    edition = load_edition(GOALS)
    game = play(Game(edition, PLAYERS, 11), [make_bot(kind, edition, agent_seed(11, s), rollouts=8)
                                             if kind == "search" else make_bot(kind, edition, agent_seed(11, s))
                                             for s in range(3)])
    assert game.over
    expected = hand_australia.score(game.record())
    assert [p["total"] for p in game.scores.sheet()["players"]] == [p["total"] for p in expected["players"]]


def test_greedy_plays_alike_with_either_runner():
    def game(runner):
        edition = load_edition(GOALS, runner=runner)
        return play(Game(edition, PLAYERS, 5), [make_bot("greedy", edition, agent_seed(5, s)) for s in range(3)])
    compiled, reference = game("compiled"), game("reference")
    assert compiled.decisions == reference.decisions
    assert compiled.scores.sheet() == reference.scores.sheet()


def test_the_bots_count_the_goals_in_their_game_end_value():
    """After round 1 of the hand rounds, Ann's visited sites are worth 7 (sites) + 8 (4 regions) + 4 (Koalas and
    Kangaroos) at game end with those two goals drawn, 7 without; a bot's view gives the same standing."""
    edition = load_edition(GOALS)
    scores = ScoreKeeper(edition, PLAYERS)
    scores.set_goals(["well-travelled", "wildlife-spotter"])
    scores.score_round([[edition.card(x) for x in hand] for hand in ROUNDS[0]], [{} for _ in PLAYERS])
    assert [past.end_points for past in standing_from_scores(edition, scores).seats] == [19, 19, 17]
    plain = ScoreKeeper(edition, PLAYERS)
    plain.score_round([[edition.card(x) for x in hand] for hand in ROUNDS[0]], [{} for _ in PLAYERS])
    assert [past.end_points for past in standing_from_scores(edition, plain).seats] == [7, 7, 7]
    game = Game(edition, PLAYERS, 4)
    assert standing_from_view(edition, game.view(0)).goals == ("wildlife-spotter", "globetrotter")


def _problems(tmp_path, text: str) -> list:
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: {AUSTRALIA}\nid: house\nname: House\n{text}", encoding="utf-8")
    return check_edition(house)[1]


GOAL = "{id: a, name: A, points: len(visited)}"


@pytest.mark.parametrize("text, code, message, line, column", [
    ("goals: {draw: 1, cards: []}\n", "M360", "the goals deck is empty", 4, 18),
    (f"goals: {{draw: 2, cards: [{GOAL}]}}\n", "M360", "2 goals are drawn from a deck of 1", 4, 15),
    (f"goals: {{draw: 1, cards: [{GOAL}, {GOAL}]}}\n", "M360", "the goal id 'a' is used twice", 4, 71),
    # the points are a game-end expression, its errors located inside it
    ("goals: {cards: [{id: a, name: A, points: len(cards)}]}\n", "D203", "'cards' cannot be used here", 4, 46),
    ("goals: {cards: [{id: a, name: A, points: len(visited) + 'Koalas'}]}\n", "D205", "'+' needs numbers", 4, 57),
    ("goals: {cards: [{id: A-b, name: A, points: '1'}]}\n", "S106", "'A-b' is not a valid name", 4, 22),
    ("goals: {draw: 0, cards: [{id: a, name: A, points: '1'}]}\n", "S105", "less than the minimum of 1", 4, 15),
    (f"categories: [{{key: goals, title: G, score: '1'}}]\ngoals: {{cards: [{GOAL}]}}\n", "M360",
     "the key 'goals' is the line of the public goals", 4, 20),
])
def test_bad_declarations_are_located(tmp_path, text, code, message, line, column):
    problems = [d for d in _problems(tmp_path, text) if d.severity == "error"]
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.code.startswith(code) and message in problem.message
    assert (problem.span.line, problem.span.col) == (line, column), problem


def test_a_flow_edition_cannot_have_goals(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: {ROOT / 'editions' / 'boomerang-2010.yaml'}\nid: house\nname: House\n"
                     f"goals: {{cards: [{GOAL}]}}\n", encoding="utf-8")
    problems = [d for d in check_edition(house)[1] if d.severity == "error"]
    assert [(d.code, d.span.line) for d in problems] == [("M360", 4)]


def _invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def test_run_save_resume_replay_and_score_keep_the_goals(tmp_path):
    save, log, record = tmp_path / "g.json", tmp_path / "g.jsonl", tmp_path / "r.json"
    result = _invoke("run", GOALS, "-p", 3, "--seed", 4, "--seats", "greedy,random,greedy", "--save", save,
                     "--log", log, "--save-record", record)
    assert result.exit_code == 0, result.output
    assert "Public goals" in result.output
    final = result.output[result.output.index("Final score sheet"):]
    assert "Wildlife spotter (in Public goals)" in final and "Globetrotter (in Public goals)" in final
    assert json.loads(save.read_text())["goals"] == ["wildlife-spotter", "globetrotter"]
    assert json.loads(log.read_text().splitlines()[0])["goals"] == ["wildlife-spotter", "globetrotter"]
    verified = _invoke("replay", log, "--verify")
    assert verified.exit_code == 0 and "replay identically" in verified.output
    scored = _invoke("score", GOALS, "--record", record, "--format", "json")
    assert scored.exit_code == 0
    expected = hand_australia.score(json.loads(record.read_text()))["players"]
    assert [p["total"] for p in json.loads(scored.output)["players"]] == [p["total"] for p in expected]


@pytest.mark.parametrize("goals, message", [
    ('["wildlife-spotter", "nope"]', "'nope' is not a goal of this edition"),
    ('["wildlife-spotter"]', "must name 2 different goals of the deck, not 1"),
    ('"globetrotter"', "must be a list of goal ids"),
])
def test_a_crafted_save_s_goals_are_refused_where_they_are(tmp_path, goals, message):
    save = tmp_path / "g.json"
    assert _invoke("run", GOALS, "-p", 2, "--seed", 3, "--save", save).exit_code == 0
    text = save.read_text()
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace('"goals": ["wildlife-spotter", "island-hopper"]', f'"goals": {goals}'))
    assert bad.read_text() != text
    result = _invoke("resume", bad)
    assert result.exit_code != 0
    line = next(n for n, row in enumerate(bad.read_text().splitlines(), 1) if '"goals"' in row)
    assert f"bad.json:{line}:" in result.output and message in result.output


def test_a_save_without_its_goals_is_refused(tmp_path):
    save = tmp_path / "g.json"
    assert _invoke("run", GOALS, "-p", 2, "--seed", 3, "--save", save).exit_code == 0
    data = json.loads(save.read_text())
    del data["goals"]
    save.write_text(json.dumps(data))
    result = _invoke("resume", save)
    assert result.exit_code != 0 and "the saved game has no 'goals'" in result.output


def test_a_record_s_goals_are_checked(tmp_path):
    record = tmp_path / "r.json"
    assert _invoke("run", GOALS, "-p", 2, "--seed", 3, "--save-record", record).exit_code == 0
    data = json.loads(record.read_text())
    data["goals"] = ["island-hoper", "globetrotter"]
    record.write_text(json.dumps(data, indent=1))
    result = _invoke("score", GOALS, "--record", record)
    assert result.exit_code != 0 and "did you mean 'island-hopper'?" in result.output
    line = next(n for n, row in enumerate(record.read_text().splitlines(), 1) if "island-hoper" in row)
    assert f"r.json:{line}:" in result.output   # at the unknown id itself
    del data["goals"]
    record.write_text(json.dumps(data, indent=1))
    assert "the record has no 'goals'" in _invoke("score", GOALS, "--record", record).output


def test_the_terminal_recalls_the_goals_at_every_pick(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", str(GOALS), "-p", 3, "--seed", 4, "--seat", "human"], input="")
    assert result.exit_code == 130 and "Traceback" not in result.output   # the end of input stops the game
    said = " ".join(result.output.split())
    assert ("Public goals: Wildlife spotter (2 points for each kind of animal your visited sites show); "
            "Globetrotter (5 points if you visited more sites than every other player)") in said


def test_boom_rules_tells_the_step_and_every_goal():
    said = " ".join(_invoke("rules", GOALS, "--formulas").output.split())
    assert ("1. Public goals (once, before the first round): 2 of the 5 goal cards are drawn at random and laid "
            "face up for everyone; each scores every player at the end of the game.") in said
    assert "Island hopper: 3 points for each Tasmania site you visited. 3 * len([c for c in visited" in said


def test_the_guarantee_counts_every_goal():
    """A hand's value evaluates Australia's lines (645 steps: test_guarantees_budget) and every goal of the deck."""
    from rulesengine.edition.guarantee import evaluation_steps

    edition = load_edition(GOALS)
    steps = evaluation_steps(edition)
    goals = [steps[id(goal.points)] for goal in edition.round.steps[0].cards]
    assert all(goals) and edition.guarantee.value_work == 645 + sum(goals)


def test_the_advice_counts_what_a_card_adds_to_the_goals():
    """Ann after round 1 of the hand rounds, with well-travelled and wildlife-spotter: U (Melbourne, Victoria,
    Wombats) adds a region (+2) and an animal (+2) to the goals line, and a site."""
    from rulesengine.bots.evaluate import breakdown

    edition = load_edition(GOALS)
    scores = ScoreKeeper(edition, PLAYERS)
    scores.set_goals(["well-travelled", "wildlife-spotter"])
    scores.score_round([[edition.card(x) for x in hand] for hand in ROUNDS[0]], [{} for _ in PLAYERS])
    points = breakdown(standing_from_scores(edition, scores), 0, [edition.card("U")], [])
    assert (points["goals"], points["sites"]) == (4, 1)
    assert not any(key.startswith("goal:") for key in points)
