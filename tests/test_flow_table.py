"""The 2010 game at the table: the bids since your last turn, words, `replay --seat`, tournaments."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import EDITIONS
from test_flow import position

from cli.main import main
from cli.rounds import count, ordinal, since_last_turn, stack_place
from rulesengine import load_edition
from rulesengine.bots.tournament import run_tournament

PATH = EDITIONS / "boomerang-2010.yaml"


@pytest.fixture(scope="module")
def hunt():
    return load_edition(PATH)


def test_the_view_lists_this_rounds_bids_in_order(hunt):
    game = position(hunt, stocks=[{"boomerangs": 3}, {"boomerangs": 1}, {"boomerangs": 5}])
    game.apply(0, "throw")  # Ana throws: pot 1
    game.apply(1, "throw")  # Ben throws his last: pot 2
    game.apply(2, "stop")  # Cy stops and takes 2; Ana is to play
    assert game.view(0)["moves"] == [
        {"seat": 0, "move": "throw", "pot": 1},
        {"seat": 1, "move": "throw", "pot": 2},
        {"seat": 2, "move": "stop", "took": 2},
    ]


def test_a_seat_is_told_what_happened_since_its_last_bid():
    moves = [
        {"seat": 0, "move": "throw", "pot": 1},
        {"seat": 1, "move": "throw", "pot": 2},
        {"seat": 2, "move": "stop", "took": 2},
    ]
    view = {"players": ["Ana", "Ben", "Cy"], "seat": 0, "moves": moves}
    assert since_last_turn(view) == "Since your last turn: Ben threw (pot 2), Cy stopped and took 2 from the pot."
    assert since_last_turn(dict(view, seat=1)) == "Since your last turn: Cy stopped and took 2 from the pot."
    assert since_last_turn(dict(view, seat=2, moves=moves[:2])) == "This round: Ana threw (pot 1), Ben threw (pot 2)."
    assert since_last_turn(dict(view, moves=[])) == ""


def test_counts_are_worded_in_the_singular_for_one():
    worded = (count(1, "boomerangs"), count(0, "boomerangs"), count(2, "cards"))
    assert worded == ("1 boomerang", "0 boomerangs", "2 cards")


def test_replay_as_one_seat_shows_its_own_secret_and_no_other_before_the_hunt(tmp_path):
    log = tmp_path / "g.jsonl"
    runner = CliRunner()
    arguments = ["run", str(PATH), "-p", "3", "--seat", "greedy", "--seed", "7", "-q", "--log", str(log)]
    played = runner.invoke(main, arguments)
    assert played.exit_code == 0, played.output
    shown = runner.invoke(main, ["replay", str(log), "--seat", "Ben"])
    assert shown.exit_code == 0, shown.output
    assert "Ben chose" in shown.output and "Winner" in shown.output
    first_round = shown.output.split("round 2")[0]  # before the first hunt is over: only Ben's own choice
    secrets = [line for line in first_round.splitlines() if "secret choice:" in line]
    ben = next(line.split()[-1] for line in first_round.splitlines() if line.startswith("Ben chose"))
    assert all(line.endswith(ben) for line in secrets)
    assert "Last round" not in first_round


def test_a_tournament_plays_a_flow_edition():
    result = run_tournament(str(PATH), ("random", "greedy", "random"), 6, seed=2)
    assert sum(entry.wins for entry in result.entries) == pytest.approx(6)
    assert all(entry.games == 6 for entry in result.entries)


def bids_of_a_random_seat(hunt, file_format: int) -> list[list[str]]:
    """Seat 0's bids, round by round, in a 3-seat game of random bots drawing as that file format's bots."""
    from rulesengine.bots.registry import agent_seed, make_bot
    from rulesengine.bots.seeding import seeding_for
    from rulesengine.game.loop import play
    from rulesengine.game.state import Game

    game = Game(hunt, ["Ana", "Ben", "Cy"], 21, deal_version=file_format)
    bots = [make_bot("random", hunt, agent_seed(21, s), seeding=seeding_for(file_format)) for s in range(3)]
    play(game, bots)
    rounds: dict[int, list] = {}
    for event in game.events:
        if event["type"] == "decision" and event["seat"] == 0 and event["kind"] == "bid":
            rounds.setdefault(event["round"], []).append(event["answer"])
    return list(rounds.values())


def test_format_4_random_bots_vary_their_bids_within_a_round_and_format_3_ones_still_repeat_them(hunt):
    old = bids_of_a_random_seat(hunt, 3)
    assert all(len(set(bids)) == 1 for bids in old)  # format 3: the same bid all round, as those files were played
    new = bids_of_a_random_seat(hunt, 4)
    assert any(len(set(bids)) > 1 for bids in new)


def test_a_stopped_seat_is_placed_from_the_top_of_the_stack_which_hunts_first():
    # Cy (2) stopped first, then Ana (0): Ana's choice lies on top and is revealed first after the last one left
    assert stack_place([2, 0], 0) == "1st from the top of the stack"
    assert stack_place([2, 0], 2) == "2nd from the top of the stack"
    assert stack_place([2, 0], 1) == "on the stack"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]


def test_a_bots_game_tells_every_hunt_and_the_final_sheet_counts_each_species(tmp_path, hunt):
    record = tmp_path / "r.json"
    result = CliRunner().invoke(main, ["run", str(PATH), "-p", "3", "--seed", "4", "--seats", "greedy,greedy,greedy",
                                       "--save-record", str(record)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())   # rich wraps long lines
    rounds = [line for line in text.split("Round ")[1:]]
    assert len(rounds) == 14 and rounds[-1].startswith("14: Cy was left last. Cy (Desert) took 2 cards;")
    captured = json.loads(record.read_text())["captured"]
    # Seed 4, counted from the record's cards: Ana 15 cards, Ben 18, Cy 21
    expected = {"Fish": (3, 3, 3), "Turtles": (5, 2, 2), "Kangaroos": (2, 4, 3), "Emus": (1, 3, 5),
                "Koalas": (1, 3, 5), "Wombats": (3, 3, 3)}
    for species, counts in expected.items():
        assert counts == tuple(sum(hunt.card(x).icons[0] == species for x in captured[name])
                               for name in ("Ana", "Ben", "Cy"))
        assert f"│ {species} captured" in result.output
        row = next(line for line in result.output.splitlines() if f"{species} captured" in line)
        assert [int(n) for n in row.replace("│", " ").split()[2:]] == list(counts)


def test_a_question_mark_at_a_2010_prompt_explains_the_rule_that_asks():
    result = CliRunner().invoke(main, ["run", str(PATH), "-p", "3", "--seat", "human", "--seed", "4"],
                                input="?\nCoast\n" + "?\n2\n" * 2 + "2\n" * 400)  # round 2: ? at each prompt
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "? explains this decision." in text
    assert "Secret choice (ground): every player picks one Hunting grounds token" in text
    assert "Bidding for boomerangs: " in text and "The last player left does not throw." in text
    assert "Round 14: " in text   # the last round's hunt is told too, after the human's last bid


def test_the_formulas_say_how_a_majority_is_counted():
    result = CliRunner().invoke(main, ["rules", str(PATH), "--formulas"])
    assert result.exit_code == 0, result.output
    animals = result.output[result.output.index("  Animals (most of a species)"):result.output.index("  Boomerangs (")]
    assert "declared as `majority: species`" in animals
    assert "sum([count(i, captured) for i in kinds(species)" in animals
    assert "most(i) the largest count(i, captured)" in animals
    plain = CliRunner().invoke(main, ["rules", str(PATH)]).output
    assert "kinds(species)" not in plain   # only with --formulas
