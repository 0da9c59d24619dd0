"""The ismcts bot: what it values (by hand), its budgets, and the worlds it samples (the view's cards kept)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from conftest import EDITIONS, position

from rulesengine import load_edition
from rulesengine.bots.determinize import round_sampler
from rulesengine.bots.evaluate import round_gains, standing_from_view
from rulesengine.bots.ismcts import IsmctsAgent, _round_spread, _Worth
from rulesengine.bots.playouts import LeanPlay, RoundPlayouts, packed
from rulesengine.bots.registry import make_bot
from rulesengine.bots.rollout import RoundPlay, greedy_pick


def worth(before, spread, me=0):
    value = _Worth.__new__(_Worth)
    value.me, value.value, value.before, value.spread = me, "win", before, spread
    value.low, value.high = math.inf, -math.inf
    return value


def test_the_last_round_is_valued_as_a_win_a_shared_win_or_nothing():
    last = worth([50, 48, 40], 0.0)
    assert last.scaled([5, 7, 3]) == 0.5    # 55 = 55 > 43: a win shared by two
    assert last.scaled([6, 7, 3]) == 1.0
    assert last.scaled([4, 7, 3]) == 0.0


def test_earlier_rounds_are_valued_by_the_normal_chance_to_stay_ahead():
    """Spread 10: a lead of 10 holds with Phi(1) = 0.841345, a tie with 1/2; both rivals: their product."""
    early = worth([30, 20, 30], 10.0)
    assert early.scaled([0, 0, 0]) == pytest.approx(0.8413447 * 0.5, abs=1e-6)
    assert (early.low, early.high) == (pytest.approx(0.4206724, abs=1e-6),) * 2


def test_the_spread_of_a_round_is_fixed_per_edition_and_positive(australia):
    assert _round_spread(australia, 4) == _round_spread(australia, 4) > 1


def test_an_iteration_budget_is_spent_exactly_and_replays(australia):
    game = position(australia, 4, 3, 3)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    bot = IsmctsAgent(9, australia, iterations=50)
    visits = bot.values(view, decision, random.Random(1))
    assert sum(int(v) for v in visits.values()) == 50   # one root visit an iteration (a tie-break below 1)
    assert set(visits) <= set(decision.options)
    assert bot.decide(view, decision) == IsmctsAgent(9, australia, iterations=50).decide(view, decision)


def test_a_deadline_already_past_drops_the_first_iteration_and_answers_as_the_greedy_bot(australia):
    """The deadline is checked at every pick of an iteration (allowance.Allowance), not only between iterations:
    until 2026-11-27 one iteration was always played to its end, however long (tests/test_think_deadline.py)."""
    game = position(australia, 4, 3, 3)
    decision = game.pending()[0]
    bot = IsmctsAgent(9, australia, iterations=None, think=1e-6)
    values = bot.values(game.view(decision.seat), decision, random.Random(1), deadline=0.0)
    assert sorted(values) == sorted(decision.options)   # the greedy bot's gains: one iteration visits one card


def test_the_sampled_worlds_keep_every_card_the_seat_has_seen(australia):
    game = position(australia, 4, 8, 3)
    seat = 1
    view = game.view(seat)
    sample = round_sampler(australia, view)
    for k in range(20):
        hands, drafts = sample(random.Random(k))
        assert [c.letter for c in hands[seat]] == list(view["hand"])
        for other in range(4):
            assert [c.letter for c in drafts[other][1:]] == list(view["table"][other]["face_up"])
        assert drafts[seat][0].letter == view["throw"]
        dealt = [c.letter for h in hands for c in h] + [c.letter for d in drafts for c in d]
        assert Counter(dealt).most_common(1)[0][1] == 1 and len(dealt) == 28   # 4 x 7: every card once


def test_the_bots_kinds_and_budgets(australia):
    assert make_bot("ismcts", australia, 1, iterations=7).iterations == 7
    with pytest.raises(ValueError, match="needs a budget"):
        IsmctsAgent(1, australia, iterations=None)
    with pytest.raises(ValueError, match="unknown value"):
        IsmctsAgent(1, australia, value="points")


def test_the_spread_is_kept_with_its_edition(australia):
    """Edition.kept, not a module dictionary keyed by id(edition) (which a later edition at a freed one's
    address would read): the spread measured once lives on the edition it was measured for, and another
    load of the same file measures its own."""
    spread = _round_spread(australia, 4)
    assert australia.kept(("round spread", 4), pytest.fail) == spread
    again = load_edition(EDITIONS / "australia.yaml")
    assert _round_spread(again, 4) == spread and again is not australia
    assert again.kept(("round spread", 4), pytest.fail) == spread


@pytest.mark.parametrize("edition_file, shared",
                         [("australia.yaml", False), ("europe.yaml", True), ("usa.yaml", False)])
@pytest.mark.parametrize("game_seed, picks", [(6, 1), (3, 4)])
def test_the_modelled_picks_are_the_greedy_picks(edition_file, shared, game_seed, picks):
    """Every seat has a generated pick in the shipped editions, so the model's picks come from it, keyed by the
    seat's hand and own cards taken, and where a category reads the other seats' cards (Europe's National
    Treasures) by their cards as the packed tally's int it counts: each is greedy_pick's card, in every seat of 60
    sampled worlds played to the round's end (early and late in a round), and the round's end is valued as
    round_gains values it (in Europe by the generated picks too)."""
    edition = load_edition(EDITIONS / edition_file)
    game = position(edition, 4, game_seed, picks)
    decision = game.pending()[0]
    view = game.view(decision.seat)
    standing = standing_from_view(edition, view)
    playouts = RoundPlayouts(edition, view, standing)
    assert playouts.pickers is not None and bool(standing.shared) is shared
    assert (playouts.icons is not None) is shared
    rng, checked = random.Random(2), 0
    for _ in range(60):
        play = playouts.sample(rng)
        while not play.over:
            picks = [playouts.pick(play, seat) for seat in range(4)]
            assert picks == [greedy_pick(standing, play, seat, None, 0) for seat in range(4)]
            checked += sum(len(hand) > 1 for hand in play.hands)
            play.step(picks)
        assert playouts.gains(play) == round_gains(standing, play.drafts)
    assert checked > 400


@pytest.mark.parametrize("edition_file, lean", [("europe.yaml", True), ("variants/europe-direction.yaml", True),
                                                ("variants/australia-catch-previous.yaml", False),
                                                ("variants/australia-zigzag.yaml", False),
                                                ("variants/usa-direction.yaml", False)])
def test_a_world_played_in_place_is_the_round_roundplay_plays(edition_file, lean):
    """Where a category reads the other seats' cards (Europe's National Treasures) and the round discards nothing, a
    sampled world is played in place (LeanPlay; elsewhere a RoundPlay, the same world made one here): after every
    pass its hands and cards taken are RoundPlay.step's for the same picks (the direction of the pass and of the
    Catch, zigzag and `catch: previous` included), and its packed ints and sites' masks those of its cards taken."""
    edition = load_edition(EDITIONS / edition_file)
    game = position(edition, 4, 5, 9)   # round 2 (directions cycle by round), a few picks in
    view = game.view(game.pending()[0].seat)
    playouts = RoundPlayouts(edition, view, standing_from_view(edition, view))
    assert playouts.lean is lean
    rng, passes = random.Random(4), 0
    for _ in range(12):
        if lean:
            play = playouts.sample(rng)
            assert type(play) is LeanPlay
        else:
            hands, drafts = playouts.sampler(rng)
            play = LeanPlay(playouts, hands, drafts, *packed(drafts, *playouts.packing))
        twin = RoundPlay(edition, playouts.round_index, play.hands, play.drafts)
        while not play.over:
            picks = playouts.picks(play, view["seat"])
            play.step(picks)
            twin.step(picks)
            assert (play.hands, play.drafts) == (twin.hands, twin.drafts)
            assert (play.ints, play.masks) == packed(play.drafts, *playouts.packing)
            passes += 1
        assert twin.over
    assert passes == 12 * (len(view["hand"]) - 1)
