"""Issue #32, no secret printed: boom quotes source lines only from files that parse as what they
should be (an edition has `format`, `id`, `cards` or `extends` at its top; a record `players` or
`rounds`; a save `type`), says so when it quotes through a symbolic link, and never prints a value
of a file of another kind. The secrets are files kept in tests/hostile/."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"
HOSTILE = Path(__file__).resolve().parent / "hostile"
SECRETS = ("AKIAHOSTILE", "hostile/secret", "tok-hostile", "hostile-db-password", "hostile-one-line")


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def no_secret(output: str) -> bool:
    return not any(secret in output for secret in SECRETS)


@pytest.fixture
def home(tmp_path):
    """The victim's files, as an attacker would link to them."""
    for name in ("aws-credentials", "docker-compose.yaml", "compose-duplicate.yaml", "password.txt"):
        shutil.copy(HOSTILE / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["run", "-p", "2"]])
def test_a_yaml_link_to_aws_credentials_named_on_the_command_line_prints_no_line(home, command):
    (home / "edition.yaml").symlink_to(home / "aws-credentials")
    result = invoke(*command, home / "edition.yaml")
    assert result.exit_code == 1 and no_secret(result.output)
    assert f"{home / 'edition.yaml'}:2:1: error: YAML syntax: expected '<document start>', but found" in result.output


def test_a_record_linked_to_aws_credentials_prints_no_line(home):
    (home / "game.yaml").symlink_to(home / "aws-credentials")
    result = invoke("score", AUSTRALIA, "--record", home / "game.yaml")
    assert result.exit_code == 1 and no_secret(result.output)


def test_a_save_linked_to_aws_credentials_prints_no_line(home):
    (home / "game.json").symlink_to(home / "aws-credentials")
    result = invoke("resume", home / "game.json")
    assert result.exit_code != 0 and no_secret(result.output)


def test_a_docker_compose_file_reached_by_extends_prints_nothing_of_it(home):
    (home / "house.yaml").write_text("extends: docker-compose.yaml\nid: house\n")
    result = invoke("validate", home / "house.yaml")
    assert result.exit_code == 1 and no_secret(result.output)
    assert result.output == (
        f"{home / 'house.yaml'}:1:10: error: {home / 'docker-compose.yaml'} is not an edition "
        "(it has none of the keys format, id, cards, extends) [X804]\n"
        "    extends: docker-compose.yaml\n"
        "             ^~~~~~~~~~~~~~~~~~~\n"
        f"{home / 'house.yaml'}: 1 error\n"
    )


@pytest.mark.parametrize("name", ["docker-compose.yaml", "compose-duplicate.yaml"])
def test_a_docker_compose_file_named_on_the_command_line_is_refused_naming_only_the_file(home, name):
    result = invoke("validate", home / name)
    assert result.output == (
        f"{home / name}:1:1: error: this file is not an edition (it has none of the keys format, id, cards, "
        "extends) [S103]\n"
        f"{home / name}: 1 error\n"
    )
    assert "api_token" not in result.output  # not even its keys


def test_a_one_line_password_file_is_never_quoted(home):
    shutil.copy(home / "password.txt", home / "edition.yaml")
    result = invoke("validate", home / "edition.yaml")
    assert result.exit_code == 1 and no_secret(result.output)
    assert "an edition must be a YAML mapping" in result.output


def test_the_json_format_holds_no_secret_either(home):
    (home / "edition.yaml").symlink_to(home / "docker-compose.yaml")
    result = invoke("validate", "--format", "json", home / "edition.yaml")
    assert no_secret(result.output)
    assert [d["message"] for d in json.loads(result.output)] == [
        "this file is not an edition (it has none of the keys format, id, cards, extends)"
    ]


def test_a_quote_through_a_symbolic_link_says_so(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text(AUSTRALIA.read_text().replace("hand_size: 7", "hand_size: seven", 1))
    (tmp_path / "link.yaml").symlink_to(real)
    result = invoke("validate", tmp_path / "link.yaml")
    assert result.exit_code == 1
    assert "    hand_size: seven\n" in result.output
    assert f"hint: {tmp_path / 'link.yaml'} is a symbolic link to {real}" in result.output
    assert invoke("validate", real).output.count("symbolic link") == 0


def test_a_parent_through_a_symbolic_link_says_so_too(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text(AUSTRALIA.read_text().replace("hand_size: 7", "hand_size: seven", 1))
    (tmp_path / "parent.yaml").symlink_to(real)
    (tmp_path / "house.yaml").write_text("extends: parent.yaml\nid: house\n")
    result = invoke("validate", tmp_path / "house.yaml")
    assert "    hand_size: seven\n" in result.output
    assert f"{tmp_path / 'parent.yaml'} is a symbolic link to {real}" in result.output
