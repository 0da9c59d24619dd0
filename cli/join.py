"""`boom join`: sit at a table on a server, as a human at this terminal or as a bot, and play to the end."""

from __future__ import annotations

import asyncio
import secrets

import click

from rulesengine.bots.registry import BOTS, make_bot

from .common import SEED, handles_errors, text_console
from .sheets import print_sheet, round_table
from .terminal import GameAbandoned, TerminalAgent


@click.command()
@click.argument("url")
@click.argument("table")
@click.option("--name", required=True, help="Your name at the table.")
@click.option(
    "--bot", "bot_kind", type=click.Choice(list(BOTS)), default=None, help="Let a bot play this seat instead of you."
)
@click.option("--bot-seed", type=SEED, default=None, help="Seed of that bot, 0 or more (default: a random one).")
@click.option("--token", default=None, help="Come back to your seat with the token printed when you left it.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final sheet.")
@handles_errors
def join(url, table, name, bot_kind, bot_seed, token, quiet):
    """Take a seat at TABLE on the server at URL and play it to the end."""
    from rulesengine.net.client import play_seat

    table = table.upper()
    if not (4 <= len(table) <= 12 and table.isascii() and table.isalnum()):
        raise click.BadParameter(
            f"'{table}' is not a table code (letters and digits, as `boom host` printed it)", param_hint="TABLE"
        )
    if not (1 <= len(name) <= 24 and name.isprintable()):
        raise click.BadParameter("a name is 1 to 24 printable characters", param_hint="--name")

    console = text_console()
    seed = secrets.randbelow(2**31) if bot_seed is None else bot_seed

    def make_agent(edition):
        return make_bot(bot_kind, edition, seed) if bot_kind else TerminalAgent(edition, console)

    tokens = [token] if token else []

    def on_message(seat, message):
        if message.get("type") == "joined" and "token" in message:
            tokens.append(message["token"])
        if quiet:
            return
        kind = message.get("type")
        if kind == "joined" and "token" in message:
            console.print(f"{seat.name} sits at seat {message['seat'] + 1} of table {seat.table}")
        elif kind == "lobby":
            waiting = sum(1 for s in message["seats"] if s["status"] == "open")
            if waiting:
                console.print(f"waiting for {waiting} more player{'s' if waiting != 1 else ''}")
        elif kind == "seat_status" and message["seat"] != seat.number:
            said = {
                "away": "lost the connection",
                "bot": "is gone; a bot plays for them until they return",
                "connected": "is here",
            }
            console.print(f"{message['name']} {said[message['status']]}")
        elif kind == "error" and seat.number is not None:
            console.print(f"server: {message['message']}")
        elif kind == "state" and not bot_kind:  # as `boom run` does: each round's sheet once it is scored
            for event in message["events"]:
                if event["type"] == "round_scored" and event["round"] <= len(message["view"]["history"]):
                    console.print(round_table(seat.edition, message["view"]["sheet"], event["round"] - 1))

    try:
        seat = asyncio.run(play_seat(url, table, name, make_agent, token=token, on_message=on_message))
    except (GameAbandoned, KeyboardInterrupt):
        click.echo(
            f"\nYou left table {table}; a bot plays your seat after the server's timeout. Come back with: "
            f"boom join {url} {table} --name {name} --token {tokens[-1] if tokens else '(none yet)'}",
            err=True,
        )
        raise SystemExit(130) from None
    print_sheet(console, seat.edition, seat.final["sheet"], per_round=False)
