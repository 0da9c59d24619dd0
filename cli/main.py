"""`boom`: validate editions, play games, score games played on a real table.

Each command lives in its own module; this one only assembles the group. A command's module is
imported when that command runs, not before: `boom --help` lists the commands from COMMANDS below
without importing any of them (tests/test_cli_start.py checks the texts against the commands').
"""

from __future__ import annotations

import importlib

import click

DISTRIBUTION = "boomerang-rules"   # the name pip knows us by (pyproject.toml); the command is `boom`

COMMANDS = {   # name -> the first paragraph of its help, in the order of use `boom --help` lists them in
    "run": "Play a full game: humans at this terminal and/or bots.",
    "validate": "Check edition files; report every error at file:line:col.",
    "rules": "Print the rules of an edition or house rule, in words: the round, the "
        "categories, the bonuses, the tie-breaks.",
    "score": "The score pad: score a game played on a real table from its record.",
    "editions": "List the shipped editions and variants: name, title, players, reconstructed or not, file.",
    "resume": "Continue a game saved by `boom run --save` (or by an interruption).",
    "replay": "Re-play a log written by `boom run --log`.",
    "serve": "Host tables for network play (`boom host` opens one, `boom join` sits at one, or "
        "a browser at http://HOST:PORT/).",
    "host": "Open a table at URL for EDITION (a file here, or an edition name the server knows).",
    "join": "Take a seat at TABLE on the server at URL and play it to the end (or --watch it).",
    "export": "Export the record of finished TABLE, for `boom score` (and `boom replay` with --log).",
    "new": "Write NAME.yaml, a starter house rule of an edition, with a working $schema line for editors.",
    "docs": "Print a guide installed with boom: `boom docs authoring`, `boom docs dsl`, `boom docs errors`...",
    "schema": "Print the JSON Schema of edition files (with --path: where it is installed).",
    "lsp": "Run the language server for edition files over stdin and stdout, for an editor to start.",
    "tournament": "Play bots against each other and print their win rates (a benchmark, not a test).",
    "ladder": "Measure the bots' strength ladder of EDITION, each rung against the one below and against greedy "
        "bots.",
    "simulate": "Play many bot games of EDITION (and of EDITION2 on the same seeds and seats) and "
        "report the balance.",
    "tune": "Find the smallest change to RULE's numbers that meets the balance targets against BASE.",
}


class LazyGroup(click.Group):
    """A click group that imports a command's module only when the command is run or asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """By use (COMMANDS' order: play, check, score, ... simulate), then any command added otherwise."""
        return [*COMMANDS, *sorted(set(super().list_commands(ctx)) - set(COMMANDS))]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            self.add_command(getattr(importlib.import_module(f"cli.{name}"), name))
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """As click lists commands, from COMMANDS for those not imported yet."""
        commands = [(name, self.commands.get(name) or click.Command(name, help=COMMANDS[name]))
                    for name in self.list_commands(ctx)]
        commands = [(name, command) for name, command in commands if not command.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in commands])


def print_version(ctx: click.Context, param, value) -> None:
    """--version: the installed distribution's version (a checkout run without installing says so)."""
    if not value or ctx.resilient_parsing:
        return
    from importlib import metadata

    try:
        version = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        version = f"(not installed as {DISTRIBUTION}: pip install -e .)"
    click.echo(f"boom {version}")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=print_version,
              help="Show the version and exit.")
def main():
    """boom: play, score and check the Boomerang family of card-drafting games."""


if __name__ == "__main__":  # pragma: no cover
    main()
