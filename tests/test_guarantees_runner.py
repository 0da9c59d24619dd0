"""Issue #32: runner="reference" runs the reference interpreter everywhere it is asked for. The runner is chosen
when an edition's expressions are compiled (load_edition(path, runner=...)); the score sheet and every bot (the
greedy bot, the searching bots' rollouts through bots/backend.py) evaluate through program(edition), which is
the interpreter for such an edition, and the faster players that have their own code (the generated game, the
batch simulator) leave it to the engine."""

from __future__ import annotations

import dataclasses

import pytest
from edge_editions import counted_game, edge_sizes, edition_data, write
from shipped import shipped_that_load

from rulesengine import Game, load_edition
from rulesengine.bots.greedy import GreedyAgent
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.dsl.meter import METER
from rulesengine.game.loop import play
from rulesengine.game.program import program

SHIPPED = shipped_that_load()


def test_an_edition_cannot_be_copied_to_the_other_runner():
    """A copy with runner="reference" ran its generated expressions inside the reference program (the edge
    `cards` edition's game charged 35,898 steps so, 74,858 interpreted): refused, with what to do instead."""
    edition = load_edition(SHIPPED[0])
    with pytest.raises(ValueError, match=r"compiled for the compiled runner, not 'reference': load the edition "
                                         r"again with load_edition\(path, runner=\.\.\.\)"):
        dataclasses.replace(edition, runner="reference")
    interpreted = load_edition(SHIPPED[0], runner="reference")
    with pytest.raises(ValueError, match="compiled for the reference runner, not 'compiled'"):
        dataclasses.replace(interpreted, runner="compiled")
    assert dataclasses.replace(interpreted, name="Another").runner == "reference"   # other fields copy as before


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_reference_edition_is_interpreted_by_every_player(path):
    """Every expression is the interpreter's closure and the program is the interpreter's; the generated game
    and the batch simulator, which run code of their own, name the reference runner as why the engine plays
    it (the batch played a reference edition with its array code before)."""
    from rulesengine.compiled import fallback as generated_fallback
    from rulesengine.fast.plan import fallback as batch_fallback

    edition = load_edition(path, runner="reference")
    assert {e.run.runner for e in edition._scored_expressions()} == {"reference"}
    assert program(edition).runner == "reference"
    assert batch_fallback(edition) == "the reference runner (the batch plays its own array code)"
    assert generated_fallback(edition) is not None
    if generated_fallback(load_edition(path)) is None:   # else it names first what it has no form for
        assert generated_fallback(edition) == "the reference runner (the generated game calls the compiled program)"


def test_the_simulator_and_a_tournament_play_a_reference_edition_with_the_engine():
    from rulesengine.bots.tournament import played_by as tournament_played_by
    from rulesengine.simulate.batched import engine_reason

    edition = load_edition(SHIPPED[0].parent / "australia.yaml", runner="reference")
    random_seats, greedy_seats = ("random",) * 4, ("greedy",) * 4
    reason = "the batch does not play the reference runner (the batch plays its own array code)"
    assert engine_reason(edition, random_seats, 100_000) == reason
    assert engine_reason(edition, greedy_seats, 100_000) == reason
    assert tournament_played_by(edition, random_seats, 100_000).startswith(
        "the engine (the generated game does not play the reference runner")


def test_the_counted_game_of_an_edge_edition_is_the_reference_runners_game(tmp_path):
    """tests/edge_editions.counted_game (the per-game guarantee's count) charges what a game of the edition
    loaded with runner="reference" charges: 74,858 steps in the `cards` edition's game (35,898 before, the
    generated expressions run inside the reference program); the compiled program charges none there."""
    path = write(tmp_path, "cards", edition_data(**edge_sizes()["cards"], ident="cards"))
    players = load_edition(path).players_max
    before = METER.spent
    counted, _ = counted_game(load_edition(path), players, 1)
    in_counted = METER.spent - before
    charged = {}
    for runner in ("reference", "compiled"):
        edition = load_edition(path, runner=runner)
        before = METER.spent
        game = play(Game(edition, [f"P{seat}" for seat in range(players)], 1),
                    [GreedyAgent(agent_seed(1, seat), edition) for seat in range(players)])
        charged[runner] = METER.spent - before
        assert game.decisions == counted.decisions
    assert counted.edition.runner == "reference"
    assert in_counted == charged["reference"] == 74_858
    assert charged["compiled"] == 0


@pytest.mark.parametrize("kind", ["search", "blend", "ismcts"])
def test_the_searching_bots_rollouts_go_through_the_interpreter(kind):
    """The shipped base editions' generated program charges no step (dsl/meter.py); the interpreter charges
    every comprehension. A searching bot's first decision on Australia with the reference runner charges
    steps, so its rollouts (bots/backend.py) and estimates evaluate through the interpreter."""
    charged = {}
    for runner in ("compiled", "reference"):
        edition = load_edition(SHIPPED[0].parent / "australia.yaml", runner=runner)
        game = Game(edition, ["A", "B", "C", "D"], 5)
        decision = next(d for d in game.pending() if d.seat == 0)
        bot = make_bot(kind, edition, 7)
        before = METER.spent
        bot.decide(game.view(0), decision)
        charged[runner] = METER.spent - before
    assert charged["compiled"] == 0 < charged["reference"]


@pytest.mark.parametrize("name", ["australia", "europe"])
def test_the_search_bots_generated_pick_is_the_compiled_programs_alone(name):
    """The searching bots' rollouts take a seat's pick from the generated program where it has one
    (SeatValue.pick, bots/backend.py's lean worlds); the interpreter's seat value has none, so with the
    reference runner every rollout pick is worked out through the interpreter's values."""
    from rulesengine.bots.evaluate import standing_from_scores
    from rulesengine.game.scoring import ScoreKeeper

    picks = {}
    for runner in ("compiled", "reference"):
        edition = load_edition(SHIPPED[0].parent / f"{name}.yaml", runner=runner)
        standing = standing_from_scores(edition, ScoreKeeper(edition, ["Ana", "Ben", "Cy", "Dee"]))
        picks[runner] = [value.pick is not None for value in standing.values]
    assert picks == {"compiled": [True] * 4, "reference": [False] * 4}
