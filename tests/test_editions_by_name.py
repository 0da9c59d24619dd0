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
    assert result.exit_code == 2
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
    for name in ("rulesengine", "cli", "editions", "schemas", "docs"):
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
    # a house rule written anywhere builds on an installed edition by name, from a starter whose
    # $schema line points at the installed schema; the guides the errors name are installed too
    made = subprocess.run([boom, "new", "my-rule", "--from", "australia"], capture_output=True, text=True,
                          cwd=elsewhere)
    assert made.returncode == 0, made.stderr
    starter = (elsewhere / "my-rule.yaml").read_text(encoding="utf-8")
    schema_line = starter.splitlines()[0]
    assert schema_line.startswith("# yaml-language-server: $schema=" + str(env_dir))
    assert Path(schema_line.split("=", 1)[1]).is_file()
    (elsewhere / "my-rule.yaml").write_text(starter + "rounds: 3\n", encoding="utf-8")
    checked = subprocess.run([boom, "validate", "my-rule.yaml"], capture_output=True, text=True, cwd=elsewhere)
    assert checked.returncode == 0 and "ok: Boomerang: Australia (my rule)" in checked.stdout, checked.stderr
    for args, suffix in ((["schema", "--path"], "edition.schema.json"), (["docs", "dsl", "--path"], "dsl.md")):
        where = subprocess.run([boom, *args], capture_output=True, text=True, cwd=elsewhere).stdout.strip()
        assert where.startswith(str(env_dir)) and where.endswith(suffix) and Path(where).is_file()
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


def test_a_house_rule_extends_a_shipped_edition_by_name_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "three.yaml").write_text("extends: australia\nid: three\nrounds: 3\n", encoding="utf-8")
    result = invoke("validate", "three.yaml")
    assert result.exit_code == 0 and "three.yaml: ok: Boomerang: Australia, 28 cards" in result.output
    (tmp_path / "typo.yaml").write_text("extends: austrlia\nid: typo\n", encoding="utf-8")
    result = invoke("validate", "typo.yaml")
    assert result.exit_code == 1
    assert "typo.yaml:1:10: error: cannot find the edition 'austrlia'" in result.output
    assert "hint: did you mean 'australia'?" in result.output


def test_boom_new_writes_a_starter_that_validates_and_never_overwrites(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("new", "koala-bonus", "--from", "usa")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "koala-bonus.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[:4] == [f"# yaml-language-server: $schema={ROOT / 'schemas' / 'edition.schema.json'}",
                                     "# A house rule of Boomerang: USA: say in a line what it changes.",
                                     "extends: usa", "id: koala-bonus"]
    assert invoke("validate", "koala-bonus.yaml").exit_code == 0
    again = invoke("new", "koala-bonus", "--from", "usa")
    assert again.exit_code == 2 and "koala-bonus.yaml exists already" in again.output
    by_path = invoke("new", "mine", "--from", str(ROOT / "editions" / "variants" / "australia-direction.yaml"))
    assert by_path.exit_code == 0
    assert f"extends: {os.path.relpath(ROOT / 'editions' / 'variants' / 'australia-direction.yaml', tmp_path)}" \
        in (tmp_path / "mine.yaml").read_text(encoding="utf-8")
    assert invoke("validate", "mine.yaml").exit_code == 0
    assert invoke("new", "Bad Name").exit_code == 2


def test_boom_schema_and_boom_docs_give_the_installed_files():
    assert invoke("schema", "--path").output.strip() == str(ROOT / "schemas" / "edition.schema.json")
    assert json.loads(invoke("schema").output)["title"] == "boom edition"
    listed = invoke("docs").output
    assert f"authoring    {ROOT / 'docs' / 'authoring.md'}" in listed
    assert invoke("docs", "errors").output == (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    unknown = invoke("docs", "erors")
    assert unknown.exit_code == 2 and "no guide 'erors' (did you mean 'errors'?)" in unknown.output


def test_boom_editions_says_where_each_edition_lives():
    output = invoke("editions").output
    assert f"Shipped editions in {ROOT / 'editions'}" in output
    assert "variants/usa-direction.yaml" in output
