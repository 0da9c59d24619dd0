"""One mulligan a game (editions/variants/australia-mulligan.yaml): the redeal by hand, what each seat
sees, its checks, bots, a human at the terminal, logs that replay, and the browser-facing protocol."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import EDITIONS, letters

from cli.main import main
from rulesengine import load_edition, new_game
from rulesengine.bots.mulligan import groups_in, mulligan_answer
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.edition.loader import check_edition
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "australia-mulligan.yaml"


@pytest.fixture(scope="module")
def mulligan():
    return load_edition(PATH)


def test_a_mulligan_draws_the_undealt_cards_and_returns_the_old_hand_to_them(mulligan):
    game = new_game(mulligan, ["Ana", "Ben", "Cy"], 5)
    asked = {(d.seat, d.kind, d.options) for d in game.pending()}
    assert asked == {(s, "mulligan", ("keep", "mulligan")) for s in range(3)}
    hands, undealt = [letters(h) for h in game.places.hands], letters(game.places.leftover)
    assert len(undealt) == 28 - 3 * 7 == 7
    game.apply(0, "keep")
    game.apply(1, "mulligan")
    assert game.phase == "mulligan"  # Cy has not answered: nothing is redealt yet
    game.apply(2, "keep")
    # 7 undealt cards and a hand of 7: Ben's new hand is exactly the undealt cards, his old hand is undealt now
    assert letters(game.places.hands[1]) == undealt and letters(game.places.leftover) == hands[1]
    assert letters(game.places.hands[0]) == hands[0] and letters(game.places.hands[2]) == hands[2]
    assert {d.kind for d in game.pending()} == {"throw"}
    public = [e for e in game.events if e["type"] == "mulligan"]
    assert [(e["seat"], e["to"]) for e in public] == [(1, None)]
    told = [e for e in game.events if e["type"] == "hand" and e["seat"] == 1]
    assert told[-1]["to"] == 1 and set(told[-1]["cards"]) == undealt


def test_no_other_seat_ever_sees_the_old_or_the_new_hand(mulligan):
    game = new_game(mulligan, ["Ana", "Ben", "Cy"], 5)
    old = letters(game.places.hands[1])
    for seat, answer in ((0, "keep"), (1, "mulligan"), (2, "keep")):
        game.apply(seat, answer)
    new = letters(game.places.hands[1])
    for seat in (0, 2):
        view = game.view(seat)
        shown = set(view["hand"]) | {c for t in view["table"] for c in t["face_up"]}
        assert not shown & (old | new)
        events = {c for e in game.events_for(seat) for c in e.get("cards", ())}
        assert not events & (old | new)


def test_once_a_game_the_next_round_asks_only_those_who_kept(mulligan):
    game = new_game(mulligan, ["Ana", "Ben", "Cy"], 5)
    for seat, answer in ((0, "keep"), (1, "mulligan"), (2, "keep")):
        game.apply(seat, answer)
    bots = [make_bot("random", mulligan, agent_seed(5, s)) for s in range(3)]
    while game.round == 0:
        decision = game.pending()[0]
        game.apply(decision.seat, bots[decision.seat].decide(game.view(decision.seat), decision), decision.category)
    assert sorted(d.seat for d in game.pending() if d.kind == "mulligan") == [0, 2]


def test_four_players_leave_no_hand_undealt_and_the_mulligan_comes_after_the_deal(tmp_path):
    four = tmp_path / "four.yaml"
    four.write_text(f"extends: {PATH}\nid: four\nname: Four\nplayers: {{min: 2, max: 4}}\n")
    _, diagnostics = check_edition(four)
    [error] = [d for d in diagnostics if d.severity == "error"]
    assert error.code == "M335" and "4 players leave 0 of the 28" in error.message
    assert error.hint == "set `players: {max: 3}` (a whole hand left undealt)"
    early = tmp_path / "early.yaml"
    early.write_text(
        f"extends: {PATH}\nid: early\nname: Early\nflow:\n  round:\n    - mulligan:\n    - deal:\n    - throw:\n"
        "    - pick_and_pass:\n    - catch:\n    - choices:\n"
    )
    _, diagnostics = check_edition(early)
    assert [(d.code, d.message) for d in diagnostics if d.severity == "error"] == [
        ("M330", "'mulligan' cannot come before 'deal'")
    ]


def test_the_bots_rule_keeps_a_hand_with_groups_to_build_on(mulligan):
    # A-D are in Western Australia (3 beyond the first), E-G in the Northern Territory (2); icons shown twice:
    # Indigenous Culture (A, E), Kangaroos (B, C), Sightseeing (B, F), Shells (C, G): 4 more. 9 in all: keep.
    assert groups_in([mulligan.card(x) for x in "ABCDEFG"]) == 9
    assert mulligan_answer(mulligan, {"hand": list("ABCDEFG")}, None) == "keep"
    # A and D share their region only; A and H share nothing: 1 and 0, a mulligan
    assert groups_in([mulligan.card("A"), mulligan.card("D")]) == 1
    assert mulligan_answer(mulligan, {"hand": ["A", "H"]}, None) == "mulligan"


@pytest.mark.parametrize("kinds", [("greedy", "random", "random"), ("search", "greedy")])
def test_bots_play_it_through_and_a_log_replays_identically(tmp_path, kinds):
    log = tmp_path / "g.jsonl"
    arguments = ["run", str(PATH), "-p", str(len(kinds)), "--seed", "9", "-q", "--log", str(log),
                 "--search-rollouts", "8"]
    for kind in kinds:
        arguments += ["--seat", kind]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    assert '"mulligan"' in log.read_text()
    replayed = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert replayed.exit_code == 0 and "replay identically" in replayed.output, replayed.output


def test_a_human_at_the_terminal_keeps_or_takes_the_mulligan(tmp_path, monkeypatch):
    # the human answers x (refused), then m; the next question is the Throw, from the new hand; then the input
    # ends and the game is saved in the current folder
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", str(PATH), "-p", "2", "--seat", "human", "--seed", "3", "-q"],
                                input="x\nm\n")
    assert "Ana · round 1 of 4 · keep or mulligan" in result.output
    assert "'x' is not an option; type one of: k (keep), m (mulligan) (or its number)" in result.output
    assert "Throw card (face down)" in result.output.split("mulligan (a new hand")[-1]
    assert [p.name.startswith("boom-australia-mulligan-") for p in tmp_path.iterdir()] == [True]


def test_random_bots_play_whole_games(mulligan):
    for seed in range(5):
        game = play(new_game(mulligan, ["a", "b"], seed), [make_bot("random", mulligan, seed + s) for s in (0, 1)])
        assert game.over and len(game.history) == 4


def hands_and_undealt(game):
    places = game.places
    return [letters(h) for h in places.hands], letters(places.leftover)


def answer_all(game, takers) -> None:
    for seat in game.seats:
        game.apply(seat, "mulligan" if seat in takers else "keep")


def test_two_players_both_taking_one_draw_apart_from_each_others_returned_hand(mulligan):
    """Format 5 and after (a new game's, 6): Ana's new hand is 7 of the 14 undealt cards, Ben's the 7 others; neither
    holds a card of the other's returned hand, and the two returned hands are the undealt cards afterwards."""
    game = new_game(mulligan, ["Ana", "Ben"], 5)
    assert game.deal_version == 6
    (ana, ben), undealt = hands_and_undealt(game)
    assert len(undealt) == 14
    answer_all(game, {0, 1})
    (new_ana, new_ben), after = hands_and_undealt(game)
    assert len(new_ana) == len(new_ben) == 7 and new_ana | new_ben == undealt
    assert not new_ana & (ana | ben) and not new_ben & (ana | ben)
    assert after == ana | ben
    assert [e["seat"] for e in game.events if e["type"] == "mulligan"] == [0, 1]


@pytest.mark.parametrize("takers", [{0, 1}, {0, 1, 2}, {1, 2}])
def test_three_players_the_first_taker_draws_the_undealt_hand_the_others_keep_theirs(mulligan, takers):
    """With 3 players only 7 cards are undealt: the first taker in seat order draws them all; the hand it
    returned is not dealt again this round, so the later takers keep their own hands, their mulligan not used
    up, and are asked again next round."""
    game = new_game(mulligan, ["Ana", "Ben", "Cy"], 5)
    hands, undealt = hands_and_undealt(game)
    answer_all(game, takers)
    first = min(takers)
    after, left = hands_and_undealt(game)
    assert after[first] == undealt and left == hands[first]
    for seat in takers - {first}:
        assert after[seat] == hands[seat]
    assert [e["seat"] for e in game.events if e["type"] == "mulligan"] == [first]
    assert game.block_named("mulligan").taken == {first: 1}
    bots = [make_bot("random", mulligan, agent_seed(5, s)) for s in range(3)]
    while game.round == 0:
        decision = game.pending()[0]
        game.apply(decision.seat, bots[decision.seat].decide(game.view(decision.seat), decision), decision.category)
    assert sorted(d.seat for d in game.pending() if d.kind == "mulligan") == sorted({0, 1, 2} - {first})


def test_four_players_of_two_decks_three_and_four_takers_never_draw_a_returned_card(tmp_path):
    """Two decks (56 cards) and 4 players leave 28 undealt: every taker draws a whole new hand, none of them
    holding a card any taker returned."""
    path = tmp_path / "two-decks-mulligan.yaml"
    path.write_text(f"extends: {EDITIONS / 'variants' / 'australia-two-decks.yaml'}\nid: two-decks-mulligan\n"
                    "players: {min: 2, max: 4}\n"
                    "flow:\n  round: [deal: , mulligan: , throw: , pick_and_pass: , catch: , choices: ]\n")
    edition = load_edition(path)
    for takers in ({0, 1, 2}, {0, 1, 2, 3}):
        game = new_game(edition, ["Ana", "Ben", "Cy", "Dee"], 8)
        hands, undealt = hands_and_undealt(game)
        assert len(undealt) == 28
        answer_all(game, takers)
        after, left = hands_and_undealt(game)
        returned = set().union(*(hands[s] for s in takers))
        for seat in range(4):
            assert after[seat] == hands[seat] if seat not in takers else not after[seat] & returned
        assert set().union(*(after[s] for s in takers)) <= undealt and returned <= left
        assert len(left) == 28


def test_a_format_4_game_still_redeals_as_it_was_played(mulligan):
    """Files written in format 4 replay their mulligans as played then: the second taker with 3 players got the
    hand the first returned (the flaw format 5 mends)."""
    game = Game(mulligan, ["Ana", "Ben", "Cy"], 5, deal_version=4)
    hands, undealt = hands_and_undealt(game)
    answer_all(game, {0, 1})
    after, _ = hands_and_undealt(game)
    assert after[0] == undealt and after[1] == hands[0]


def test_boom_rules_says_no_new_hand_holds_a_returned_card():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert "the hands returned are set aside until every new hand is drawn, so no new hand holds a card returned " \
           "this round" in text


def test_once_per_game_n_lets_a_seat_take_n_mulligans_one_a_round(tmp_path):
    """`once_per_game: 2` (as a choice's): Ana takes a mulligan whenever asked, so she is asked in rounds 1 and
    2 only; Ben keeps, and is asked every round. `boom rules` says so."""
    twice = tmp_path / "twice.yaml"
    twice.write_text(f"extends: {PATH}\nid: twice\nname: Twice\nflow:\n  round:\n    - deal:\n"
                     "    - mulligan: {once_per_game: 2}\n    - throw:\n    - pick_and_pass:\n    - catch:\n"
                     "    - choices:\n")
    edition = load_edition(twice)
    game = new_game(edition, ["Ana", "Ben"], 5)
    asked = []
    while not game.over:
        decision = game.pending()[0]
        if decision.kind == "mulligan":
            asked.append((game.round + 1, decision.seat))
            game.apply(decision.seat, "mulligan" if decision.seat == 0 else "keep")
        else:
            game.apply(decision.seat, decision.options[0], decision.category)
    assert asked == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 1), (4, 1)]
    mulligans = [e["round"] for e in game.events if e["type"] == "mulligan"]
    assert mulligans == [1, 2]
    text = " ".join(CliRunner().invoke(main, ["rules", str(twice)]).output.split())
    assert "The hands returned then join the undealt cards; at most 2 times in the game, once a round." in text
    zero = tmp_path / "zero.yaml"
    zero.write_text(twice.read_text().replace("once_per_game: 2", "once_per_game: 0"))
    assert [d.severity for d in check_edition(zero)[1] if d.severity == "error"] == ["error"]
