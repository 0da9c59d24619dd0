"""The search bot's compiled rollouts (bots/backend.CompiledRollouts) and array lanes (bots/lanes.LaneRollouts)
against the engine's (EngineRollouts, the oracle): the same worlds, the same margins option by option, the same
steps charged, the same decisions."""

from __future__ import annotations

import gc
import random

import pytest
from edge_editions import dense_data, write
from shipped import shipped_that_load

from rulesengine import Game, load_edition
from rulesengine.bots.backend import CompiledRollouts, EngineRollouts
from rulesengine.bots.determinize import from_view, world_sampler
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.bots.rollout import RoundPlay
from rulesengine.dsl.meter import METER
from rulesengine.edition.steps import BID, CLAIM, DECLARE, DISCARD, REDRAW, SCORE
from rulesengine.game.blocks import round_plan

NOT_SEARCHED = (REDRAW, CLAIM, BID, DECLARE, DISCARD, SCORE)   # answered without rollouts
PATHS = shipped_that_load()


def searched_positions(edition, players: int, seed: int, rounds: int = 2) -> list:
    """Seat 0's views and decisions that the search bot answers with rollouts, in the first `rounds` rounds of a
    game of greedy bots."""
    game = Game(edition, [f"P{seat}" for seat in range(players)], seed, events=False)
    agents = [make_bot("greedy", edition, agent_seed(seed, seat)) for seat in range(players)]
    asks = round_plan(edition).asks
    found = []
    while not game.over and game.round < rounds:
        for decision in game.pending():
            view = game.view(decision.seat, lazy=True)
            if (decision.seat == 0 and len(decision.options) > 1 and decision.kind in asks
                    and asks[decision.kind].effect not in NOT_SEARCHED):
                found.append((view, decision))
            game.apply(decision.seat, agents[decision.seat].decide(view, decision), decision.category)
    return found


def both(edition, view, decision, seed: int, backends=("engine", "compiled"), **options) -> list:
    """Each backend's searched values and the steps it charged, from the same generator."""
    out = []
    for backend in backends:
        bot = make_bot("search", edition, agent_seed(seed, 0), rollouts_by=backend, **options)
        before = METER.spent
        values = bot.searched(view, decision, random.Random(seed))
        out.append((values, METER.spent - before))
    return out


def players_of(edition) -> int:
    return min(4, edition.players_max)


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_the_compiled_rollouts_give_the_engines_margins_in_every_shipped_edition(path):
    """Every searched decision of seat 0 in two rounds of a greedy game: every option's mean margin is the
    engine's to the last bit, and so are the steps charged."""
    edition = load_edition(path)
    positions = searched_positions(edition, players_of(edition), 3)
    if round_plan(edition).index.get("pick_and_pass") is None:
        assert not positions   # no drafting round: nothing searched by rollouts (the 2010 game's claims)
        pytest.skip("no drafting round")
    assert positions
    for number, (view, decision) in enumerate(positions):
        engine, compiled, lanes = both(edition, view, decision, number, ("engine", "compiled", "lanes"), rollouts=24)
        assert compiled == engine and lanes == engine
        assert set(compiled[0]) <= set(decision.options) and compiled[0]


@pytest.mark.parametrize("name", ["australia", "usa"])
def test_the_lanes_give_the_compiled_margins_at_the_default_budget_over_many_decisions(name):
    """Every searched decision of seat 0 in the three rounds of greedy games of 3 seeds, the default budget (160
    rollouts over the greedy bot's 4 favourites), played as array lanes: every option's mean margin is the compiled
    backend's to the last bit (the lanes played every one: their rollouts_used)."""
    edition = load_edition(f"editions/{name}.yaml")
    decisions = 0
    for seed in (3, 4, 5):
        for number, (view, decision) in enumerate(searched_positions(edition, 4, seed, rounds=3)):
            values = []
            for backend in ("compiled", "lanes"):
                bot = make_bot("search", edition, agent_seed(seed, 0), rollouts_by=backend)
                values.append(bot.searched(view, decision, random.Random(1000 * seed + number)))
            assert values[1] == values[0] and bot.rollouts_used == "lanes"
            decisions += 1
    assert decisions >= 50


@pytest.mark.parametrize("name", ["australia", "europe", "usa"])
def test_a_search_bot_plays_the_same_game_by_either_backend(name):
    """Whole games, the search bot at its default budget in seat 0: the same answers, decision by decision."""
    edition = load_edition(f"editions/{name}.yaml")
    games = []
    for backend in ("engine", "compiled", "lanes"):
        game = Game(edition, ["Ana", "Ben", "Cy", "Dee"], 7, events=False)
        agents = [make_bot("search", edition, agent_seed(7, 0), rollouts_by=backend)]
        agents += [make_bot("greedy", edition, agent_seed(7, seat)) for seat in range(1, 4)]
        while not game.over and game.round < 2:
            for decision in game.pending():
                answer = agents[decision.seat].decide(game.view(decision.seat, lazy=True), decision)
                game.apply(decision.seat, answer, decision.category)
        games.append(game.decisions)
    assert games[0] == games[1] == games[2] and len(games[0]) > 50


@pytest.mark.parametrize("name", ["australia", "europe"])
@pytest.mark.parametrize("options", [{"policy": "random"}, {"completions": 1}, {"rivals": "max", "width": None}])
def test_the_other_rollout_policies_give_the_same_margins(name, options):
    """A random rollout policy and greedy completions are played by play_out in both: the worlds still dealt
    without a Game by the compiled backend, the same."""
    edition = load_edition(f"editions/{name}.yaml")
    for number, (view, decision) in enumerate(searched_positions(edition, 3, 5, rounds=1)[:4]):
        engine, compiled = both(edition, view, decision, number, rollouts=12, **options)
        assert compiled == engine


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_a_world_is_dealt_with_the_draws_of_from_views_game(path):
    """determinize.world_sampler: the hands and cards taken of from_view's game, and the generator left where
    from_view leaves it (the rollouts' seed drawn next is the same)."""
    edition = load_edition(path)
    positions = searched_positions(edition, players_of(edition), 11, rounds=1)
    if not positions:
        pytest.skip("no drafting round")
    dealt = 0
    for number, (view, _) in enumerate(positions):
        sampler = world_sampler(edition, view)
        if sampler is None:
            assert view["phase"] not in ("throw", "draft") or view.get("picked")
            continue
        engine_rng, compiled_rng = random.Random(number), random.Random(number)
        for _ in range(3):
            world = RoundPlay.from_game(from_view(edition, view, engine_rng, scored=False))
            hands, drafts = sampler(compiled_rng)
            assert (hands, drafts) == (world.hands, world.drafts)
            assert engine_rng.getstate() == compiled_rng.getstate()
            dealt += 1
    assert dealt


def test_on_an_expensive_edition_the_step_budget_stops_both_backends_at_the_same_pick(tmp_path):
    """The dense edge edition charges steps at every evaluation: the compiled backend then works picks out as
    play_out does, so a budget of 5,000,000 steps ends the search after the same worlds, with the same values
    and the same steps charged; and a world of the decision's memo charges what working it out charged."""
    dense = load_edition(write(tmp_path, "dense", dense_data()))
    game = Game(dense, [f"P{seat}" for seat in range(4)], 1)
    decision = next(d for d in game.pending() if d.seat == 0)
    view = game.view(0)
    started = []
    real = CompiledRollouts.world
    try:
        CompiledRollouts.world = lambda *args: started.append(1) or real(*args)
        engine, compiled = both(dense, view, decision, 1, steps=5_000_000)
    finally:
        CompiledRollouts.world = real
    assert compiled == engine
    assert len(compiled[0]) == 4 and 5_000_000 < compiled[1] and 1 < len(started) < 40


def test_an_unknown_rollout_backend_is_refused():
    edition = load_edition("editions/australia.yaml")
    with pytest.raises(ValueError, match="unknown rollout backend 'numpy'"):
        make_bot("search", edition, 1, rollouts_by="numpy")


def test_a_compiled_decision_plays_its_worlds_with_the_collector_paused_and_leaves_it_as_it_found_it():
    """CompiledRollouts.playing: the cyclic garbage collector off while the worlds are played, then as the caller
    had it (on, or off); the engine's worlds are played with it as it is."""
    edition = load_edition("editions/australia.yaml")
    view, decision = searched_positions(edition, 4, 3, rounds=1)[0]
    seen: dict = {"compiled": [], "engine": []}
    plays = {"compiled": CompiledRollouts.play, "engine": EngineRollouts.play}
    try:
        for kind, cls in (("compiled", CompiledRollouts), ("engine", EngineRollouts)):
            cls.play = lambda self, *args, kind=kind: seen[kind].append(gc.isenabled()) or plays[kind](self, *args)
        for on in (True, False):
            (gc.enable if on else gc.disable)()
            try:
                for kind in ("compiled", "engine"):
                    bot = make_bot("search", edition, agent_seed(3, 0), rollouts_by=kind, rollouts=24)
                    bot.searched(view, decision, random.Random(1))
                    assert gc.isenabled() is on
            finally:
                gc.enable()
    finally:
        CompiledRollouts.play, EngineRollouts.play = plays["compiled"], plays["engine"]
    assert len(seen["compiled"]) == len(seen["engine"]) >= 12 and not any(seen["compiled"])
    assert seen["engine"] == [True] * (len(seen["engine"]) // 2) + [False] * (len(seen["engine"]) // 2)
