"""Plays a simulation: shards of games over local processes (or Ray), tallied as they come back.

Game g of a run plays with the seed game_seed(run seed, g) and the line-up rotated by g, on each
edition alike (paired games). Shards are fixed runs of SHARD_GAMES games whatever the number of
workers or the backend, and their tallies are merged in shard order, so the figures are the same
for any --jobs and on Ray. At most a few shards are in flight at once: memory does not grow with
the number of games. It never prints; on_games reports progress to the caller.

Where the batch simulator plays an edition's line-up (random seats, an edition it covers, numpy:
batched.engine_reason), a task is a block of shards played as one batch, each shard still tallied on
its own, so the figures are the engine's to the last digit; elsewhere a task is one shard.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..bots.registry import BOTS
from ..edition.seat_options import as_named, problems
from ..edition.shipped import resolve_edition
from ..errors import BoomError, Diagnostic
from ..game.blocks import round_plan
from .batched import BATCH, BATCHES, GREEDY_BATCH, batch_seats, engine_reason
from .games import bot_kind, seat_names
from .generated import GENERATED, GENERATED_BY, generated_reason
from .settings import Settings, SettingsError
from .shards import (
    BLOCK_SHARDS,
    SHARD_GAMES,
    ShardFailure,
    ShardResult,
    layout_of,
    play_shard,
    play_shard_from_sources,
    play_shards,
    shard_count,
)
from .source import EditionSource, remember
from .tally import PairedTally


@dataclass
class Simulation:
    """A finished simulation: the tallies of each edition, the paired differences, and how long it took."""

    settings: Settings
    sources: tuple
    layouts: tuple
    tallies: tuple
    paired: PairedTally | None
    seconds: float = 0.0
    backend: str = "local"
    jobs: int = 1
    played_by: tuple = ()   # per edition: who played its games (the batch simulator, or the engine and why)

    @property
    def games_per_second(self) -> float:
        return self.settings.games / self.seconds if self.seconds else 0.0


ENGINE_ASKED = "the engine (--engine)"
SEAT_OPTIONS_SET = "the engine (--seat-option: the batch and the generated game play every seat option at its default)"


def played_by(editions: list, kinds: tuple, games: int) -> tuple[str, ...]:
    """Who plays each edition's games with this line-up: the batch simulator (its random or its greedy seats);
    where it does not, the generated game (and why not the batch); or the engine and why."""
    found = []
    for edition in editions:
        why = engine_reason(edition, kinds, games)
        if why is None:
            found.append(GREEDY_BATCH if batch_seats(kinds) == "greedy" else BATCH)
        elif generated_reason(edition, kinds, games) is None:
            found.append(f"{GENERATED_BY} {why})")
        else:
            found.append(f"the engine ({why})")
    return tuple(found)


def runners(players: tuple) -> tuple:
    """What play_games is told for each edition (see played_by): True, the batch; GENERATED, the generated
    game; False, the engine."""
    return tuple(True if who in BATCHES else GENERATED if who.startswith(GENERATED_BY) else False for who in players)


def shards_a_task(count: int, jobs: int, batched: bool) -> int:
    """How many shards a task plays: one through the engine; through the batch, a block (fewer when
    that would leave a worker idle)."""
    if not batched:
        return 1
    return max(1, min(BLOCK_SHARDS, count if jobs <= 1 else -(-count // (2 * jobs))))


def prepare(settings: Settings) -> tuple[tuple, tuple, list]:
    """Check the settings; the editions' sources, the layouts and the editions loaded here."""
    if settings.games < 1:
        raise SettingsError(f"play at least one game, not {settings.games}", "--games")
    if not 1 <= len(settings.editions) <= 2:
        raise SettingsError(f"give one edition, or a variant and its base (two), not {len(settings.editions)}")
    for kind in settings.kinds:
        try:
            bot_kind(kind)
        except ValueError:
            message = (f"unknown seat kind {kind!r} (kinds: {', '.join(BOTS)}; "
                       f"a budget as search:ROLLOUTS, blend:ROLLOUTS or ismcts:ITERATIONS)")
            raise SettingsError(message, "--seats") from None
    paths = [resolve_edition(path) for path in settings.editions]  # a shipped edition's name: its file
    loaded = [EditionSource.load(path, str(given)) for path, given in zip(paths, settings.editions, strict=True)]
    editions = [edition for edition, _ in loaded]
    for edition in editions:
        if not edition.players_min <= len(settings.kinds) <= edition.players_max:
            raise SettingsError(
                f"{edition.name} is for {edition.players_min} to {edition.players_max} players, "
                f"not {len(settings.kinds)}",
                "--players",
            )
    names = seat_names(len(settings.kinds))   # the seats every game names, whatever bot sits there
    table = as_named(settings.seat_options, names)
    for edition in editions:
        found = problems(edition, names, table)
        if found:
            raise SettingsError(found[0], "--seat-option")
    if len({round_plan(edition).scores_rounds for edition in editions}) > 1:
        raise SettingsError("compare a variant with its base: one edition scores its rounds and the other not")
    sources = tuple(source for _, source in loaded)
    for source, edition in zip(sources, editions, strict=True):
        remember(source, edition)
    return sources, tuple(layout_of(edition, settings.kinds, table) for edition in editions), editions


def merge_in_order(results: Iterator, count: int, on_games: Callable[[int], None] | None, games: int, replay=None):
    """Merge shard results, arriving in any order, in shard order (holding only the early arrivals)."""
    waiting, next_index, total = {}, 0, None
    for result in results:
        if isinstance(result, ShardFailure):
            if replay is not None:  # the first game that fails, whichever worker reported first
                for index in range(next_index, result.index + 1):
                    if index not in waiting:
                        replay(index)  # raises the error, located in the edition's file
            raise BoomError(Diagnostic(None, result.message, result.code))
        if on_games:
            on_games(min(SHARD_GAMES, games - result.index * SHARD_GAMES))
        waiting[result.index] = result
        while next_index in waiting:
            ready = waiting.pop(next_index)
            if total is None:
                total = ready
            else:
                for mine, theirs in zip(total.tallies, ready.tallies, strict=True):
                    mine.merge(theirs)
                if total.paired is not None:
                    total.paired.merge(ready.paired)
            next_index += 1
    if next_index != count:
        raise RuntimeError(f"{count - next_index} shards of the simulation never came back")
    return total


def map_shards(tasks: list, jobs: int, backend: str = "local", address: str | None = None, play=None) -> Iterator:
    """(key, play(...)) for tasks (key, sources, layouts, seed, shard index, games), in the order they finish:
    the shards of many editions at once (boom tune's candidates) on --jobs or Ray. play: a module-level
    function of those arguments (default play_shard_from_sources: a ShardResult or a ShardFailure).
    On --jobs an interruption stops the workers at once (workers.numbered_results)."""
    play = play or play_shard_from_sources
    if backend == "ray":
        from .ray_backend import ray_map

        for position, result in ray_map(play, [task[1:] for task in tasks], address):
            yield tasks[position][0], result
        return
    if jobs <= 1 or len(tasks) == 1:
        for key, *arguments in tasks:
            yield key, play(*arguments)
        return
    from ..workers import numbered_results

    for position, result in numbered_results(jobs, play, [task[1:] for task in tasks]):
        yield tasks[position][0], result   # the key itself, never a copy sent to a worker and back


def _local_results(settings: Settings, sources, layouts, editions, jobs: int, batched: tuple) -> Iterator[ShardResult]:
    count = shard_count(settings.games)
    per = shards_a_task(count, jobs, all(batched))
    blocks = [(first, min(count, first + per)) for first in range(0, count, per)]
    if jobs <= 1 or len(blocks) == 1:
        for first, last in blocks:
            yield from play_shards(editions, layouts, settings.seed, first, last, settings.games, batched)
        return
    from .sharing import shared_blocks

    _before_forking(layouts, batched)
    yield from shared_blocks(blocks, jobs - 1, (sources, layouts, settings.seed, settings.games, batched))


def _before_forking(layouts: tuple, batched: tuple) -> None:
    """Import here what every worker would import at its first block (the batch's modules, the columns'), so
    the forked workers start with it: once, not once a worker."""
    if any(batch is True for batch in batched):
        from ..fast import batch  # noqa: F401 - imported for the workers
        from . import columns  # noqa: F401
        if any(batch_seats(layout.kinds) == "greedy" for layout in layouts):
            from ..fast import greedy  # noqa: F401


def run_simulation(
    settings: Settings,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    on_games: Callable[[int], None] | None = None,
    engine: bool = False,
) -> Simulation:
    """Play the simulation and tally it; SettingsError or EditionError on bad settings, before any game.
    engine=True: every game through the engine, even where the batch simulator would play it (the oracle)."""
    sources, layouts, editions = prepare(settings)
    start = time.perf_counter()
    players = ((ENGINE_ASKED,) * len(editions) if engine else (SEAT_OPTIONS_SET,) * len(editions)
               if settings.seat_options else played_by(editions, settings.kinds, settings.games))
    batched = runners(players)
    if backend == "ray":
        from .ray_backend import ray_results

        results = ray_results(settings, sources, layouts, address, batched)
    else:
        results = _local_results(settings, sources, layouts, editions, jobs, batched)
    try:
        total = merge_in_order(
            results,
            shard_count(settings.games),
            on_games,
            settings.games,
            replay=lambda index: play_shard(editions, layouts, settings.seed, index, settings.games, batched),
        )
    finally:
        results.close()  # on an error too: the worker processes (or the Ray instance) stop now
    seconds = time.perf_counter() - start
    return Simulation(settings, sources, layouts, total.tallies, total.paired, seconds, backend, jobs, players)
