"""The searching bots' step budget (#32, bots/allowance.py): on an edition whose evaluations are expensive, the
search, ismcts and blend bots play fewer worlds a decision, stopped by the evaluation steps it spent (never a
clock), so a decision is bounded and the same on every run; on the shipped editions no decision comes near it.

The bound a decision keeps: SEARCH_STEPS, plus what is under way when the allowance is found spent (one greedy
pick: a hand's cards valued, and the round's end: every seat's hand valued), plus one greedy decision (the blend
bot's greedy estimate, or the greedy answer when not one world was played out), each at most its edition's
guarantee (edition/guarantee.py: value_work a hand, decision_work a greedy decision).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from edge_editions import dense_data, write

from rulesengine import Game, load_edition
from rulesengine.bots.allowance import SEARCH_STEPS
from rulesengine.bots.backend import CompiledRollouts
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.dsl.meter import METER
from rulesengine.game.loop import play

ROOT = Path(__file__).resolve().parent.parent
SEARCHING = ("search", "ismcts", "blend", "guided")
PLAYERS = 4


@pytest.fixture(scope="module")
def dense(tmp_path_factory):
    return load_edition(write(tmp_path_factory.mktemp("dense"), "dense", dense_data()))


def first_decision(edition) -> tuple[dict, object]:
    """Seat 0's first decision (its Throw, seven cards) of a 4-player game, seed 1."""
    game = Game(edition, [f"P{seat}" for seat in range(PLAYERS)], 1)
    decision = next(d for d in game.pending() if d.seat == 0)
    return game.view(0), decision


def most_steps(edition, steps: int) -> int:
    guarantee = edition.guarantee
    return steps + (edition.hand_size + PLAYERS) * guarantee.value_work + guarantee.decision_work


def decided(kind: str, edition, view: dict, decision, **options) -> tuple[object, int]:
    """The bot's answer and the steps it charged."""
    before = METER.spent
    answer = make_bot(kind, edition, agent_seed(1, 0), **options).decide(view, decision)
    return answer, METER.spent - before


def test_the_dense_edition_validates_with_the_work_edges_guarantee(dense):
    """Its costly category charges 98 + 98 x 98 = 9,702 steps at every evaluation; the validator's worst case
    of a hand is 71,998 steps and a greedy decision samples 3 worlds of 3 orders (4,535,874 steps at most)."""
    guarantee = dense.guarantee
    assert (guarantee.value_work, guarantee.samples, guarantee.completions) == (71_998, 3, 3)
    assert guarantee.decision_work == 3 * 3 * 7 * 71_998 == 4_535_874


@pytest.mark.slow
@pytest.mark.parametrize("kind", SEARCHING)
def test_a_searching_decision_on_an_expensive_edition_stops_at_its_default_step_budget(dense, kind):
    """The default budget binds: a decision spends SEARCH_STEPS (20,000,000) and a little more, where its
    rollouts alone would spend far more (search: 40 worlds x 4 options, 138,952,044 steps, measured)."""
    view, decision = first_decision(dense)
    answer, spent = decided(kind, dense, view, decision)
    assert answer in decision.options
    assert SEARCH_STEPS < spent <= most_steps(dense, SEARCH_STEPS)


@pytest.mark.parametrize("kind", SEARCHING)
def test_a_searching_decision_with_a_step_budget_is_bounded_and_the_same_every_time(dense, kind):
    view, decision = first_decision(dense)
    runs = [decided(kind, dense, view, decision, steps=5_000_000) for _ in range(2)]
    assert runs[0] == runs[1]   # the same answer and the same steps: a budget in steps, not a clock
    answer, spent = runs[0]
    assert answer in decision.options
    assert 5_000_000 < spent <= most_steps(dense, 5_000_000)


def test_the_search_bot_plays_fewer_worlds_within_its_steps(dense, monkeypatch):
    """160 rollouts over the greedy bot's 4 favourite options: 40 worlds; 5,000,000 steps end the search sooner,
    and the world under way is dropped (one started more than were averaged)."""
    started = []
    real = CompiledRollouts.world
    monkeypatch.setattr(CompiledRollouts, "world", lambda *args, **kw: started.append(1) or real(*args, **kw))
    view, decision = first_decision(dense)
    bot = make_bot("search", dense, agent_seed(1, 0), steps=5_000_000)
    searched = bot.searched(view, decision, random.Random(5))
    assert len(searched) == 4 and 1 < len(started) < 40


def test_the_ismcts_bot_runs_fewer_iterations_within_its_steps(dense):
    """Its values are visits at the root (plus a fraction): their whole parts add up to the iterations done."""
    view, decision = first_decision(dense)
    bot = make_bot("ismcts", dense, agent_seed(1, 0), steps=5_000_000)
    visits = sum(int(value) for value in bot.values(view, decision, random.Random(5)).values())
    assert 1 < visits < 400


@pytest.mark.parametrize("kind", SEARCHING)
def test_with_no_world_played_out_a_searching_bot_answers_as_the_greedy_bot_values(dense, kind):
    """One step: the allowance is spent at the first greedy pick of the first world; the bot answers from the
    greedy bot's gains (for ismcts, values over every option instead of root visits)."""
    view, decision = first_decision(dense)
    answer, spent = decided(kind, dense, view, decision, steps=1)
    assert answer in decision.options
    assert spent <= most_steps(dense, 1) + dense.guarantee.decision_work
    if kind == "ismcts":
        values = make_bot(kind, dense, agent_seed(1, 0), steps=1).values(view, decision, random.Random(5))
        assert set(values) == set(decision.options) and all(int(value) != value for value in values.values())


def test_a_step_budget_below_one_is_refused(dense):
    for kind in SEARCHING:
        with pytest.raises(ValueError, match="at least 1, not 0"):
            make_bot(kind, dense, 1, steps=0)


@pytest.mark.parametrize("kind", SEARCHING)
def test_a_shipped_variant_that_charges_steps_plays_the_same_game_with_and_without_the_budget(kind):
    """australia-europe charges steps in its generated program (the base editions charge none): a 2-player game
    with the searching bot at seat 0 spends at most a tenth of SEARCH_STEPS a decision, and its decisions
    are those of the same bot with no step limit."""
    edition = load_edition(ROOT / "editions" / "variants" / "australia-europe.yaml")
    spent = []

    class Counted:
        lazy_view = True

        def __init__(self, bot):
            self.bot = bot

        def decide(self, view, decision):
            before = METER.spent
            answer = self.bot.decide(view, decision)
            spent.append(METER.spent - before)
            return answer

    games = []
    for steps in (SEARCH_STEPS, None):
        seats = [Counted(make_bot(kind, edition, agent_seed(1, 0), steps=steps))]
        seats.append(make_bot("greedy", edition, agent_seed(1, 1)))
        games.append(play(Game(edition, ["Ana", "Ben"], 1), seats))
    assert games[0].decisions == games[1].decisions
    assert 0 < max(spent) < SEARCH_STEPS // 10


def test_the_claims_search_of_the_2010_game_stops_at_its_steps_and_then_claims_as_the_greedy_bot(tmp_path):
    """The 2010 game with a game-end category that goes through the deck (54 steps an evaluation, every sheet a
    rollout works out): seat 0's first claim searched in full charges some 4,000,000 steps and claims Desert; with
    200,000 steps it stops there, and with one step not a position is played out, so it claims as the greedy bot
    does (River)."""
    from rulesengine.edition.steps import CLAIM
    from rulesengine.game.blocks import round_plan

    house = tmp_path / "heavy.yaml"
    house.write_text(f"extends: {ROOT / 'editions' / 'boomerang-2010.yaml'}\nid: heavy-2010\ncategories:\n"
                     "  - {key: heavy, title: Heavy, when: game_end,\n"
                     "     score: 'len([c for c in deck if c in deck]) // 100'}\n")
    edition = load_edition(house)
    game = Game(edition, ["Ana", "Ben", "Cy"], 4)
    decision = next(d for d in game.pending() if round_plan(edition).asks[d.kind].effect == CLAIM and d.seat == 0)
    view = game.view(0)
    full, budget, none = (decided("search", edition, view, decision, steps=steps) for steps in (None, 200_000, 1))
    assert full[0] == "Desert" and full[1] > 20 * 200_000
    assert 200_000 < budget[1] < 2 * 200_000
    assert none[0] == make_bot("greedy", edition, agent_seed(1, 0)).decide(view, decision) == "River"
    assert none[1] < 200_000
