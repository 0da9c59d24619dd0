"""`boom`: validate editions, play games, score games played on a real table."""

from __future__ import annotations

import functools
import json
import os
import secrets
import sys
from pathlib import Path

import click
from rich.console import Console

from rulesengine import BoomError, Game, check_edition, load_edition, load_record, render, score_record
from rulesengine.agents import BOTS, agent_seed
from rulesengine.play import play

from .sheets import print_sheet, round_table, sheet_json
from .terminal import GameAbandoned, TerminalAgent

SEAT_KINDS = ["human", *BOTS]
DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _fail(diagnostics, code: int = 1):
    for diagnostic in diagnostics:
        click.echo(render(diagnostic), err=True)
    sys.exit(code)


def handles_errors(command):
    """Every user-facing failure ends as located messages and a non-zero exit, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except BoomError as exc:
            _fail(exc.diagnostics)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - last line of defence: say so, do not dump a stack
            if os.environ.get("BOOM_DEBUG"):
                raise
            click.echo(f"internal error: {type(exc).__name__}: {exc} (set BOOM_DEBUG=1 for details; please report it)", err=True)
            sys.exit(3)
    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boom", message="boom %(version)s")
def main():
    """boom: play, score and check the Boomerang family of card-drafting games."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="json: one list of diagnostics for editors and CI.")
@handles_errors
def validate(files, fmt):
    """Check edition files; report every error at file:line:col."""
    failed = False
    everything = []
    for file in files:
        edition, diagnostics = check_edition(file)
        errors = [d for d in diagnostics if d.severity == "error"]
        failed = failed or bool(errors) or edition is None
        everything.extend(diagnostics)
        if fmt == "json":
            continue
        for diagnostic in diagnostics:
            click.echo(render(diagnostic), err=bool(errors))
        if edition is not None and not errors:
            races = len(edition.races)
            click.echo(f"{file}: ok: {edition.name}, {len(edition.cards)} cards, {len(edition.categories)} categories, "
                       f"{races} race{'s' if races != 1 else ''}, {edition.reconstructed_facts} reconstructed facts")
        else:
            count = len(errors)
            click.echo(f"{file}: {count} error{'s' if count != 1 else ''}", err=True)
    if fmt == "json":
        click.echo(json.dumps([d.as_dict() for d in everything], indent=2))
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", "-p", type=click.IntRange(1, 12), required=True, help="Number of seats.")
@click.option("--seed", type=int, default=None, help="Seed of the game (default: a random one, printed so the game can be replayed).")
@click.option("--seat", "seats", multiple=True, type=click.Choice(SEAT_KINDS), help="Who sits at each seat, in order; seats not given are random bots.")
@click.option("--name", "names", multiple=True, help="Player names, in seat order.")
@click.option("--save-record", type=click.Path(dir_okay=False), help="Write the finished game as a record (YAML or JSON by extension) for `boom score`.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final sheet and ranking.")
@handles_errors
def run(file, players, seed, seats, names, save_record, quiet):
    """Play a full game: humans at this terminal and/or bots."""
    edition = load_edition(file)
    if len(seats) > players:
        raise click.BadParameter(f"{len(seats)} seats given for {players} players", param_hint="--seat")
    if len(names) > players:
        raise click.BadParameter(f"{len(names)} names given for {players} players", param_hint="--name")
    seed = secrets.randbelow(2**31) if seed is None else seed
    player_names = list(names) + [n for n in DEFAULT_NAMES if n not in names][: players - len(names)]
    kinds = list(seats) + ["random"] * (players - len(seats))
    game = Game(edition, player_names, seed)
    agents = [TerminalAgent(edition) if kind == "human" else BOTS[kind](agent_seed(seed, seat)) for seat, kind in enumerate(kinds)]
    console = Console(highlight=False)
    console.print(f"{edition.name}: {', '.join(f'{n} ({k})' for n, k in zip(player_names, kinds, strict=True))}; seed {seed}")
    shown = [0]

    def after_step(game):
        while shown[0] < game.round and not quiet:
            console.print(round_table(edition, game.scores.sheet(), shown[0]))
            shown[0] += 1

    try:
        play(game, agents, after_step)
    except GameAbandoned:
        click.echo(f"\nGame abandoned in round {game.round + 1}. Replay it with: boom run {file} --players {players} --seed {seed}", err=True)
        sys.exit(130)
    sheet = game.scores.sheet()
    print_sheet(console, edition, sheet, per_round=False)
    if save_record:
        _write_record(save_record, game.record())
        console.print(f"record written to {save_record}")


def _write_record(path: str, record: dict) -> None:
    target = Path(path)
    if target.suffix.lower() == ".json":
        text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    else:
        import yaml

        text = yaml.safe_dump(record, sort_keys=False, allow_unicode=True, default_flow_style=None)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--record", "record_path", required=True, type=click.Path(dir_okay=False), help="The game: players and each round's drafts and choices (YAML or JSON).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def score(file, record_path, fmt):
    """The score pad: score a game played on a real table from its record."""
    edition = load_edition(file)
    record, source_map = load_record(record_path)
    sheet = score_record(edition, record, source_map)
    if fmt == "json":
        click.echo(sheet_json(sheet))
        return
    print_sheet(Console(highlight=False), edition, sheet)


if __name__ == "__main__":  # pragma: no cover
    main()
