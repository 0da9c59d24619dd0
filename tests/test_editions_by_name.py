"""Editions by name, from anywhere: `boom editions` lists the shipped ones, a bare name selects one,
and a plain `pip install .` in a fresh environment ships them (with the schema) outside the repository."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["australia", "boomerang-2010", "europe", "usa"] + sorted(
    p.stem for p in (ROOT / "editions" / "variants").glob("*.yaml"))


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_editions_lists_every_shipped_edition_with_players_and_provenance():
    result = invoke("editions", "--format", "json")
    assert result.exit_code == 0
    listed = json.loads(result.output)
    assert [e["name"] for e in listed] == SHIPPED
    usa = listed[3]
    assert (usa["id"], usa["title"], usa["players"], usa["reconstructed_facts"]) == (
        "usa",
        "Boomerang: USA",
        [2, 4],
        159,
    )
    assert [e["reconstructed_facts"] for e in listed[:3]] == [0, 144, 103]
    assert next(e for e in listed if e["name"] == "australia-direction")["players"] == [3, 4]


def test_a_bare_name_selects_a_shipped_edition_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    by_name = invoke("run", "usa-direction", "--players", "3", "--seed", "5", "-q")
    by_path = invoke(
        "run", str(ROOT / "editions" / "variants" / "usa-direction.yaml"), "--players", "3", "--seed", "5", "-q"
    )
    assert by_name.exit_code == 0
    assert by_name.output == by_path.output


def test_an_unknown_name_says_which_edition_was_meant(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("run", "austrlia", "--players", "3")
    assert result.exit_code == 1
    assert (
        "no file 'austrlia' and no shipped edition of that name (did you mean 'australia'? `boom editions` lists them)"
        in result.output
    )


@pytest.mark.slow
def test_pip_install_ships_the_editions_and_the_schema(tmp_path):
    """A plain `pip install` (no -e) of a copy of the project into a fresh venv, run from elsewhere.
    The dependencies come from this environment through a .pth file and this environment's pip
    installs, so nothing is downloaded but the build backend."""
    source = _mkdir(tmp_path / "src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("rulesengine", "cli", "editions", "schemas"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)  # this environment's pip installs into it (--python)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "boom-test-deps.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(source)],
        check=True,
        cwd=tmp_path,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    shutil.rmtree(source)  # nothing may be read from the copy any more
    elsewhere = _mkdir(tmp_path / "elsewhere")
    boom = env_dir / "bin" / "boom"
    listed = subprocess.run([boom, "editions", "--format", "json"], capture_output=True, text=True, cwd=elsewhere)
    assert listed.returncode == 0, listed.stderr
    assert [e["name"] for e in json.loads(listed.stdout)] == SHIPPED
    assert all(str(env_dir) in e["path"] for e in json.loads(listed.stdout))
    played = subprocess.run(
        [boom, "run", "australia", "--players", "3", "--seed", "1", "-q"], capture_output=True, text=True, cwd=elsewhere
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout == invoke("run", "australia", "--players", "3", "--seed", "1", "-q").output  # as here
    # a server finds the protocol's schemas (it checks every message against them) and the editions by name
    probe = (
        "from rulesengine.net.protocol import SCHEMA_DIR, validator; validator('host'); print(SCHEMA_DIR); "
        "from rulesengine.net.editions import known_editions; print(known_editions()['usa'])"
    )
    found = subprocess.run(
        [python, "-c", probe],
        capture_output=True,
        text=True,
        cwd=elsewhere,
    )
    assert found.returncode == 0, found.stderr
    schemas, usa = found.stdout.split()
    assert schemas.startswith(str(env_dir)) and schemas.endswith("protocol") and usa.startswith(str(env_dir))


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path
