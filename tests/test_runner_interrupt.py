"""An interrupted run of shards on --jobs stops at once (runner.map_shards: boom ladder, boom tune, the depth
report): a SIGINT to the driver alone (`kill -INT PID`, a supervisor) used to leave it waiting for the shards
under way before it exited, forever for a shard that does not end; a terminal's Ctrl-C reaches the whole group
and must be answered by the driver only. The shards here never end, so only a driver that stops its workers exits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulesengine.workers import numbered_results

DRIVER = '''
import os, sys, time
from rulesengine.simulate.runner import map_shards

def forever(folder):
    """A shard that never ends; it says it has started by a file named by its process id."""
    open(os.path.join(folder, str(os.getpid())), "w").close()
    time.sleep(3600)

if __name__ == "__main__":
    try:
        for _ in map_shards([(key, sys.argv[1]) for key in range(4)], 2, play=forever):
            pass
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
'''


def _waited(test, what: str, limit: float = 60.0) -> None:
    """Polls test() until it holds; fails naming `what` after `limit` seconds (a hang, not a speed)."""
    end = time.monotonic() + limit
    while not test():
        if time.monotonic() > end:
            pytest.fail(f"still waiting after {limit:.0f} s: {what}")
        time.sleep(0.05)


@pytest.mark.parametrize("to_group", [False, True], ids=["the-driver-alone", "the-whole-group"])
def test_an_interrupt_stops_the_run_and_its_workers(tmp_path, to_group):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    started = tmp_path / "started"
    started.mkdir()
    driver = subprocess.Popen([sys.executable, str(script), str(started)], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        _waited(lambda: len(list(started.iterdir())) == 2, "both workers to start their shard")
        workers = [int(path.name) for path in started.iterdir()]
        if to_group:
            os.killpg(driver.pid, signal.SIGINT)
        else:
            os.kill(driver.pid, signal.SIGINT)
        try:
            out, _ = driver.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("the driver did not exit after SIGINT: it waits for shards that never end")
        assert (driver.returncode, out) == (130, "interrupted\n")
        _waited(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), "the workers to be gone", 10)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()


def _odd_refused(number: int) -> int:
    if number % 2:
        raise ValueError(f"{number} is odd")
    return number * 10


def test_the_results_come_numbered_and_a_calls_error_is_raised_in_the_driver():
    assert sorted(numbered_results(2, _odd_refused, [(0,), (2,), (4,)])) == [(0, 0), (1, 20), (2, 40)]
    with pytest.raises(ValueError, match="3 is odd"):
        list(numbered_results(2, _odd_refused, [(2,), (3,), (4,)]))
