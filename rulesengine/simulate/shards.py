"""A simulation's unit of work: a shard of SHARD_GAMES games, their seeds and seat rotations, played on every
edition of the run and tallied on its own, in this process or in a worker (local or Ray) from the editions'
text. Which shards run where is the runner's business (runner.py) or the Ray backend's (ray_backend.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .. import collector
from ..edition.model import Edition
from ..errors import BoomError
from ..game.blocks import round_plan
from .batched import figures_of, play_block
from .games import Deal, play_game, play_games
from .source import compiled
from .tally import EditionTally, Layout, PairedTally

SHARD_GAMES = 50
BLOCK_SHARDS = 40   # shards a batch plays at once (2,000 games: numpy's cost a step is spread over enough games)


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: fixed by the run's seed and the index alone."""
    digest = hashlib.blake2b(f"boom-simulate/{run_seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 33  # 31 bits


def layout_of(edition: Edition, kinds: tuple, seat_options: dict | None = None) -> Layout:
    """What a tally needs to know of an edition and its line-up: plain data, so it travels to workers."""
    return Layout(
        edition.id,
        tuple(edition.sheet_keys),
        tuple(r.key for r in edition.races),
        tuple(edition.tie_breaks),
        tuple(c.letter for c in edition.cards),
        tuple(kinds),
        edition.rounds,
        not round_plan(edition).scores_rounds,
        tuple(edition.stocks),
        tuple(item.title for item in (*edition.categories, *edition.races)),
        tuple(card.name for card in edition.cards),
        edition.name,
        tuple(key for key in edition.sheet_keys if key not in edition.counting_keys),
        tuple((name, tuple(values.items())) for name, values in (seat_options or {}).items()),
    )


@dataclass
class ShardResult:
    index: int
    tallies: tuple
    paired: PairedTally | None


def play_shard(editions: list, layouts: tuple, seed: int, index: int, games: int,
               batched: tuple | None = None) -> ShardResult:
    """Games index*SHARD_GAMES up to (not including) the next shard or `games`, on every edition."""
    return play_shards(editions, layouts, seed, index, index + 1, games, batched)[0]


def play_shards(editions: list, layouts: tuple, seed: int, first: int, last: int, games: int,
                batched: tuple | None = None) -> list[ShardResult]:
    """Shards first..last-1, their games played together (one batch, where batched says the batch plays
    that edition's games: run_simulation decides it once for the run), each shard tallied on its own."""
    deals = [deal for index in range(first, last) for deal in shard_deals(seed, index, games, layouts[0].players)]
    batched = batched or (None,) * len(editions)
    if any(batched):
        with collector.paused():
            return _tallied(editions, layouts, deals, first, last, games, batched)
    return _tallied(editions, layouts, deals, first, last, games, batched)


def _tallied(editions: list, layouts: tuple, deals: list, first: int, last: int, games: int, batched: tuple) -> list:
    if all(batch is True for batch in batched) and not any(layout.holdings for layout in layouts):
        blocks = [play_block(edition, layout, deals) for edition, layout in zip(editions, layouts, strict=True)]
        if not any(block.failed.any() for block in blocks):   # every game's figures as arrays, tallied at once
            return _tallied_columns(editions, layouts, deals, first, last, games, blocks)
        played = [[figures or play_game(edition, layout, deal) for figures, deal in
                   zip(figures_of(edition, layout, block), deals, strict=True)]
                  for edition, layout, block in zip(editions, layouts, blocks, strict=True)]
    else:
        played = [play_games(edition, layout, deals, batch)
                  for edition, layout, batch in zip(editions, layouts, batched, strict=True)]
    results, at = [], 0
    for index in range(first, last):
        tallies = tuple(EditionTally(layout) for layout in layouts)
        paired = PairedTally() if len(editions) == 2 else None
        for number in range(at, at + min(SHARD_GAMES, games - index * SHARD_GAMES)):
            entry_at = list(deals[number].entry_at)
            values = [tally.add(games_of[number], entry_at) for tally, games_of in zip(tallies, played, strict=True)]
            if paired is not None:
                paired.add(values[0], values[1])
        at = number + 1
        results.append(ShardResult(index, tallies, paired))
    return results


def _tallied_columns(editions: list, layouts: tuple, deals: list, first: int, last: int, games: int,
                     blocks: list) -> list:
    """_tallied over the batch's arrays (columns.py): the same tallies, without a GameFigures a game."""
    import numpy as np

    from .columns import columns_of, tally_columns

    columns = [columns_of(edition, layout, block) for edition, layout, block in zip(editions, layouts, blocks,
                                                                                    strict=True)]
    bounds, at = [], 0
    for index in range(first, last):
        count = min(SHARD_GAMES, games - index * SHARD_GAMES)
        bounds.append((index, at, at + count))
        at += count
    return tally_columns(layouts, columns, np.array([deal.entry_at for deal in deals], dtype=np.int64), bounds)


def shard_deals(seed: int, index: int, games: int, players: int) -> list[Deal]:
    """The games of shard `index`: game g plays with game_seed(seed, g), entry i at seat (i + g) mod n."""
    return [
        Deal(game_seed(seed, number), tuple((seat - number) % players for seat in range(players)))
        for number in range(index * SHARD_GAMES, min((index + 1) * SHARD_GAMES, games))
    ]


@dataclass
class ShardFailure:
    """A shard whose games broke a rule in a worker (e.g. a division by zero in a scoring expression).

    Errors do not travel between processes intact (and their positions point into the worker's copy
    of the text), so the driver plays the shard again itself to raise the same error, located in
    the edition's own file."""

    index: int
    message: str
    code: str


def play_shard_from_sources(sources: tuple, layouts: tuple, seed: int, index: int, games: int,
                            batched: tuple | None = None):
    """play_shard in a worker: the editions compiled from their text, once per worker."""
    return play_shards_from_sources(sources, layouts, seed, index, index + 1, games, batched)[0]


def play_shards_from_sources(sources: tuple, layouts: tuple, seed: int, first: int, last: int, games: int,
                             batched: tuple | None = None) -> list:
    """play_shards in a worker; a failure is reported at the block's last shard (the driver then plays
    every shard up to it again, in order, to raise the first error where it is)."""
    try:
        return play_shards([compiled(source) for source in sources], layouts, seed, first, last, games, batched)
    except BoomError as exc:
        diagnostic = exc.diagnostics[0]
        return [ShardFailure(last - 1, diagnostic.message, diagnostic.code)]


def shard_count(games: int) -> int:
    return (games + SHARD_GAMES - 1) // SHARD_GAMES
