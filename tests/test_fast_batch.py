"""The batch simulator plays the engine's games: the same seeds give the same drafts, choices and sheets.

rulesengine/fast/batch.py plays thousands of random-seat games at once in arrays, its scoring the
editions' own expressions as array code; the engine is its oracle. Every shipped edition and variant
at every player count it seats: each seed's drafts, round-end choices, every round line, every
game-end line and every total are the engine's (variants in the slow suite). An edition with a part
the batch does not play is named as a fallback, with what it lacks, and the engine plays it.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import EDITIONS

from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.game.loop import play
from rulesengine.game.scoring import ScoringError

batch = pytest.importorskip("rulesengine.fast.batch")
plans = pytest.importorskip("rulesengine.fast.plan")

SHIPPED = sorted(EDITIONS.glob("*.yaml")) + sorted((EDITIONS / "variants").glob("*.yaml"))
# the shipped editions the engine plays instead, and what the batch names as the reason
FALLBACKS = {
    "australia-face-up-throw": "Deal, PickAndPass, Catch, Choices",
    "australia-activities-twice": "choices allowed more than once a game",
    "australia-catch-up": "the score sheet so far (totals) in 'catch_up'",
    "australia-handicap": "the score sheet so far (options) in 'handicap'",
    "australia-split-regions": "'sharing' in the award of 'regions'",
    "usa-americana-beat-your-best": "the score sheet so far (lines) in 'americana'",
    "australia-ghost-third": "ghost hands",
    "australia-growing-hands": "hand sizes by round",
    "australia-keep-one-discard-one": "discards",
    "australia-mulligan": "Mulligan",
    "australia-open-hands": "Deal, PickAndPass, Catch, Choices",
    "australia-teams": "teams",
    "australia-two-at-once": "passes of several cards",
    "australia-zigzag": "directions pass by pass",
    "boomerang-2010": "Reveal, SecretChoice, Bidding, Claim",
    "boomerang-2010-runner-up": "Reveal, SecretChoice, Bidding, Claim",
    "australia-declared-activity": "SecretChoice, Deal, Throw, PickAndPass, Catch, Choices",
    "australia-public-goals": "PublicGoals, Deal, Throw, PickAndPass, Catch, Choices",
    "boomerang-2010-double-throw": "Reveal, SecretChoice, Bidding, Claim",
}
SEEDS = [*range(30), 10**12 + 7, 2**70 + 5]   # the last: a seed whose bots' seeds pass 64 bits
NAMES = ["P1", "P2", "P3", "P4", "P5", "P6"]


def engine_game(edition, players: int, seed: int):
    return play(Game(edition, NAMES[:players], seed, events=False),
                [RandomAgent(agent_seed(seed, s)) for s in range(players)])


def assert_the_same_games(edition, players: int, seeds: list[int], played) -> None:
    choice_categories = [c for c in edition.categories if c.choice is not None]
    for g, seed in enumerate(seeds):
        game = engine_game(edition, players, seed)
        sheet, record = game.scores.sheet(), game.record()
        for r, round_data in enumerate(record["rounds"]):
            for s, name in enumerate(NAMES[:players]):
                letters = [edition.cards[i].letter for i in played.drafts[g, r, s]]
                assert letters == round_data["drafts"][name], (seed, r, s)
                for c, category in enumerate(choice_categories):
                    icon = played.choices[g, r, s, c]
                    chosen = category.choice.family.icons[icon] if icon >= 0 else None
                    assert chosen == round_data["choices"].get(name, {}).get(category.key), (seed, r, s)
                lines = sheet["players"][s]["rounds"][r]
                assert {key: int(played.lines[g, s, r, k]) for k, key in enumerate(played.plan.line_keys)} == \
                    {key: lines.get(key, 0) for key in played.plan.line_keys}, (seed, r, s)
        for s in range(players):
            categories = sheet["players"][s]["categories"]
            for e, (key, _) in enumerate(played.plan.ends):
                assert int(played.ends[g, s, e]) == categories[key], (seed, s, key)
        assert [int(t) for t in played.totals[g]] == [p["total"] for p in sheet["players"]], seed
        assert not played.failed[g]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_batch_plays_the_engines_games(path):
    edition = load_edition(path)
    reason = plans.fallback(edition)
    if path.stem in FALLBACKS:
        assert FALLBACKS[path.stem] in reason
        with pytest.raises(plans.Unsupported):
            batch.play(edition, edition.players_min, [1])
        return
    assert reason is None
    for players in range(edition.players_min, min(edition.players_max, len(NAMES)) + 1):
        assert_the_same_games(edition, players, SEEDS, batch.play(edition, players, SEEDS))


def test_a_seat_gets_the_bot_seeded_for_another_seat_as_told():
    """bot_seats rotates the bots as `boom simulate` does (Deal.shift): seat s plays seat (s + 1) % n's bot."""
    edition = load_edition(EDITIONS / "australia.yaml")
    seeds = list(range(12))
    rotated = batch.play(edition, 3, seeds, np.array([[(s + 1) % 3 for s in range(3)]] * len(seeds)))
    for g, seed in enumerate(seeds):
        game = play(Game(edition, NAMES[:3], seed, events=False),
                    [RandomAgent(agent_seed(seed, (s + 1) % 3)) for s in range(3)])
        assert [int(t) for t in rotated.totals[g]] == [p["total"] for p in game.scores.sheet()["players"]]


def test_a_game_whose_scoring_fails_is_left_to_the_engine(tmp_path):
    """A house rule that divides by zero in some games: exactly those are marked failed (the engine reports
    the error there), and every other game is the engine's."""
    rule = tmp_path / "odd.yaml"
    rule.write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: odd\nname: Odd\ncategories:\n"
                    "  - key: odd\n    title: Odd\n    description: Ten over the kangaroos less three.\n"
                    "    score: 10 // (count('Kangaroos', cards) - 3)\n", encoding="utf-8")
    edition = load_edition(rule)
    assert plans.fallback(edition) is None
    seeds = list(range(60))
    played = batch.play(edition, 4, seeds)
    for g, seed in enumerate(seeds):
        try:
            engine_game(edition, 4, seed)
        except ScoringError:
            assert played.failed[g], seed
        else:
            assert not played.failed[g], seed
    assert 0 < played.failed.sum() < len(seeds)


@pytest.mark.parametrize("size", [28, 7, 2])
def test_every_game_shuffles_as_its_own_generator_does(size):
    """The shuffle replayed for many generators at once is random.Random(seed).shuffle of each row, and leaves
    each at the word the engine's generator is at; reading 3 words first, more are read as games need them."""
    import random

    from rulesengine.fast.draws import Stream, words

    seeds = [*range(50), 2**40 + 1]
    stream = Stream(seeds, size=3)
    decks = np.tile(np.arange(size), (len(seeds), 1))
    stream.shuffle(decks)
    stream.shuffle(decks)
    for row, seed in enumerate(seeds):
        generator, expected = random.Random(seed), list(range(size))
        generator.shuffle(expected)
        generator.shuffle(expected)
        assert decks[row].tolist() == expected
        assert words([seed], stream.at[row] + 1)[0, -1] == generator.getrandbits(32)   # the next word, as the engine


def test_an_edition_whose_expression_may_be_costly_is_left_to_the_engine_and_its_step_budget(tmp_path):
    """The array code has no step budget as it runs: an expression the work budget counts over BATCH_WORK
    steps at worst (every card of the deck against every card, twice compared: 10,335 steps) is played by
    the engine, whose meter stops a count gone wrong (#32); the same house rule validates (89,191,020
    steps a greedy game) and the shipped editions stay in the batch (their costliest expression: 854)."""
    pairs = "sum([len([d for d in deck if d.number == c.number and d.region == c.region]) for c in deck])"
    rule = tmp_path / "pairs.yaml"
    rule.write_text(f"extends: {EDITIONS / 'australia.yaml'}\nid: pairs\nname: Pairs\n"
                    f"categories:\n  - key: pairs\n    title: Pairs\n    score: {pairs}\n", encoding="utf-8")
    edition = load_edition(rule)
    assert plans.fallback(edition) == (
        "'pairs' may take 10,335 steps an evaluation, more than the batch's 10,000 (it has no step budget as it runs)")
    with pytest.raises(plans.Unsupported):
        batch.play(edition, 4, [1])


@pytest.mark.parametrize("name", ["australia", "europe", "usa"])
def test_the_packed_hands_draft_as_the_rolled_ones(name):
    """Each hand packed in a uint64 (the draft the batch plays where a hand fits) takes the same cards, pick by
    pick, as the hands kept as rows of cards and rolled round the table (the draft of hands too large to pack),
    for random hands and keys, each round's passing, 2 to 4 players."""
    edition = load_edition(EDITIONS / f"{name}.yaml")
    at = plans.plan(edition)
    generator = np.random.default_rng(35)
    for players in (2, 3, 4):
        hands = np.stack([generator.permutation(len(at.deck.cards))[:players * at.hand].reshape(players, at.hand)
                          for _ in range(200)])
        keys = generator.integers(0, 2**63, size=200 * players).astype(np.uint64)
        for r in range(edition.rounds):
            packed = batch._packed_draft(edition, at, hands, keys, r, 6)
            rolled = batch._rolled_draft(edition, at, hands, keys, r)
            assert packed.tolist() == rolled.tolist(), (players, r)
            assert sorted(packed.reshape(-1).tolist()) == sorted(hands.reshape(-1).tolist())
