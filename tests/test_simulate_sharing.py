"""--jobs N: the driver plays blocks beside N - 1 workers, each taking the next block when free
(rulesengine/simulate/sharing.py); the figures are those of --jobs 1, and a worker that fails or dies stops
the run with a message, never a hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulesengine.simulate import Settings, report_data, run_simulation, sharing
from rulesengine.simulate.sharing import WorkerFailed

AUSTRALIA = str(Path(__file__).resolve().parent.parent / "editions" / "australia.yaml")


@pytest.mark.parametrize("jobs", [2, 3])
def test_the_batch_figures_shared_with_workers_are_those_of_one_process(jobs):
    settings = Settings((AUSTRALIA,), ("random",) * 4, 9_000, 5)   # 180 shards: blocks for every process
    assert report_data(run_simulation(settings, jobs=jobs)) == report_data(run_simulation(settings, jobs=1))


def test_every_block_is_played_once_and_by_the_driver_and_the_worker_both(monkeypatch):
    driver, played = os.getpid(), []
    real = sharing._played

    def recorded(block, arguments):
        results = real(block, arguments)
        return [(os.getpid() == driver, block, result) for result in results]

    monkeypatch.setattr(sharing, "_played", recorded)
    blocks = [(first, first + 2) for first in range(0, 40, 2)]
    settings = Settings((AUSTRALIA,), ("random",) * 4, 2_000, 1)
    from rulesengine.simulate.runner import prepare

    sources, layouts, _ = prepare(settings)
    for here, block, result in sharing.shared_blocks(blocks, 1, (sources, layouts, 1, 2_000, (True,))):
        played.append((here, block, result.index))
    assert sorted(index for _, _, index in played) == list(range(40))
    assert {here for here, _, _ in played} == {True, False}


def test_a_worker_that_dies_stops_the_run_with_a_message(monkeypatch):
    driver = os.getpid()
    real = sharing._played

    def dying(block, arguments):
        if os.getpid() != driver:
            os._exit(9)
        return real(block, arguments)

    monkeypatch.setattr(sharing, "_played", dying)
    with pytest.raises(WorkerFailed, match="a worker process stopped before it had played its games"):
        run_simulation(Settings((AUSTRALIA,), ("random",) * 4, 9_000, 5), jobs=2)


def test_a_workers_unexpected_error_is_raised_with_its_traceback(monkeypatch):
    driver = os.getpid()
    real = sharing._played

    def failing(block, arguments):
        if os.getpid() != driver:
            raise ZeroDivisionError("in the worker")
        return real(block, arguments)

    monkeypatch.setattr(sharing, "_played", failing)
    with pytest.raises(WorkerFailed, match="ZeroDivisionError: in the worker"):
        run_simulation(Settings((AUSTRALIA,), ("random",) * 4, 9_000, 5), jobs=2)
