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

import hashlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..bots.registry import BOTS
from ..edition.model import Edition
from ..edition.seat_options import as_named, problems
from ..edition.shipped import resolve_edition
from ..errors import BoomError, Diagnostic
from ..game.blocks import round_plan
from .batched import BATCH, BATCHES, GREEDY_BATCH, batch_seats, engine_reason, without_collector
from .games import Deal, bot_kind, play_games, seat_names
from .generated import GENERATED, GENERATED_BY, generated_reason
from .source import EditionSource, compiled, remember
from .tally import EditionTally, Layout, PairedTally

SHARD_GAMES = 50
BLOCK_SHARDS = 40   # shards a batch plays at once (2,000 games: numpy's cost a step is spread over enough games)


class SettingsError(ValueError):
    """Settings that cannot be simulated; `option` names the command-line option at fault."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class Settings:
    """Everything that fixes a simulation's figures (the backend and the number of jobs do not)."""

    editions: tuple  # one or two edition paths
    kinds: tuple  # the line-up, one bot kind per seat
    games: int
    seed: int = 0
    seat_options: dict = field(default_factory=dict)  # name (P1..Pn) -> option -> number, as --seat-option set them


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


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: fixed by the run's seed and the index alone."""
    digest = hashlib.blake2b(f"boom-simulate/{run_seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 33  # 31 bits


def layout_of(edition: Edition, kinds: tuple, seat_options: dict | None = None) -> Layout:
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
        with without_collector():
            return _tallied(editions, layouts, deals, first, last, games, batched)
    return _tallied(editions, layouts, deals, first, last, games, batched)


def _tallied(editions: list, layouts: tuple, deals: list, first: int, last: int, games: int, batched: tuple) -> list:
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
    function of those arguments (default play_shard_from_sources: a ShardResult or a ShardFailure)."""
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
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(jobs) as pool:
        pending, submitted = {}, 0
        while submitted < len(tasks) or pending:
            while submitted < len(tasks) and len(pending) < 2 * jobs:
                key, *arguments = tasks[submitted]
                pending[pool.submit(play, *arguments)] = key
                submitted += 1
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()


def _local_results(settings: Settings, sources, layouts, editions, jobs: int, batched: tuple) -> Iterator[ShardResult]:
    count = shard_count(settings.games)
    per = shards_a_task(count, jobs, all(batched))
    blocks = [(first, min(count, first + per)) for first in range(0, count, per)]
    if jobs <= 1 or len(blocks) == 1:
        for first, last in blocks:
            yield from play_shards(editions, layouts, settings.seed, first, last, settings.games, batched)
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(jobs) as pool:
        pending, submitted = set(), 0
        while submitted < len(blocks) or pending:
            while submitted < len(blocks) and len(pending) < 2 * jobs:
                first, last = blocks[submitted]
                pending.add(pool.submit(play_shards_from_sources, sources, layouts, settings.seed, first, last,
                                        settings.games, batched))
                submitted += 1
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()


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
