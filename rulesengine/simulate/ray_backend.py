"""The same shards as the local backend, played on a Ray cluster (`pip install 'boomerang-rules[ray]'`).

Each task gets the editions as text with their hashes (put in the object store once) and a few
shards; the worker compiles each edition once (source.compiled) and keeps it for later tasks.
Compiled expressions never travel. Ray is imported only here, and only when this backend is used;
no protocol of our own: scheduling, transport and retries are Ray's.
"""

from __future__ import annotations

from collections.abc import Iterator

from .runner import SHARD_GAMES, Settings, SettingsError, ShardResult, play_shards_from_sources, shard_count

SHARDS_PER_TASK = 4  # 200 games a task: seconds of work against milliseconds of scheduling


def _play_shards(sources: tuple, layouts: tuple, seed: int, indexes: list, games: int, batched: tuple) -> list:
    """A task's shards (consecutive): one batch where the batch plays them, each shard tallied on its own."""
    return play_shards_from_sources(sources, layouts, seed, indexes[0], indexes[-1] + 1, games, batched)


def ray_results(settings: Settings, sources: tuple, layouts: tuple, address: str | None,
                batched: tuple = ()) -> Iterator[ShardResult]:
    """Shard results from Ray: a running instance if there is one, else `address`, else a local one."""
    try:
        import ray
    except ImportError:
        raise SettingsError("the Ray backend needs Ray: pip install 'boomerang-rules[ray]'", "--backend") from None
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        except ConnectionError as exc:
            raise SettingsError(
                f"cannot reach a Ray cluster at {address or 'a new local instance'}: {exc}", "--address"
            ) from None
    try:
        task = ray.remote(_play_shards)
        sources_ref = ray.put(sources)
        groups = [
            list(range(i, min(i + SHARDS_PER_TASK, shard_count(settings.games))))
            for i in range(0, shard_count(settings.games), SHARDS_PER_TASK)
        ]
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending, submitted = [], 0
        while submitted < len(groups) or pending:
            while submitted < len(groups) and len(pending) < window:
                pending.append(task.remote(sources_ref, layouts, settings.seed, groups[submitted], settings.games,
                                           batched))
                submitted += 1
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def ray_map(function, tasks: list, address: str | None) -> Iterator[tuple[int, object]]:
    """(position, function(*task)) for every task, as they finish on Ray (boom tune's shards of many
    candidates); the same connection rules as ray_results."""
    try:
        import ray
    except ImportError:
        raise SettingsError("the Ray backend needs Ray: pip install 'boom[ray]'", "--backend") from None
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        except ConnectionError as exc:
            raise SettingsError(
                f"cannot reach a Ray cluster at {address or 'a new local instance'}: {exc}", "--address"
            ) from None
    try:
        remote = ray.remote(function)
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending, submitted = {}, 0
        while submitted < len(tasks) or pending:
            while submitted < len(tasks) and len(pending) < window:
                pending[remote.remote(*tasks[submitted])] = submitted
                submitted += 1
            done, _ = ray.wait(list(pending), num_returns=1)
            yield pending.pop(done[0]), ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


__all__ = ["SHARD_GAMES", "ray_map", "ray_results"]
