"""A block of batch games tallied over arrays (rulesengine/simulate/columns.py) is the game-by-game tally.

The batch's figures read game by game (batched.figures_of) and counted by EditionTally.add are the
reference; the columns must give every shard the same moments (floating-point sums to the last bit, the
same type too: an int stays an int), and the block merged in shard order the same counters and sums, for
every shipped edition and variant the batch plays, random and greedy seats, a variant against its base
(the paired tally) included.
"""

from __future__ import annotations

import pytest
from conftest import EDITIONS

from rulesengine import load_edition
from rulesengine.simulate.shards import SHARD_GAMES, _tallied, layout_of, shard_deals
from rulesengine.simulate.tally import EditionTally, PairedTally

pytest.importorskip("numpy")

from rulesengine.simulate.batched import engine_reason, play_batch  # noqa: E402

SHIPPED = sorted(EDITIONS.glob("*.yaml")) + sorted((EDITIONS / "variants").glob("*.yaml"))


def _state(tally) -> dict:
    """Everything a tally holds, the moments as (n, total, squares) with their types."""
    found = {name: value for name, value in vars(tally).items() if name not in ("measures", "differences")}
    for name in ("measures", "differences"):
        if hasattr(tally, name):
            found[name] = {key: (m.n, type(m.total), m.total, type(m.squares), m.squares)
                           for key, m in getattr(tally, name).items()}
    return found


def _game_by_game(editions: list, layouts: tuple, deals: list, first: int, last: int, games: int) -> list:
    """The reference: each game's GameFigures from the batch, counted by EditionTally.add in turn."""
    played = [play_batch(edition, layout, deals) for edition, layout in zip(editions, layouts, strict=True)]
    assert all(figures is not None for figures_of in played for figures in figures_of)
    found, at = [], 0
    for index in range(first, last):
        tallies = tuple(EditionTally(layout) for layout in layouts)
        paired = PairedTally() if len(editions) == 2 else None
        for number in range(at, at + min(SHARD_GAMES, games - index * SHARD_GAMES)):
            entry_at = list(deals[number].entry_at)
            values = [tally.add(figures[number], entry_at) for tally, figures in zip(tallies, played, strict=True)]
            if paired is not None:
                paired.add(values[0], values[1])
            at = number + 1
        found.append((tallies, paired))
    return found


def _same(editions: list, kinds: tuple, seed: int, games: int) -> None:
    layouts = tuple(layout_of(edition, kinds) for edition in editions)
    first, last = 1, -(-games // SHARD_GAMES)        # a block of shards, not from game 0, a short last shard
    deals = [deal for index in range(first, last) for deal in shard_deals(seed, index, games, len(kinds))]
    columns = _tallied(editions, layouts, deals, first, last, games, (True,) * len(editions))
    expected = _game_by_game(editions, layouts, deals, first, last, games)
    assert len(columns) == len(expected) == last - first
    for result, (tallies, paired) in zip(columns, expected, strict=True):   # each shard's moments, in order met
        for mine, theirs in zip(result.tallies, tallies, strict=True):
            assert mine.games == theirs.games
            assert _state(mine)["measures"] == _state(theirs)["measures"]
            assert list(mine.measures) == list(theirs.measures)
        assert (result.paired is None) == (paired is None)
        if paired is not None:
            assert _state(result.paired) == _state(paired)
    assert _in_order([(result.tallies, result.paired) for result in columns]) == _in_order(expected)


def _in_order(shards: list) -> tuple:
    """The shards' tallies merged in shard order into the first, as runner.merge_in_order does (a block's counts
    ride on its first shard), as the state of each tally."""
    (totals, together), *rest = shards
    for tallies, paired in rest:
        for mine, theirs in zip(totals, tallies, strict=True):
            mine.merge(theirs)
        if together is not None:
            together.merge(paired)
    return [_state(tally) for tally in totals], together and _state(together)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_random_seats_tallied_as_arrays_are_tallied_game_by_game(path):
    edition = load_edition(path)
    for players in range(edition.players_min, min(edition.players_max, 6) + 1):
        if engine_reason(edition, ("random",) * players) is not None:
            return          # tests/test_fast_batch.py names every shipped fallback and its reason
        _same([edition], ("random",) * players, players, 3 * SHARD_GAMES + 17)


@pytest.mark.parametrize("name", ["australia", "europe", "usa"])
def test_greedy_seats_tallied_as_arrays_are_tallied_game_by_game(name):
    edition = load_edition(EDITIONS / f"{name}.yaml")
    assert engine_reason(edition, ("greedy",) * 3, 100) is None
    _same([edition], ("greedy",) * 3, 5, 2 * SHARD_GAMES + 9)


@pytest.mark.parametrize("variant", ["australia-direction", "australia-fewest-kangaroos-tie",
                                     "australia-no-throw-catch"])
def test_a_variant_and_its_base_tallied_as_arrays_pair_as_game_by_game(variant):
    editions = [load_edition(EDITIONS / "australia.yaml"), load_edition(EDITIONS / "variants" / f"{variant}.yaml")]
    for kinds in (("random",) * 4, ("greedy",) * 2):
        assert all(engine_reason(edition, kinds, 300) is None for edition in editions)
        _same(editions, kinds, 11, 3 * SHARD_GAMES + 1)
