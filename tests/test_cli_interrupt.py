"""An interrupt (Ctrl-C, `kill -INT`) ends a command with the shell's exit code for it, 130, and one line saying
so, as `boom ladder` answers it; click's own answer was "Aborted!" and exit 1, which a script cannot tell from an
error. The long runs are interrupted where they play (their driver raising KeyboardInterrupt as a SIGINT does)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

AUSTRALIA = Path(__file__).resolve().parent.parent / "editions" / "australia.yaml"


def _interrupted(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("command, driver", [
    (["tournament", AUSTRALIA, "--seats", "greedy,random", "--games", "4", "--jobs", "1"],
     "rulesengine.bots.tournament.run_tournament"),
    (["simulate", AUSTRALIA, "--players", "2", "--games", "4", "--jobs", "1"], "rulesengine.simulate.run_simulation"),
], ids=["tournament", "simulate"])
def test_an_interrupted_run_exits_130_with_one_line(monkeypatch, command, driver):
    monkeypatch.setattr(driver, _interrupted)
    result = CliRunner().invoke(main, [str(part) for part in command])
    assert result.exit_code == 130
    assert result.stderr.splitlines()[-1] == "interrupted: nothing kept"   # (after a progress bar cleared)
    assert "Aborted" not in result.output
