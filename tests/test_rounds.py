"""The drafting round as declared blocks (issue #19) and picks per pass (issue #15): the default block
list, a declared list playing exactly as the default, parameters taken from the blocks, the
two-at-once house rule on a round traced and scored by hand, and the search bot's sampled worlds
consistent with what a seat has seen when a pass takes two cards."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from click.testing import CliRunner
from conftest import EDITIONS
from net_support import RawPlayer, ServerThread

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.determinize import from_view
from rulesengine.bots.registry import RandomAgent, agent_seed, make_bot
from rulesengine.edition.steps import Catch, Choices, Deal, PickAndPass, Throw
from rulesengine.game.loop import play
from rulesengine.game.state import THROW, Game

AUSTRALIA = EDITIONS / "australia.yaml"
TWO_AT_ONCE = EDITIONS / "variants" / "australia-two-at-once.yaml"


def variant(tmp_path, text: str, parent=AUSTRALIA):
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: {parent}\nid: variant\n{text}", encoding="utf-8")
    return load_edition(path)


def test_an_edition_without_a_flow_plays_the_default_block_list(australia):
    assert australia.round.steps == (Deal(7), Throw(), PickAndPass(("left",)), Catch("same"), Choices())
    assert australia.round.end == 4


def test_the_default_blocks_written_out_play_exactly_the_same_game(tmp_path, australia):
    declared = variant(
        tmp_path,
        "flow:\n  round: [deal: {cards: 7}, throw: , pick_and_pass: {directions: [left]}, catch: {from: same},"
        " choices: ]\n  end: {rounds: 4}\n",
    )
    assert declared.round == australia.round
    games = []
    for edition in (australia, declared):
        game = Game(edition, ["Ann", "Bob", "Cat"], 12)
        play(game, [RandomAgent(7), make_bot("greedy", edition, 8), RandomAgent(9)])
        games.append(game)
    assert games[0].events == games[1].events and games[0].decisions == games[1].decisions


def test_the_blocks_parameters_set_the_hand_the_rounds_and_the_passing(tmp_path):
    edition = variant(
        tmp_path,
        "flow:\n  round:\n    - deal: {cards: 6}\n    - throw:\n    - pick_and_pass: {directions: [left, right]}\n"
        "    - catch: {from: previous}\n    - choices:\n  end: {rounds: 3}\n",
    )
    assert (edition.hand_size, edition.rounds) == (6, 3)
    assert (edition.passing.directions, edition.passing.catch) == (("left", "right"), "previous")
    game = play(Game(edition, ["Ann", "Bob", "Cat"], 3), [RandomAgent(s) for s in range(3)])
    assert [len(cards) for r in game.history for cards in r["drafts"].values()] == [6] * 9


def letters(cards) -> list:
    return [c.letter for c in cards]


def test_two_cards_at_once_on_a_round_traced_and_scored_by_hand():
    """Ann holds A-G, Bob H-N. Pass 1: Ann A (Throw) and B, Bob H (Throw) and I; the hands of 5 pass;
    then one card a pass: Ann J D L F, Bob C K E M; Ann catches N, Bob G.
    Ann: Throw 1, Catch 3: 2; Leaves 1 + Wildflowers 2 + 2 = 5, doubled: 10; two Kangaroos: 3;
    Indigenous Culture on A and J: 2 cards, 2. Round: 17.
    Bob: Throw 4, Catch 4: 0; Wildflowers 2 + Shells 3 + Souvenirs 5 + Shells 3 = 13; two Koalas: 7;
    no activity: 0. Round: 20."""
    edition = load_edition(TWO_AT_ONCE)
    card = edition.card
    hands = [[card(x) for x in "ABCDEFG"], [card(x) for x in "HIJKLMN"]]
    rest = [c for c in edition.cards if c not in hands[0] + hands[1]]
    game = Game.at_position(
        edition, ["Ann", "Bob"], 0, [], at="pick_and_pass", phase=THROW, hands=hands, drafts=[[], []], leftover=rest,
        seen_hands=[[list(hands[0])], [list(hands[1])]],
    )
    assert [(d.seat, d.kind) for d in game.pending()] == [(0, "throw"), (1, "throw")]
    game.apply(0, "A")
    ann = [d for d in game.pending() if d.seat == 0]
    assert [(d.kind, d.options) for d in ann] == [("draft", tuple("BCDEFG"))]
    assert game.view(0)["hand"] == list("BCDEFG") and game.view(0)["picked"] == ["A"]
    assert game.view(1)["picked"] == [] and game.view(1)["table"][0]["face_up"] == []  # nothing shown yet
    game.apply(0, "B")
    assert [d.seat for d in game.pending()] == [1]
    game.apply(1, "H")
    game.apply(1, "I")
    assert [letters(h) for h in game.places.hands] == [list("JKLMN"), list("CDEFG")]
    assert game.view(1)["table"][0]["face_up"] == ["B"] and game.view(0)["throw"] == "A"
    for ann_pick, bob_pick in zip("JDLF", "CKEM", strict=True):
        assert [d.kind for d in game.pending()] == ["draft", "draft"]
        game.apply(0, ann_pick)
        game.apply(1, bob_pick)
    assert [letters(d) for d in game.places.drafts] == [list("ABJDLFN"), list("HICKEMG")]
    game.apply(0, "Indigenous Culture", "activities")
    game.apply(1, None, "activities")
    scored = next(e for e in game.events if e["type"] == "round_scored")
    assert scored["points"] == {
        "Ann": {"throw_catch": 2, "collections": 10, "animals": 3, "activities": 2, "regions": 0},
        "Bob": {"throw_catch": 0, "collections": 13, "animals": 7, "activities": 0, "regions": 0},
    }
    assert [sum(points.values()) for points in scored["points"].values()] == [17, 20]


@pytest.mark.parametrize("kinds", [("random", "random", "random"), ("greedy", "search", "random", "greedy")])
def test_bots_play_the_two_at_once_house_rule_to_the_end(kinds):
    edition = load_edition(TWO_AT_ONCE)
    agents = [make_bot(k, edition, s, **({"rollouts": 8} if k == "search" else {})) for s, k in enumerate(kinds)]
    game = play(Game(edition, [f"P{s}" for s in range(len(kinds))], 4), agents)
    assert len(game.history) == 4
    assert all(len(cards) == 7 for r in game.history for cards in r["drafts"].values())  # 2 + 1 + 1 + 1 + 1 + Catch


def test_a_sampled_world_agrees_with_what_the_seat_has_seen_when_a_pass_takes_two():
    edition = load_edition(TWO_AT_ONCE)
    players = 3
    game = Game(edition, ["a", "b", "c"], 5)
    agents = [RandomAgent(s) for s in range(players)]
    rng = random.Random(1)
    checked = exact = 0
    while not game.over:
        for decision in game.pending():
            seat = decision.seat
            if decision.kind != "choice":
                view = game.view(seat)
                sample = from_view(edition, view, rng)
                seen = sample.view(seat)
                for key in ("hand", "picked", "throw", "table", "seen_hands", "pending"):
                    assert seen[key] == view[key], key
                places = [c for h in sample.places.hands for c in h] + [
                    c for d in sample.places.drafts for c in d] + sample.places.leftover
                assert sorted(c.index for c in places) == list(range(len(edition.cards)))
                assert len({len(h) for h in sample.places.hands}) == 1
                if len(view["seen_hands"]) > 1:  # the hand this seat passed on is known exactly
                    neighbour = (seat + view["direction"]) % players
                    assert set(sample.places.hands[neighbour]) == set(game.places.hands[neighbour])
                    exact += 1
                checked += 1
            game.apply(seat, agents[seat].decide(game.view(seat), decision), decision.category)
    assert checked > 60 and exact > 20


def test_a_steps_round_plays_its_blocks_in_the_declared_order(tmp_path):
    """The secret choice before the reveal: grounds are chosen blind, then the circle fills, then the bidding."""
    edition = variant(
        tmp_path,
        "flow:\n  round:\n    - secret_choice: {key: ground, from: ground}\n"
        "    - reveal: {until: \"all([count(g, circle) > 0 for g in kinds(ground)])\"}\n"
        "    - bidding: {stock: boomerangs}\n    - claim: {choice: ground}\n",
        parent=EDITIONS / "boomerang-2010.yaml",
    )
    game = Game(edition, ["Ann", "Bob", "Cat"], 2)
    assert game.places.circle == [] and [d.kind for d in game.pending()] == ["secret"] * 3
    play(game, [RandomAgent(s) for s in range(3)])
    first_round = [e["type"] for e in game.events if e.get("round") == 1 and e["type"] != "decision"]
    assert first_round[:5] == ["round_start", "secret_chosen", "secret_chosen", "secret_chosen", "reveal_cards"]
    assert "throw_token" in first_round or "stop" in first_round
    kept = [c.letter for cards in game.places.captured for c in cards] + [c.letter for c in game.places.circle]
    assert sorted(kept, key=int) == [str(i) for i in range(1, 55)]
    assert sum(k["boomerangs"] for k in game.places.stocks) == 36


class FirstOption:
    def __init__(self, log=None):
        self.log = log

    def decide(self, view, decision):
        if self.log is not None:
            self.log.append(decision.options[0])
        return decision.options[0]


def test_the_terminal_plays_two_cards_at_once(tmp_path):
    edition = load_edition(TWO_AT_ONCE)
    answers: list = []
    game = play(Game(edition, ["Ana", "Ben"], 3), [FirstOption(answers), make_bot("random", edition, agent_seed(3, 1))])
    typed = "\n".join("none" if a is None else a for a in answers) + "\n"
    result = CliRunner().invoke(
        main,
        ["run", str(TWO_AT_ONCE), "--players", "2", "--seed", "3", "--seat", "human", "-q",
         "--save-record", str(tmp_path / "game.json")],
        input=typed,
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.count("Throw card (face down)") == 4 and "Final score sheet" in result.output
    assert "Traceback" not in result.output
    assert json.loads((tmp_path / "game.json").read_text()) == game.record()


def test_a_net_table_plays_two_cards_at_once(tmp_path):
    edition = load_edition(TWO_AT_ONCE)
    server = ServerThread(tmp_path / "boom.sqlite")
    try:
        answer = CliRunner().invoke(
            main, ["host", server.url, str(TWO_AT_ONCE), "--players", "2", "--bots", "1", "--seed", "9",
                   "--format", "json"],
        )
        assert answer.exit_code == 0, answer.output
        player = RawPlayer(server.url, json.loads(answer.output)["table"], "Ana")
        asyncio.run(player.play())
        assert player.errors == [] and player.final is not None
        bot = make_bot("greedy", edition, agent_seed(9, 1))
        offline = play(Game(edition, ["Ana", "Bot 1"], 9), [FirstOption(), bot])
        assert player.final["sheet"] == offline.scores.sheet()
        assert player.decisions == 4 * 6 + 4  # per round: 2 on the first pass, 4 single passes; a choice
    finally:
        server.stop()


def test_a_two_at_once_game_logged_replays_identically(tmp_path):
    log = tmp_path / "game.jsonl"
    runner = CliRunner()
    ran = runner.invoke(
        main, ["run", str(TWO_AT_ONCE), "--players", "3", "--seed", "4", "--seat", "greedy", "--seat", "random",
               "--seat", "random", "-q", "--log", str(log)],
    )
    assert ran.exit_code == 0, ran.output[-2000:]
    replayed = runner.invoke(main, ["replay", str(log), "--verify"])
    assert replayed.exit_code == 0, replayed.output
    assert "84 decisions replay identically; game finished" in replayed.output  # 3 seats x 4 rounds x (6 picks + 1)


def test_a_round_without_a_throw_takes_its_first_card_face_up(tmp_path):
    """`throw` may be left out: the first card is then a draft like the others, face up to the table at once."""
    edition = variant(tmp_path, "flow:\n  round: [deal: , pick_and_pass: , catch: , choices: ]\n")
    game = Game(edition, ["Ann", "Bob", "Cat"], 5)
    assert {d.kind for d in game.pending()} == {"draft"}
    first = {seat: game.places.hands[seat][0].letter for seat in game.seats}
    for seat in game.seats:
        game.apply(seat, first[seat])
    table = game.view(1)["table"]
    assert [seat["face_up"] for seat in table] == [[first[0]], [first[1]], [first[2]]]
    assert not any(seat["throw_down"] for seat in table) and "throw" not in game.view(0)
    play(game, [make_bot("greedy", edition, 1), make_bot("search", edition, 2, rollouts=8), RandomAgent(3)])
    assert game.over and len(game.history) == 4
