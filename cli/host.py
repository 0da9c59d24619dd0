"""`boom host`: open a table on a server and print its join code."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import click

from rulesengine.bots.registry import BOTS
from rulesengine.escaping import one_line
from rulesengine.net.clocks import describe, parse_span

from .common import PLAYERS_HELP, SEED, Players, handles_errors, list_values


class MoveTime(click.ParamType):
    name = "TIME"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            return parse_span(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


MOVE_TIME = MoveTime()


@click.command()
@click.argument("url")
@click.argument("edition")
@click.option("--players", "-p", type=Players(), required=True, help=PLAYERS_HELP)
@click.option(
    "--bots",
    type=click.IntRange(0, 12),
    default=0,
    show_default=True,
    help="Seats played by bots on the server (the last ones).",
)
@click.option("--bot-kind", type=click.Choice(list(BOTS)), default="greedy", show_default=True)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Seed of the deal, 0 or more (default: the server picks one and keeps it secret).",
)
@click.option(
    "--clock",
    type=MOVE_TIME,
    default=None,
    help="Time each seat has for each move: 30s for a live game, 24h or 2d for a slow one (default: no clock).",
)
@click.option(
    "--on-time",
    type=click.Choice(["bot", "forfeit"]),
    default="bot",
    show_default=True,
    help="When a seat's clock runs out: a bot makes the move (and plays on while its player is away), "
    "or the seat forfeits (a bot plays it to the end).",
)
@click.option(
    "--seat-option",
    "--seat-options",
    "seat_options",
    multiple=True,
    metavar="SEAT.OPTION=N[,...]",
    help="Set a seat option the edition declares for one seat, by its number from 1 (players take the seats in the "
    "order they join, bots the last ones): --seat-option 1.handicap=-5; repeat it or give a list.",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def host(url, edition, players, bots, bot_kind, seed, clock, on_time, seat_options, fmt):
    """Open a table at URL for EDITION (a file here, or an edition name the server knows)."""
    if bots > players:
        raise click.BadParameter(f"{bots} bots for {players} players", param_hint="--bots")
    if Path(edition).is_file():
        from rulesengine.net.editions import edition_data  # here: `boom host --help` reads no edition

        sent = edition_data(edition)
    elif "/" in edition or Path(edition).suffix.lower() in (".yaml", ".yml", ".json"):
        raise click.BadParameter(f"no edition file {edition}", param_hint="EDITION")
    else:
        sent = edition
    table = _seats_set(seat_options, players)
    from rulesengine.net.client import host_table, page_link

    hosted = asyncio.run(host_table(url, sent, players, bots, bot_kind, seed, clock=clock, on_time=on_time,
                                    seat_options=table))
    link = page_link(url, hosted)
    if fmt == "json":
        click.echo(json.dumps({"table": hosted["table"], "url": url, "link": link}))
        return
    humans = players - bots
    click.echo(one_line(f"table {hosted['table']} at {url}: {humans} seat{'s' if humans != 1 else ''} to fill"))
    if "clock" in hosted:
        click.echo(one_line(f"  clock: {describe(hosted['clock'])}"))
    click.echo(one_line(f"  in a browser: {link}"))
    click.echo(one_line(f"  at a terminal: boom join {url} {hosted['table']} --name NAME"))


def _seats_set(values, players: int) -> dict:
    """--seat-option by seat number: seat (text, from 1) -> option -> number; the server checks them against the
    edition (bad_seat_options)."""
    from rulesengine.edition.seat_options import parse

    try:
        given = parse(list_values(values))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--seat-option") from None
    for seat in given:
        if not (seat.isdigit() and 1 <= int(seat) <= players):
            raise click.BadParameter(f"'{seat}' is not a seat: on boom host seats are numbered 1 to {players}",
                                     param_hint="--seat-option")
    return {str(int(seat)): values for seat, values in given.items()}
