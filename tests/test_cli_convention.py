"""One command-line convention (README, "Command-line conventions"), checked over every command.

Usage errors, a missing input file among them, exit 2; list options take repeats and commas alike;
an option shared by several commands has one type, one default and one range; help text matches the
editions and prints no 64-bit bounds; seat names are read in any case; a command that writes a file says
so; `boom --help` lists the commands by use.
"""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from conftest import EDITIONS

from cli.common import InputFile, Players, Seed, check_think
from cli.main import COMMANDS, main

AUSTRALIA = str(EDITIONS / "australia.yaml")
CONTEXT = click.Context(main)
ALL = {name: main.get_command(CONTEXT, name) for name in COMMANDS}


def invoke(*args, **kwargs):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, **kwargs)
    assert "Traceback" not in result.output
    return result


def options(name: str) -> dict:
    """Every option of a command, by its longest name."""
    return {max(p.opts, key=len): p for p in ALL[name].params if isinstance(p, click.Option)}


# every command that reads a file, with the arguments it needs besides: the missing file is 'gone.yaml'
READERS = [
    ("run", ["gone.yaml", "-p", "3"]),
    ("validate", ["gone.yaml"]),
    ("rules", ["gone.yaml"]),
    ("score", ["gone.yaml", "--record", "gone.yaml"]),
    ("score", ["--record", "gone.yaml"]),
    ("score", ["--record", "REC", "--edition", "gone.yaml"]),
    ("resume", ["gone.yaml"]),
    ("replay", ["gone.yaml"]),
    ("tournament", ["gone.yaml", "--seats", "random,random"]),
    ("simulate", ["gone.yaml", "-p", "2"]),
    ("export", ["--db", "gone.yaml", "ABCDEF"]),
    ("tune", ["australia", "gone.yaml", "-p", "2"]),
    ("ladder", ["gone.yaml"]),
]


@pytest.mark.parametrize(("command", "args"), READERS, ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_a_missing_input_file_is_a_usage_error_of_every_command(command, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "REC").write_text("players: [Ana, Ben, Cy]\nrounds: []\n")
    result = invoke(command, *args)
    assert result.exit_code == 2
    what = "database" if command == "export" else "file"
    assert f"no {what} 'gone.yaml'" in result.output


def test_every_reader_of_a_file_is_in_the_list_above():
    readers = {name for name, command in ALL.items() for p in command.params if isinstance(p.type, InputFile)}
    assert readers == {name for name, _ in READERS}


def test_every_list_option_takes_repeats_and_a_plural_name_where_english_has_one():
    lists = {(name, tuple(sorted(p.opts))) for name in COMMANDS for p in options(name).values() if p.multiple}
    assert lists == {
        ("run", ("--name", "--names")),
        ("run", ("--seat", "--seats")),
        ("run", ("--seat-option", "--seat-options")),
        ("score", ("--seat-option", "--seat-options")),
        ("host", ("--seat-option", "--seat-options")),
        ("tournament", ("--seat", "--seats")),
        ("ladder", ("--rung", "--rungs")),
        ("simulate", ("--seat", "--seats")),
        ("simulate", ("--seat-option", "--seat-options")),
        ("serve", ("--allow-origin", "--allow-origins")),
        ("tune", ("--seat", "--seats")),
        ("tune", ("--target", "--targets")),
        ("tune", ("--vary",)),      # a verb: no plural; a list all the same (--vary a=1..2,b=0..3)
    }


def test_names_and_seats_as_a_list_or_repeated_give_the_same_game():
    repeated = invoke("run", AUSTRALIA, "-p", 3, "--seed", 5, "-q", "--name", "Zoe", "--name", "Yan",
                      "--seat", "greedy", "--seat", "random")
    listed = invoke("run", AUSTRALIA, "-p", 3, "--seed", 5, "-q", "--names", "Zoe,Yan", "--seats", "greedy,random")
    assert repeated.exit_code == listed.exit_code == 0
    assert repeated.output == listed.output
    assert repeated.output.startswith("Boomerang: Australia: Zoe (greedy), Yan (random), Ana (random); seed 5\n")


def test_simulate_takes_the_seats_repeated_or_as_a_list():
    listed = invoke("simulate", AUSTRALIA, "--seats", "greedy,random", "-n", 4, "-j", 1, "--format", "json")
    repeated = invoke("simulate", AUSTRALIA, "--seat", "greedy", "--seat", "random", "-n", 4, "-j", 1,
                      "--format", "json")
    assert json.loads(listed.output)["settings"]["seats"] == ["greedy", "random"]
    assert listed.output == repeated.output


@pytest.mark.parametrize("names", [["--name", "Ana", "--name", "Ana"], ["--names", "Ana,ana"]])
def test_a_name_given_twice_is_a_usage_error(names):
    result = invoke("run", AUSTRALIA, "-p", 3, *names)
    assert result.exit_code == 2
    assert "is given twice (as 'Ana' already): each player needs a name of their own" in result.output


def test_an_option_several_commands_share_has_one_type_default_and_range():
    seeds = {name: options(name)["--seed"] for name in COMMANDS if "--seed" in options(name)}
    assert set(seeds) == {"run", "tournament", "simulate", "host", "tune", "ladder"}
    assert all(isinstance(option.type, Seed) for option in seeds.values())
    assert options("join")["--bot-seed"].type is seeds["run"].type
    players = {name: options(name)["--players"] for name in COMMANDS if "--players" in options(name)}
    assert set(players) == {"run", "simulate", "host", "tune"}
    assert all(isinstance(option.type, Players) for option in players.values())
    jobs = {name: options(name)["--jobs"] for name in COMMANDS if "--jobs" in options(name)}
    assert set(jobs) == {"tournament", "simulate", "tune", "ladder"}
    assert {(option.default, option.help) for option in jobs.values()} == {
        (None, "Worker processes (default: the number of CPUs).")}
    think = {name: options(name)["--think"] for name in COMMANDS if "--think" in options(name)}
    assert set(think) == {"run", "tournament", "ladder"}
    assert {(option.type, option.default, option.callback) for option in think.values()} == {
        (click.FLOAT, None, check_think)}


@pytest.mark.parametrize("command", ["run", "tournament", "simulate", "host"])
def test_a_negative_seed_is_refused_by_every_command(command):
    args = {"run": [AUSTRALIA, "-p", 3], "tournament": [AUSTRALIA, "--seats", "random,random"],
            "simulate": [AUSTRALIA, "-p", 2], "host": ["ws://127.0.0.1:9", "australia", "-p", 2]}[command]
    result = invoke(command, *args, "--seed", -1)
    assert result.exit_code == 2
    assert "Invalid value for '--seed': -1 is not a seed: a whole number from 0 up, below 2**63" in result.output


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_prints_no_64_bit_bound_and_the_players_the_editions_allow(command):
    text = invoke(command, "--help").output
    assert "922337" not in text and "2**63" not in text
    if "--players" in options(command):
        assert "3-5 in the 2010 game" in " ".join(text.split())


def test_seat_names_are_read_in_any_case_and_replay_shows_every_seat(tmp_path):
    log = tmp_path / "game.jsonl"
    assert invoke("run", AUSTRALIA, "-p", 3, "--seed", 2, "-q", "--log", log).exit_code == 0
    assert invoke("replay", log, "--seat", "ben").output == invoke("replay", log, "--seat", "Ben").output
    unknown = invoke("replay", log, "--seat", "bob")
    assert unknown.exit_code == 2 and "'bob' is not a player of this game (Ana, Ben, Cy)" in unknown.output
    every = invoke("replay", log, "--all-seats").output
    assert "  Ana: Throw Y (7) | @ M P I T | Catch R (5); activities: Bushwalking\n" in every
    assert every.count("Round 4 of 4") == 1 and every.rstrip().endswith("Winner: Cy")
    both = invoke("replay", log, "--all-seats", "--seat", "Ana")
    assert both.exit_code == 2 and "give --seat NAME (one player's view) or --all-seats (every seat), not both" in (
        both.output)


def test_all_seats_waits_for_the_end_of_the_game(tmp_path):
    log = tmp_path / "game.jsonl"
    stopped = invoke("run", AUSTRALIA, "-p", 3, "--seat", "human", "--log", log, "--save", tmp_path / "s.json",
                     input="A\n")
    assert stopped.exit_code == 130
    refused = invoke("replay", log, "--all-seats")
    assert refused.exit_code == 2 and "is not over: every seat's cards are shown only once it is" in refused.output


def test_the_commands_are_listed_by_use():
    listed = [line.split()[0] for line in invoke("--help").output.split("Commands:\n")[1].splitlines()]
    assert listed[:4] == ["run", "validate", "rules", "score"]
    assert listed == list(COMMANDS)


def test_run_says_every_file_it_wrote(tmp_path):
    save, log, record = tmp_path / "g.json", tmp_path / "g.jsonl", tmp_path / "g.yaml"
    result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "-q", "--save", save, "--log", log, "--save-record", record)
    assert result.exit_code == 0
    assert result.output.endswith(f"save written to {save}\nlog written to {log}\nrecord written to {record}\n")
    assert save.is_file() and log.is_file() and record.is_file()
