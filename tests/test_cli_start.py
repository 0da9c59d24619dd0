"""A cold `boom` starts quickly: commands imported only when run, the parser's tables cached in the
user's own folder, the edition schema checked here rather than on every run."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys

import click
from jsonschema import Draft202012Validator

from cli.main import COMMANDS, main
from rulesengine.dsl.grammar_cache import cache_file
from rulesengine.edition.schema import SCHEMA_PATH


def test_the_listed_help_of_every_command_is_its_own():
    ctx = click.Context(main)
    for name, first_paragraph in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command.name == name
        assert inspect.cleandoc(command.help).split("\n\n")[0] == first_paragraph


def test_help_imports_no_command_and_no_engine():
    code = ("import sys\nfrom cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = ('rulesengine', 'cli.', 'rich', 'lark', 'jsonschema')\n"
            "print(sorted(m for m in sys.modules if m.startswith(heavy)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "validate    Check edition files; report every error at file:line:col." in out
    assert out.splitlines()[-1] == "['cli.main']"


def test_the_edition_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def test_the_parser_cache_lives_only_in_a_folder_the_user_alone_can_write(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    assert cache_file("grammar") == str(tmp_path / "boom" / f"grammar-py{version}.lark-cache")
    assert (tmp_path / "boom").stat().st_mode & 0o777 == 0o700
    os.chmod(tmp_path / "boom", 0o777)
    assert cache_file("grammar") is False
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))
    (tmp_path / "a-file").write_text("")
    assert cache_file("grammar") is False


def test_a_commands_help_loads_no_game_no_edition_and_no_scoring_language():
    """`boom simulate --help` and the others parse their options only: the bot registry names the seat kinds
    without loading the game (bots/seeding.py imports game.blocks at a bot's first question); #35's start-up
    (CPU s at load 8.5: simulate --help 0.178 -> 0.085, tournament --help 0.174 -> 0.074)."""
    code = ("import sys\nfrom cli.main import main\ntry:\n    main([sys.argv[1], '--help'])\nexcept SystemExit:\n"
            "    pass\nheavy = ('rulesengine.game.state', 'rulesengine.game.blocks', 'rulesengine.edition', "
            "'rulesengine.dsl', 'rulesengine.simulate', 'rulesengine.fast', 'lark', 'jsonschema', 'yaml', 'numpy', "
            "'rich.progress')\n"
            "print(sorted(m for m in sys.modules if m.startswith(heavy)))")
    for command in ("simulate", "tournament", "tune", "ladder"):
        out = subprocess.run([sys.executable, "-c", code, command], capture_output=True, text=True, check=True).stdout
        assert "Usage: " in out and out.splitlines()[-1] == "[]", command


def test_the_help_of_every_command_loads_no_game_no_edition_check_no_schema_and_no_parser():
    """Every command's --help parses its options only (#35: `boom run --help` imported the whole game, 0.55 s;
    `boom score --help` 0.38 s, `boom replay --help` 0.42 s; jsonschema was loaded where nothing is validated)."""
    code = ("import sys\nfrom cli.main import main\ntry:\n    main([sys.argv[1], '--help'])\nexcept SystemExit:\n"
            "    pass\nheavy = ('rulesengine.game.state', 'rulesengine.game.blocks', 'rulesengine.game.scoring', "
            "'rulesengine.edition.loader', 'rulesengine.edition.build', 'rulesengine.edition.source', "
            "'rulesengine.edition.schema', 'rulesengine.dsl', 'rulesengine.simulate', 'rulesengine.fast', "
            "'rulesengine.net.server', 'lark', 'jsonschema', 'yaml', 'numpy', 'rich.progress')\n"
            "print(sorted(m for m in sys.modules if m.startswith(heavy)))")
    for command in COMMANDS:
        out = subprocess.run([sys.executable, "-c", code, command], capture_output=True, text=True, check=True).stdout
        assert "Usage: " in out and out.splitlines()[-1] == "[]", command
