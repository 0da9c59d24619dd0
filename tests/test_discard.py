"""Discards (issue #30): `pick_and_pass: {discards: [...]}`, keep one card and discard one each pass.

The shipped house rule australia-keep-one-discard-one.yaml plays it with two players: of 7 cards a
seat keeps its Throw, two drafts and the Catch (4), and discards 3, face up once each pass is played.
The round below is dealt by seed 3 and answered by hand; its score is worked out by hand from the
Australia rulebook (and checked against the hand scorer).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from handscorers import australia as hand_australia
from shipped import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.registry import make_bot
from rulesengine.bots.seeding import decision_rng
from rulesengine.edition.loader import check_edition
from rulesengine.edition.steps import PickAndPass
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "australia-keep-one-discard-one.yaml"


@pytest.fixture(scope="module")
def discard():
    return load_edition(PATH)


def letters(cards) -> list[str]:
    return [c.letter for c in cards]


def test_the_variant_keeps_four_cards_of_seven(discard):
    step = discard.round.step(PickAndPass)
    assert step.discards == (1, 1, 1) and step.kept_of(7) == 4
    assert PickAndPass(("left",)).kept_of(7) == 7
    assert PickAndPass(("left",), (2,), (1,)).kept_of(7) == 6  # 2 and a discard, then 1 + 1 + 1 and the Catch


def test_a_pass_asks_the_pick_then_the_discard_and_hides_both_until_the_pass(discard):
    game = Game(discard, ["Ana", "Ben"], 3)
    assert [letters(h) for h in game.places.hands] == [list("GZWYBFM"), list("KJO#XND")]
    game.apply(0, "G")
    assert [(d.seat, d.kind) for d in game.pending()] == [(0, "discard"), (1, "throw")]
    assert game.pending()[0].options == tuple("ZWYBFM")  # the Throw is no longer offered
    game.apply(0, "M")
    ben = game.view(1)
    assert all(t["discarded"] == [] for t in ben["table"]) and ben["table"][0]["throw_down"] is False
    shown = json.dumps({key: value for key, value in ben.items() if key not in ("edition", "players")})
    assert '"M"' not in shown and '"G"' not in shown  # Ana's Throw and discard wait, unseen, for the pass
    game.apply(1, "K")
    game.apply(1, "D")
    ana = game.view(0)
    assert [t["discarded"] for t in ana["table"]] == [["M"], ["D"]]
    assert ana["hand"] == list("JO#XN") and game.view(1)["hand"] == list("ZWYBF")
    assert [t["hand_size"] for t in ana["table"]] == [5, 5]
    public = [e for e in game.events_for(None) if e["type"] == "discard"]
    assert [(e["seat"], e["card"]) for e in public] == [(0, "M"), (1, "D")]


def play_round_one(game) -> None:
    for seat, answer in ((0, "G"), (0, "M"), (1, "K"), (1, "D"), (0, "J"), (0, "N"), (1, "Z"), (1, "F"),
                         (0, "W"), (0, "B"), (1, "O"), (1, "X")):
        game.apply(seat, answer)


def test_a_round_scored_by_hand(discard):
    """Ana keeps G (Throw, 4), J, W and # (Catch, 7), choosing Swimming; Ben keeps K (Throw, 6), Z, O and Y
    (Catch, 7), choosing Bushwalking. Ana: Throw & Catch |4 - 7| = 3; Shells G + W = 3 + 3 = 6, doubled (7 or
    less) = 12; a pair of Kangaroos (J, #) = 3; Swimming on 2 cards = 2: 20. Ben: |6 - 7| = 1; Souvenirs 5 +
    Leaves 1 = 6, doubled = 12; no pair of animals = 0; Bushwalking on 2 = 2: 15. No region is complete; the
    sites (4 each) are counted at game end."""
    game = Game(discard, ["Ana", "Ben"], 3)
    play_round_one(game)
    assert [letters(d) for d in game.places.drafts] == [list("GJW#"), list("KZOY")]
    assert [letters(d) for d in game.places.discarded] == [list("MNB"), list("DFX")]
    game.apply(0, "Swimming", "activities")
    game.apply(1, "Bushwalking", "activities")
    rounds = [p["rounds"][0] for p in game.scores.sheet()["players"]]
    assert rounds[0] == {"throw_catch": 3, "collections": 12, "animals": 3, "activities": 2, "regions": 0}
    assert rounds[1] == {"throw_catch": 1, "collections": 12, "animals": 0, "activities": 2, "regions": 0}
    assert [p["total"] for p in game.scores.sheet()["players"]] == [20, 15]


def test_boom_score_reads_a_record_of_four_cards_a_round(discard, tmp_path):
    """A record of this variant holds 4 cards a seat a round (7 dealt, 3 discarded): `boom score` reads it."""
    game = play(Game(discard, ["Ana", "Ben"], 2), [make_bot("random", discard, s) for s in (4, 5)])
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game.record()))
    scored = CliRunner().invoke(main, ["score", str(PATH), "--record", str(record), "--format", "json"])
    assert scored.exit_code == 0, scored.output
    assert [p["total"] for p in json.loads(scored.output)["players"]] == \
        [p["total"] for p in game.scores.sheet()["players"]]
    short = dict(game.record(), rounds=[dict(r) for r in game.record()["rounds"]])
    short["rounds"][0] = dict(short["rounds"][0], drafts=dict(short["rounds"][0]["drafts"], Ana=["A", "B", "C"]))
    record.write_text(json.dumps(short))
    refused = CliRunner().invoke(main, ["score", str(PATH), "--record", str(record)])
    assert refused.exit_code != 0 and "round 1, Ana: 3 cards, but a seat drafts 4 a round" in refused.output


def test_whole_games_agree_with_the_hand_scorer(discard):
    """A discard changes what is kept, never how it scores: the Australia hand scorer gives the same sheet."""
    for seed in range(6):
        game = play(Game(discard, ["Ana", "Ben"], seed), [make_bot("random", discard, seed * 2 + s) for s in (0, 1)])
        record = game.record()
        assert all(len(cards) == 4 for entry in record["rounds"] for cards in entry["drafts"].values())
        sheet = game.scores.sheet()
        assert {key: sheet[key] for key in ("players", "winners")} == hand_australia.score(record)


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games_keeping_four_cards_a_round(discard, kind):
    for seed in (1, 2):
        game = play(Game(discard, ["a", "b"], seed), [make_bot(kind, discard, seed * 10 + s) for s in (0, 1)])
        assert game.over and len(game.history) == 4
        assert all(len(cards) == 4 for entry in game.history for cards in entry["drafts"].values())


def test_the_greedy_bot_discards_what_it_would_least_take(discard):
    """At Ana's first discard (after throwing G) the greedy bot's gains rank the hand; it discards the lowest."""
    game = Game(discard, ["Ana", "Ben"], 3)
    game.apply(0, "G")
    bot = make_bot("greedy", discard, 7)
    decision = game.pending()[0]
    gains = bot.gains(game.view(0), decision, decision_rng(bot.seed, game.view(0), decision, bot.seeding, discard))
    assert bot.decide(game.view(0), decision) == min(decision.options, key=gains.__getitem__)


def test_passes_that_discard_more_than_the_hand_holds_are_one_error(tmp_path):
    path = tmp_path / "too-many.yaml"
    path.write_text(f"extends: {PATH}\nid: too-many\nflow:\n  round:\n    - deal:\n    - throw:\n"
                    "    - pick_and_pass: {discards: [2, 2, 1]}\n    - catch:\n    - choices:\n")
    _, diagnostics = check_edition(path)
    problems = [d for d in diagnostics if d.severity == "error"]
    assert [(d.code, d.message) for d in problems] == [
        ("M333", "the passes take and discard 3 + 3 + 2 = 8 cards, but a hand of 7 leaves 6 before the Catch")]
    assert problems[0].span.line == 7


def test_boom_rules_says_the_discards():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert ("Discards: after keeping their cards, every player discards 1 on pass 1, 1 on pass 2, 1 on pass 3, "
            "from the hand, before it passes on") in text


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_the_search_bots_rollouts_discard_as_the_round_does(discard, policy):
    """A rollout (bots/rollout.py) from a sampled world at Ana's first draft plays the passes with their
    discards: every seat ends the round with 4 cards (the Throw, 2 drafts, the Catch), all different and
    all dealt, not the 7 of a round without discards."""
    import random

    from rulesengine.bots.determinize import from_view
    from rulesengine.bots.evaluate import standing_from_view
    from rulesengine.bots.rollout import RoundPlay, play_out

    game = Game(discard, ["Ana", "Ben"], 5)
    while not any(d.kind == "draft" and d.seat == 0 for d in game.pending()):   # the Throws, the first discards
        decision = game.pending()[0]
        game.apply(decision.seat, decision.options[0], decision.category)
    view = game.view(0)
    rng = random.Random(2)
    world = RoundPlay.from_game(from_view(discard, view, rng, scored=False))
    play_out(standing_from_view(discard, view), world, {}, rng, policy, 0)
    assert [len(cards) for cards in world.drafts] == [4, 4]
    taken = [c for cards in world.drafts for c in cards]
    assert len(set(taken)) == 8 and set(taken) <= set(world.dealt)
