"""The generated whole game plays the engine's games: the same seeds give the same decisions and sheets.

rulesengine/compiled writes an edition's bot-only game as one Python function from the compiled
forms of its round's blocks and its scoring program; the engine is its oracle. Every shipped
edition and variant at every player count it seats, over many seeds: every decision (seat, answer,
category, in the order the engine applied them) and the whole score sheet (every round line, the
game-end lines, totals, ranking, tie-break) are the engine's (variants in the slow suite). An
edition with a block that has no compiled form is named as a fallback, the block named, and the
engine plays it.
"""

from __future__ import annotations

import pytest
from conftest import EDITIONS

from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.compiled import Unsupported, fallback, generated, play_random
from rulesengine.game.loop import play
from rulesengine.game.scoring import ScoringError

SHIPPED = sorted(EDITIONS.glob("*.yaml")) + sorted((EDITIONS / "variants").glob("*.yaml"))
# the shipped editions the engine plays instead, and what the generated game names as the reason
FALLBACKS = {
    "australia-ghost-third": "ghost hands (they draw from the game's generator as they go)",
    "australia-keep-one-discard-one": "discards",
    "australia-mulligan": "blocks without a compiled form: mulligan",
    "australia-two-at-once": "passes of several cards",
    "boomerang-2010": "blocks without a compiled form: reveal, secret_choice, bidding, claim",
    "boomerang-2010-runner-up": "blocks without a compiled form: reveal, secret_choice, bidding, claim",
    "australia-declared-activity": "blocks without a compiled form: secret_choice",
    "australia-public-goals": "blocks without a compiled form: goals",
    "boomerang-2010-double-throw": "blocks without a compiled form: reveal, secret_choice, bidding, claim",
}
SEEDS = [*range(60), 10**12 + 7, 2**64 - 3, 2**70 + 5]   # the last two: bots' seeds past 64 bits
NAMES = ["P1", "P2", "P3", "P4", "P5", "P6"]


class Counted:
    """A random bot that notes how many options each decision it answers had (in the order answered)."""

    reads_view = False

    def __init__(self, seed: int, counts: list):
        self.bot, self.counts = RandomAgent(seed), counts

    def decide(self, view, decision):
        self.counts.append(len(decision.options))
        return self.bot.decide(view, decision)


def engine_game(edition, players: int, seed: int, counts: list | None = None):
    counts = [] if counts is None else counts
    return play(Game(edition, NAMES[:players], seed, events=False),
                [Counted(agent_seed(seed, s), counts) for s in range(players)])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_generated_game_plays_the_engines_games(path):
    edition = load_edition(path)
    reason = fallback(edition)
    if path.stem in FALLBACKS:
        assert reason == FALLBACKS[path.stem]
        with pytest.raises(Unsupported):
            generated(edition, edition.players_min)
        played = play_random(edition, NAMES[:edition.players_min], 3, record=True)
        assert played.engine
        n = edition.players_min
        game = play(Game(edition, NAMES[:n], 3, events=False), [RandomAgent(agent_seed(3, s), edition)
                                                                for s in range(n)])
        assert played.decisions == game.decisions
        assert played.record == game.record()
        return
    assert reason is None
    for players in range(edition.players_min, min(edition.players_max, len(NAMES)) + 1):
        for seed in SEEDS:
            counts: list = []
            game, played = engine_game(edition, players, seed, counts), play_random(edition, NAMES[:players], seed,
                                                                                    record=True)
            assert not played.engine
            assert played.decisions == game.decisions, (players, seed)
            assert played.offered == counts, (players, seed)
            assert played.record == game.record(), (players, seed)
            assert played.scores.sheet() == game.scores.sheet(), (players, seed)
            assert played.scores.winners() == game.scores.winners()


def test_an_australia_game_as_recorded():
    """Seed 1, four seats: the first pass, the first round's choices and the totals, as the engine played them
    when this was written (its fingerprints hold the engine to them; bench/handwritten gives the same)."""
    edition = load_edition(EDITIONS / "australia.yaml")
    played = play_random(edition, NAMES[:4], 1, record=True)
    assert played.decisions[:4] == [[0, "@", None], [1, "A", None], [2, "V", None], [3, "C", None]]
    assert [d[1] for d in played.decisions if d[2] == "activities"][:4] == [
        "Swimming", "Sightseeing", "Swimming", "Bushwalking"]
    assert [played.scores.total(s) for s in range(4)] == [115, 83, 101, 99]
    assert played.scores.winners() == [0]


def test_a_seat_plays_the_bot_it_is_given():
    """bots: seat s plays the bot seeded for seat (s + 1) % 3, as a simulation's rotation does."""
    edition = load_edition(EDITIONS / "australia.yaml")
    for seed in range(10):
        game = play(Game(edition, NAMES[:3], seed, events=False),
                    [RandomAgent(agent_seed(seed, (s + 1) % 3)) for s in range(3)])
        played = play_random(edition, NAMES[:3], seed, [(s + 1) % 3 for s in range(3)], record=True)
        assert played.decisions == game.decisions
        assert played.scores.sheet() == game.scores.sheet()


def test_a_game_whose_scoring_fails_is_played_by_the_engine(tmp_path):
    """A house rule that divides by zero in some games: those are played again by the engine, which raises
    its located error; every other game is generated and is the engine's."""
    rule = tmp_path / "odd.yaml"
    rule.write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: odd\nname: Odd\ncategories:\n"
                    "  - key: odd\n    title: Odd\n    description: Ten over the kangaroos less three.\n"
                    "    score: 10 // (count('Kangaroos', cards) - 3)\n", encoding="utf-8")
    edition = load_edition(rule)
    assert fallback(edition) is None
    failed = 0
    for seed in range(40):
        try:
            game = engine_game(edition, 4, seed)
        except ScoringError as exc:
            failed += 1
            with pytest.raises(ScoringError) as raised:
                play_random(edition, NAMES[:4], seed)
            assert str(raised.value) == str(exc)
            continue
        played = play_random(edition, NAMES[:4], seed, record=True)
        assert not played.engine
        assert played.scores.sheet() == game.scores.sheet()
    assert 0 < failed < 40


def test_a_tournament_of_random_seats_is_played_by_the_generated_game_and_says_so():
    """The same wins and points as the engine gives game by game, and the output names who played; a line-up
    with another bot, or an edition with a block without a compiled form, is played by the engine, named."""
    from rulesengine.bots.tournament import GENERATED, play_one, run_tournament

    path = EDITIONS / "australia.yaml"
    kinds = ("random",) * 3
    result = run_tournament(str(path), kinds, 200, seed=4)
    assert result.played_by == GENERATED
    assert result.as_dict()["played_by"] == GENERATED
    edition = load_edition(path)
    by_engine = [play_one(edition, kinds, number, 4, {}, generated=False) for number in range(200)]
    assert [e.wins for e in result.entries] == [sum(r[0][i] for r in by_engine) for i in range(3)]
    assert [e.points for e in result.entries] == [sum(r[1][i] for r in by_engine) for i in range(3)]
    assert run_tournament(str(path), kinds, 199).played_by == (
        "the engine (199 games: the generated game pays for its compiling from 200)")
    assert run_tournament(str(EDITIONS / "variants" / "australia-mulligan.yaml"), kinds, 200).played_by == (
        "the engine (the generated game does not play blocks without a compiled form: mulligan)")
    assert run_tournament(str(path), ("random", "greedy"), 2).played_by == (
        "the engine (the generated game plays random seats only, and the line-up has greedy)")


@pytest.mark.parametrize("name", ["australia.yaml", "europe.yaml", "usa.yaml"])
def test_a_fresh_sheet_is_the_one_scorekeeper_makes(name):
    """compiled/sheet.py makes the engine's ScoreKeeper for less: every field as ScoreKeeper.__init__ sets it,
    none of a game's fields shared with another sheet."""
    from rulesengine.compiled.sheet import sheet_maker
    from rulesengine.game.scoring import ScoreKeeper

    edition = load_edition(EDITIONS / name)
    maker = sheet_maker(edition, 3)
    assert maker.copies
    one, two = maker.fresh(NAMES[:3]), maker.fresh(NAMES[:3])
    assert vars(one) == vars(ScoreKeeper(edition, NAMES[:3]))
    for field in ("rounds", "used_choices", "_chosen", "races", "_last_drafts", "players"):
        assert getattr(one, field) is not getattr(two, field)


def test_a_generated_game_that_fails_where_the_engine_does_not_is_an_internal_error(monkeypatch):
    """A bug in the generated code never falls back silently (it would show only as lost speed): the engine
    plays the game through, so the failure is the compiler's, named with the seed."""
    import rulesengine.compiled as compiled
    from rulesengine.compiled.sheet import sheet_maker

    edition = load_edition(EDITIONS / "australia.yaml")

    class Broken:
        sheets = sheet_maker(edition, 4)   # the sheets a generated game fills

        def play(self, *args):
            raise KeyError("a local of the generated game")

    monkeypatch.setattr(compiled, "generated", lambda edition, players: Broken())
    with pytest.raises(compiled.GeneratedGameError, match="australia failed where the engine did not \\(seed 5\\)"):
        play_random(edition, NAMES[:4], 5)
