"""Issue #32, Ray: a local instance for `simulate --backend ray` listens on the loopback interface
only and asks for Ray's token; an `--address` nothing answers at is a clear error, not a wait."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def simulate_on(address: str):
    return CliRunner().invoke(
        main, ["simulate", str(AUSTRALIA), "-p", "2", "--games", "4", "--backend", "ray", "--address", address]
    )


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the with ends: nothing listens there


def test_an_address_nothing_listens_at_is_refused_with_the_reason():
    port = closed_port()
    result = simulate_on(f"127.0.0.1:{port}")
    assert result.exit_code == 2
    assert f"Invalid value for --address: cannot reach a Ray cluster at 127.0.0.1:{port}: Connection refused" in (
        result.output
    )


def test_an_address_that_does_not_answer_is_refused_after_the_connect_timeout(monkeypatch):
    seen = []

    def silent(address, timeout):
        seen.append((address, timeout))
        raise TimeoutError("timed out")

    monkeypatch.setattr("rulesengine.simulate.ray_backend.socket.create_connection", silent)
    result = simulate_on("ray://10.255.255.1:10001")
    assert result.exit_code == 2
    assert "cannot reach a Ray cluster at ray://10.255.255.1:10001: no answer within 10 s" in result.output
    assert seen == [(("10.255.255.1", 10001), 10)]


def test_an_address_that_is_not_one_is_refused():
    result = simulate_on("nowhere")
    assert result.exit_code == 2
    assert "'nowhere' is not a Ray address (HOST:PORT or ray://HOST:PORT)" in result.output


def test_the_version_floor_has_token_authentication():
    """Ray's token authentication came with 2.52; before, a cluster ran whatever anyone sent it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    assert extras["ray"] == ["ray>=2.52"]
    assert any(spec.startswith("boomerang-rules[") and "ray" in spec for spec in extras["dev"])  # dev has the extra


PROBE = """
import json, os, sys
from rulesengine.simulate import Settings, run_simulation
import rulesengine.simulate.ray_backend as backend
seen = {}
def during(done):
    import ray
    if not seen:
        seen["gcs"] = ray.get_runtime_context().gcs_address
        seen["nodes"] = sorted({node["NodeManagerAddress"] for node in ray.nodes()})
        seen["auth"] = os.environ.get("RAY_AUTH_MODE")
run_simulation(Settings((sys.argv[1],), ("random", "random"), 60, 1), backend="ray", on_games=during)
print(json.dumps(seen))
"""


def test_a_local_instance_listens_on_the_loopback_interface_only_and_asks_for_the_token(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'boom[ray]')")
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("RAY_")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(AUSTRALIA)], capture_output=True, text=True, env=env, timeout=600,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["gcs"].rsplit(":", 1)[0] == "127.0.0.1"
    assert seen["nodes"] == ["127.0.0.1"]
    assert seen["auth"] == "token"


def test_a_local_instance_is_refused_when_ray_was_imported_without_the_loopback_setting(monkeypatch):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'boom[ray]')")
    from rulesengine.simulate import Settings, SettingsError, run_simulation

    assert not ray.is_initialized()
    monkeypatch.delenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", raising=False)
    with pytest.raises(SettingsError) as refused:
        run_simulation(Settings((AUSTRALIA,), ("random", "random"), 4, 1), backend="ray")
    assert str(refused.value).startswith("a local Ray instance started now would listen on every interface")
    assert not ray.is_initialized()
