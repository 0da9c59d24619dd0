"""The same shards as the local backend, played on a Ray cluster (`pip install 'boomerang-rules[ray]'`).

Each task gets the editions as text with their hashes (put in the object store once) and a few
shards; the worker compiles each edition once (source.compiled) and keeps it for later tasks.
Compiled expressions never travel. Ray is imported only here, and only when this backend is used;
no protocol of our own: scheduling, transport and retries are Ray's.

A Ray cluster runs any code it is sent, so a local instance started here listens on the loopback
interface only and asks for Ray's token (RAY_AUTH_MODE=token: Ray 2.52 and later, the floor in
pyproject.toml); an `--address` is reached within CONNECT_SECONDS or refused with the reason.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from collections.abc import Iterator
from urllib.parse import urlsplit

from .settings import Settings, SettingsError
from .shards import SHARD_GAMES, ShardResult, play_shards_from_sources, shard_count

SHARDS_PER_TASK = 4  # 200 games a task: seconds of work against milliseconds of scheduling
CONNECT_SECONDS = 10  # to open a connection to --address: an unreachable cluster is an error, not a wait
# Read by Ray when it is imported: False makes its node address the loopback one, which every server
# of a local instance (GCS, raylet, workers) then binds to, instead of all interfaces.
_LOOPBACK_ONLY = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token"}
_EVERY_INTERFACE = (
    "a local Ray instance started now would listen on every interface (Ray was imported before boom could "
    "keep it to this machine): set RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 before starting, or give --address"
)


def _play_shards(sources: tuple, layouts: tuple, seed: int, indexes: list, games: int, batched: tuple) -> list:
    """A task's shards (consecutive): one batch where the batch plays them, each shard tallied on its own."""
    return play_shards_from_sources(sources, layouts, seed, indexes[0], indexes[-1] + 1, games, batched)


def _connect(address: str | None):
    """Ray, and whether this call started it (then the caller shuts it down): a running instance if there
    is one, else `address` (reached within CONNECT_SECONDS first), else a local one on loopback."""
    local = address is None and ("ray" not in sys.modules or not sys.modules["ray"].is_initialized())
    if local and "ray" not in sys.modules:
        for name, value in _LOOPBACK_ONLY.items():
            os.environ.setdefault(name, value)
    elif local and os.environ.get("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER") != "0":
        raise SettingsError(_EVERY_INTERFACE, "--backend")
    if address is not None:
        _reach(address)
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
        if local and not _loopback(ray.get_runtime_context().gcs_address):  # a second line of defence
            ray.shutdown()
            raise SettingsError(_EVERY_INTERFACE, "--backend")
    return ray, started


def ray_results(settings: Settings, sources: tuple, layouts: tuple, address: str | None,
                batched: tuple = ()) -> Iterator[ShardResult]:
    """Shard results from Ray: a running instance if there is one, else `address`, else a local one."""
    ray, started = _connect(address)
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
    ray, started = _connect(address)
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


def _reach(address: str) -> None:
    """Refuse, within CONNECT_SECONDS, an address nothing answers at (Ray itself retries for long)."""
    if address == "auto":
        return
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if not host or port is None:
        raise SettingsError(f"'{address}' is not a Ray address (HOST:PORT or ray://HOST:PORT)", "--address")
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            pass
    except TimeoutError:
        raise SettingsError(f"cannot reach a Ray cluster at {address}: no answer within {CONNECT_SECONDS} s",
                            "--address") from None
    except OSError as exc:
        raise SettingsError(f"cannot reach a Ray cluster at {address}: {exc.strerror or exc}", "--address") from None


def _loopback(gcs_address: str) -> bool:
    host = gcs_address.rsplit(":", 1)[0].strip("[]")
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


__all__ = ["SHARD_GAMES", "ray_map", "ray_results"]
