"""A game's flow declared in YAML, through the 2010 hunting edition: the rulebook's examples, the
bidding's special case, the order of the hunt, the end, whole games by bots, records and hidden
information. Every expected value is the rulebook's or a hand computation."""

from __future__ import annotations

import copy
import json
import random
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine import load_edition, new_game, score_record
from rulesengine.bots import make_bot
from rulesengine.edition.source import SourceMap
from rulesengine.game.holdings import majority_points
from rulesengine.game.loop import play
from rulesengine.game.scoring import ScoreKeeper
from rulesengine.game.state import Game

PATH = EDITIONS / "boomerang-2010.yaml"


@pytest.fixture(scope="module")
def hunt():
    return load_edition(PATH)


def of(edition, species: str, n: int) -> list:
    """n cards of one species (from the deck, in order)."""
    return [c for c in edition.cards if c.icons[0] == species][:n]


def test_only_the_most_fish_score(hunt):
    # rulebook example 1: 5, 3 and 1 fish -> the first scores 5, the others nothing
    captured = [of(hunt, "Fish", 5), of(hunt, "Fish", 8)[5:], of(hunt, "Fish", 9)[8:]]
    assert majority_points(hunt.families["species"], captured) == [5, 0, 0]


def test_tied_turtles_both_score(hunt):
    # rulebook example 2: 4 and 4 turtles both score 4, the one with 1 scores 0
    turtles = of(hunt, "Turtles", 9)
    assert majority_points(hunt.families["species"], [turtles[:4], turtles[4:8], turtles[8:]]) == [4, 4, 0]


def flow_sheet(edition, players, captured, kept):
    """The final sheet of these holdings, as the game's and the record's ScoreKeeper makes it."""
    sheet = ScoreKeeper(edition, players)
    sheet.holdings = SimpleNamespace(captured=captured, stocks=kept)
    sheet.finish()
    return sheet.sheet()


@pytest.mark.parametrize("kept, points", [(8, 1), (14, 2), (5, 0), (12, 2)])
def test_one_point_per_six_boomerangs_kept(hunt, kept, points):
    sheet = flow_sheet(
        hunt, ["a", "b", "c"], [[], [], []], [{"boomerangs": kept}, {"boomerangs": 0}, {"boomerangs": 0}]
    )
    assert sheet["players"][0]["categories"]["boomerang_sets"] == points


def test_a_tie_goes_to_the_most_boomerangs(hunt):
    fish = of(hunt, "Fish", 2)
    # a: 1 fish (shared majority, 1 point) + 6 boomerangs (1) = 2; b: the same with 11 boomerangs = 2
    sheet = flow_sheet(
        hunt, ["a", "b", "c"], [fish[:1], fish[1:], []], [{"boomerangs": 6}, {"boomerangs": 11}, {"boomerangs": 19}]
    )
    assert [p["total"] for p in sheet["players"]] == [2, 2, 3]
    sheet = flow_sheet(
        hunt, ["a", "b", "c"], [fish[:1], fish[1:], []], [{"boomerangs": 6}, {"boomerangs": 11}, {"boomerangs": 1}]
    )
    assert [p["total"] for p in sheet["players"]] == [2, 2, 0]
    assert sheet["winners"] == ["b"]


def position(hunt, **changes):
    """Round 1 in the bidding: three seats, all chosen, seat 0 to play."""
    state = dict(
        round=0,
        deck=list(hunt.cards[20:]),
        circle=list(hunt.cards[:6]),
        captured=[[], [], []],
        stocks=[{"boomerangs": 12} for _ in range(3)],
        secrets={0: "Desert", 1: "Bush", 2: "River"},
        still_in=[0, 1, 2],
        stack=[],
        pot=0,
        turn=0,
        first=0,
    )
    state.update(changes)
    return Game.at_position(hunt, ["Ana", "Ben", "Cy"], 1, at="bidding", phase="bid", **state)


def test_no_boomerang_and_an_empty_circle_stops_and_takes_nothing(hunt):
    game = position(hunt, stocks=[{"boomerangs": 3}, {"boomerangs": 0}, {"boomerangs": 5}])
    game.apply(0, "stop")  # Ana stops on an empty pot; Ben has no boomerang and the pot is empty
    stops = [e for e in game.events if e["type"] == "stop"]
    assert [(e["seat"], e["took"]) for e in stops] == [(0, 0), (1, 0)]
    assert game.history[0]["last_left"] == "Cy" and game.history[0]["stopped"] == ["Ana", "Ben"]
    assert [k["boomerangs"] for k in game.places.stocks] == [3, 0, 5]


def test_a_seat_that_cannot_throw_stops_and_takes_the_pot(hunt):
    game = position(hunt, stocks=[{"boomerangs": 3}, {"boomerangs": 0}, {"boomerangs": 5}], turn=2, still_in=[0, 1, 2])
    game.apply(2, "throw")  # Cy throws: pot 1; Ana throws: pot 2; Ben cannot throw: takes 2
    game.apply(0, "throw")
    assert [(e["seat"], e["took"]) for e in game.events if e["type"] == "stop"][0] == (1, 2)
    assert [k["boomerangs"] for k in game.places.stocks] == [2, 2, 4] and game.block_named("bidding").pot == 0


def test_the_hunt_goes_from_the_last_one_left_then_the_stack_from_the_top(hunt):
    # circle: cards 1 (Fish Desert River), 4 (Fish Bush River), 7 (Fish River Coast), 10 (Turtles Desert Bush)
    circle = [hunt.card(x) for x in ("1", "4", "7", "10")]
    game = position(hunt, circle=circle, secrets={0: "Desert", 1: "River", 2: "Bush"})
    game.apply(0, "stop")  # Ana stops first: bottom of the stack
    game.apply(1, "stop")  # Ben stops: top of the stack; Cy is left last
    claims = [(e["seat"], e["choice"], e["cards"]) for e in game.events if e["type"] == "claim"]
    # Cy (Bush) takes 4 and 10; Ben (River) then 1 and 7; Ana (Desert) finds nothing left
    assert claims == [(2, "Bush", ["4", "10"]), (1, "River", ["1", "7"]), (0, "Desert", [])]
    assert game.block_named("bidding").first == 2  # the one left last starts the next round


def test_the_game_ends_when_the_deck_is_empty_at_the_start_of_a_round(hunt):
    # the deck is empty: this round is the last; the cards left in the circle stay uncaptured
    circle = [hunt.card(x) for x in ("1", "10", "19")]  # 1: Fish Desert River; 10, 19: Desert Bush
    game = position(hunt, deck=[], circle=circle, secrets={0: "Coast", 1: "Mountains", 2: "River"})
    game.apply(0, "stop")
    game.apply(1, "stop")  # Cy, left last, takes 1 (River); no card shows Mountains or Coast
    assert game.over and game.pending() == []
    assert [c.letter for c in game.places.circle] == ["10", "19"]
    assert game.places.captured[2] == [hunt.card("1")]
    assert game.events[-1]["type"] == "game_over"


def test_a_short_deck_plays_a_last_round_with_what_there_is(hunt):
    # two cards left, neither round shows all five grounds: the reveal takes both and the round is played
    game = position(
        hunt, deck=[hunt.card("9"), hunt.card("18")], circle=[], secrets={0: "Coast", 1: "Bush", 2: "River"}
    )
    game.apply(0, "stop")
    game.apply(1, "stop")
    assert not game.over and game.places.deck == [] and len(game.places.circle) == 2 and game.round == 1


@pytest.mark.parametrize(
    "players, kinds, seed",
    [
        (3, ("random", "random", "random"), 1),
        (4, ("greedy", "random", "greedy", "random"), 2),
        (5, ("greedy",) * 5, 3),
        (3, ("search", "greedy", "random"), 4),
    ],
)
def test_a_whole_game_by_bots_keeps_every_card_and_boomerang(hunt, players, kinds, seed):
    game = new_game(hunt, [f"P{i}" for i in range(players)], seed)
    agents = [
        make_bot(kind, hunt, seed * 10 + i, **({"rollouts": 12} if kind == "search" else {}))
        for i, kind in enumerate(kinds)
    ]
    play(game, agents)
    assert game.over and not game.places.deck
    letters = [c.letter for cards in game.places.captured for c in cards] + [c.letter for c in game.places.circle]
    assert sorted(letters, key=int) == [str(i) for i in range(1, 55)]
    assert sum(k["boomerangs"] for k in game.places.stocks) == 12 * players
    sheet = game.scores.sheet()
    assert sheet == score_record(hunt, game.record(), SourceMap("<record>", {}))
    assert sheet["winners"]


def test_the_2010_round_is_its_blocks_in_the_one_game(hunt):
    game = Game(hunt, ["a", "b", "c"], 0)
    assert [block.step.name for block in game.blocks] == ["reveal", "secret_choice", "bidding", "claim"]
    assert [d.kind for d in game.pending()] == ["secret"] * 3


def test_a_secret_choice_never_leaks_before_the_claim(hunt):
    game = new_game(hunt, ["Ana", "Ben", "Cy"], 9)
    game.apply(0, "Coast", "ground")
    for seat in (1, 2):
        view = game.view(seat)
        assert view["secret"] is None and view["chosen"] == [0]
        assert [e for e in game.events_for(seat) if e.get("seat") == 0] == [
            {"type": "secret_chosen", "round": 1, "seat": 0, "to": None}
        ]
    assert game.view(0)["secret"] == "Coast"


def test_run_log_replay_record_and_score_from_the_command_line(tmp_path):
    log, record, save = tmp_path / "g.jsonl", tmp_path / "g.yaml", tmp_path / "g.json"
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "run",
            str(PATH),
            "-p",
            "4",
            "--seat",
            "greedy",
            "--seed",
            "11",
            "-q",
            "--log",
            str(log),
            "--save-record",
            str(record),
            "--save",
            str(save),
        ],
    )
    assert result.exit_code == 0, result.output
    replay = runner.invoke(main, ["replay", str(log), "--verify"])
    assert replay.exit_code == 0 and "replay identically" in replay.output
    scored = runner.invoke(main, ["score", str(PATH), "--record", str(record)])
    assert scored.exit_code == 0 and "boomerangs kept" in scored.output


def test_a_record_that_loses_a_boomerang_is_a_located_error(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(
        "players: [Ana, Ben, Cy]\ncaptured: {Ana: ['1'], Ben: [], Cy: []}\n"
        "kept: {Ana: {boomerangs: 12}, Ben: {boomerangs: 12}, Cy: {boomerangs: 11}}\n"
    )
    result = CliRunner().invoke(main, ["score", str(PATH), "--record", str(path)])
    assert result.exit_code == 1
    assert "r.yaml:3:7: error: the players keep 35 boomerangs in all, but 3 players start with 36" in result.output


@pytest.mark.parametrize("kind", ["greedy", "search"])
def test_a_bot_does_not_depend_on_what_the_seat_cannot_see(hunt, kind):
    """Twin games that differ only in the others' secret choices and the deck's order get the same answer."""
    game = new_game(hunt, ["a", "b", "c"], 21)
    agents = [make_bot("random", hunt, 40 + s) for s in range(3)]
    checked = 0
    while not game.over and checked < 12:
        decision = game.pending()[0]
        seat = decision.seat
        twin = copy.deepcopy(game)
        for other in twin.places.secrets:
            if other != seat:
                twin.places.secrets[other] = next(i for i in hunt.families["ground"].icons
                                                  if i != game.places.secrets[other])
        random.Random(checked).shuffle(twin.places.deck)
        secrets = game.places.secrets
        if twin.places.deck != game.places.deck or any(twin.places.secrets[s] != secrets[s] for s in secrets):
            assert twin.view(seat) == game.view(seat)
            bot = make_bot(kind, hunt, 5, **({"rollouts": 6} if kind == "search" else {}))
            assert bot.decide(twin.view(seat), decision) == bot.decide(game.view(seat), decision)
            checked += 1
        game.apply(seat, agents[seat].decide(game.view(seat), decision), decision.category)
    assert checked == 12


def test_a_human_game_saved_at_an_interruption_resumes_to_its_end(tmp_path):
    save = tmp_path / "g.json"
    runner = CliRunner()
    stopped = runner.invoke(main, ["run", str(PATH), "-p", "3", "--seat", "human", "--seed", "4", "--save", str(save)],
                            input="Coast\n1\n")
    assert stopped.exit_code == 130 and save.is_file()
    decided = json.loads(save.read_text())["decisions"]
    assert [0, "Coast", "ground"] in decided
    resumed = runner.invoke(main, ["resume", str(save)], input="2\n" * 400)
    assert resumed.exit_code == 0, resumed.output
    # the same answers without the interruption: the same game to the end
    whole = runner.invoke(main, ["run", str(PATH), "-p", "3", "--seat", "human", "--seed", "4"],
                          input="Coast\n1\n" + "2\n" * 400)
    assert whole.exit_code == 0, whole.output
    ranking = whole.output[whole.output.rindex("\n1. "):whole.output.index("Winner")]
    assert ranking in resumed.output and ranking.count("\n") == 4
