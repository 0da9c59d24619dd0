"""`boom replay`: re-play a game log, check it, or show the game as one player saw it."""

from __future__ import annotations

import json
import sys

import click

from rulesengine.bots.seats import SEAT_KINDS, recorded_bots
from rulesengine.errors import shown
from rulesengine.game.logs import replay_log

from .common import handles_errors, text_console
from .seat_replay import show_seat


@click.command()
@click.argument("log_file", type=click.Path(dir_okay=False))
@click.option(
    "--verify",
    is_flag=True,
    help="Re-play from the seed and decisions; check every event and the final sheet byte for byte.",
)
@click.option("--seat", "seat_name", help="Show only what this player saw, in order, as the terminal showed it.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="With --seat: json prints the seat's raw events, one JSON object a line.",
)
@handles_errors
def replay(log_file, verify, seat_name, fmt):
    """Re-play a log written by `boom run --log`."""
    checking = verify or seat_name is None
    notes: list[str] = []
    game, problems = replay_log(log_file, seat_kinds=SEAT_KINDS, bots=recorded_bots if checking else None,
                                notes=notes)
    if seat_name is not None:
        if seat_name not in game.players:
            players = ", ".join(game.players)
            message = f"{seat_name!r} is not a player of this game ({players})"
            raise click.BadParameter(shown(message), param_hint="--seat")
        seat = game.players.index(seat_name)
        if fmt == "json":
            for event in game.events_for(seat):
                click.echo(json.dumps({k: v for k, v in event.items() if k != "to"}, ensure_ascii=False))
        else:
            show_seat(game, seat, text_console())
    if verify or seat_name is None:
        for problem in problems:
            click.echo(shown(problem), err=True)
        if problems:
            sys.exit(1)
        for note in notes:
            click.echo(shown(f"note: {note}"), err=True)
        sheet = game.scores.sheet() if game.over else None
        status = "finished" if game.over else f"stopped in round {game.round + 1}"
        click.echo(
            shown(
                f"{log_file}: verified: {len(game.events)} events and {len(game.decisions)} decisions "
                f"replay identically; game {status}" + (f"; winners {', '.join(sheet['winners'])}" if sheet else "")
            )
        )
