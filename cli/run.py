"""`boom run`: a full game at this terminal, humans and/or bots, seeded and replayable."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

import click
from rich.console import Console

from rulesengine import Game, load_edition
from rulesengine.agents import BOTS, agent_seed
from rulesengine.play import play

from .common import handles_errors
from .sheets import print_sheet, round_table
from .terminal import GameAbandoned, TerminalAgent

SEAT_KINDS = ["human", *BOTS]
DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


@click.command()
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
