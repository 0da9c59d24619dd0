"""`boom join`: sit at a table on a server, as a human at this terminal or as a bot, and play to the end."""

from __future__ import annotations

import asyncio
import secrets

import click

from rulesengine.bots.registry import BOTS
from rulesengine.escaping import one_line
from rulesengine.net.clocks import describe, span

from .common import SEED, handles_errors, text_console


@click.command()
@click.argument("url")
@click.argument("table")
@click.option("--name", default=None, help="Your name at the table (not with --watch).")
@click.option(
    "--watch",
    is_flag=True,
    help="Watch the table instead of sitting at it: the public table, live or a round behind as its host chose.",
)
@click.option(
    "--bot", "bot_kind", type=click.Choice(list(BOTS)), default=None, help="Let a bot play this seat instead of you."
)
@click.option("--bot-seed", type=SEED, default=None, help="Seed of that bot, 0 or more (default: a random one).")
@click.option("--token", default=None, help="Come back to your seat with the token printed when you left it.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final sheet.")
@handles_errors
def join(url, table, name, watch, bot_kind, bot_seed, token, quiet):
    """Take a seat at TABLE on the server at URL and play it to the end (or --watch it)."""
    # imported here, not at the top: `boom join --help` starts without the game, the bots and rich
    from rulesengine.bots.registry import make_bot
    from rulesengine.net.client import play_seat

    from .sheets import print_sheet, round_table
    from .terminal import GameAbandoned, TerminalAgent

    table = table.upper()
    if not (4 <= len(table) <= 12 and table.isascii() and table.isalnum()):
        raise click.BadParameter(
            f"'{table}' is not a table code (letters and digits, as `boom host` printed it)", param_hint="TABLE"
        )
    if watch:
        if name or bot_kind or token:
            raise click.BadParameter("a spectator holds no seat: no --name, --bot or --token", param_hint="--watch")
        _watch(url, table, quiet)
        return
    if name is None:
        raise click.BadParameter("give your name at the table (or --watch to look on)", param_hint="--name")
    if not (1 <= len(name) <= 24 and name.isprintable()):
        raise click.BadParameter("a name is 1 to 24 printable characters", param_hint="--name")

    console = text_console()
    seed = secrets.randbelow(2**31) if bot_seed is None else bot_seed

    def make_agent(edition):
        return make_bot(bot_kind, edition, seed) if bot_kind else TerminalAgent(edition, console)

    tokens = [token] if token else []
    clocked: set = set()  # the questions whose clock was told

    def on_message(seat, message):
        if message.get("type") == "joined" and "token" in message:
            tokens.append(message["token"])
        if quiet:
            return
        kind = message.get("type")
        if kind == "joined" and "token" in message:
            console.print(one_line(f"{seat.name} sits at seat {message['seat'] + 1} of table {seat.table}"))
        elif kind == "lobby":
            if "clock" in message and "clock" not in clocked:
                clocked.add("clock")
                console.print(one_line(f"clock: {describe(message['clock'])}"))
            waiting = sum(1 for s in message["seats"] if s["status"] == "open")
            if waiting:
                console.print(f"waiting for {waiting} more player{'s' if waiting != 1 else ''}")
        elif kind == "seat_status" and message["status"] in ("late", "forfeit"):
            who = "your" if message["seat"] == seat.number else f"{message['name']}'s"
            then = "a bot makes this move" if message["status"] == "late" else "a bot plays the seat to the end"
            console.print(f"{who} time ran out: {then}")
        elif kind == "seat_status" and message["seat"] != seat.number:
            said = {
                "away": "lost the connection",
                "bot": "is gone; a bot plays for them until they return",
                "connected": "is here",
            }
            console.print(one_line(f"{message['name']} {said[message['status']]}"))
        elif kind == "error" and seat.number is not None:
            console.print(one_line(f"server: {message['message']}"))
        elif kind == "state" and not bot_kind and message.get("clock", {}).get("left") is not None:
            asked = {p["id"] for p in message["view"]["pending"]} - clocked
            if asked:
                clocked.update(asked)
                console.print(f"your clock: {span(message['clock']['left'])} for this move")
        if kind == "state" and not bot_kind:  # as `boom run` does: each round's sheet once it is scored
            for event in message["events"]:
                if event["type"] == "round_scored" and event["round"] <= len(message["view"]["history"]):
                    console.print(round_table(seat.edition, message["view"]["sheet"], event["round"] - 1))

    try:
        seat = asyncio.run(play_seat(url, table, name, make_agent, token=token, on_message=on_message))
    except (GameAbandoned, KeyboardInterrupt):
        click.echo(
            "\n"
            + one_line(
                f"You left table {table}; a bot plays your seat after the server's timeout. Come back with: "
                f"boom join {url} {table} --name {name} --token {tokens[-1] if tokens else '(none yet)'}"
            ),
            err=True,
        )
        raise SystemExit(130) from None
    print_sheet(console, seat.edition, seat.final["sheet"], per_round=False)


def _watch(url: str, table: str, quiet: bool) -> None:
    from rulesengine.net.client import watch_table

    from .watching import Watcher

    watcher = Watcher(text_console(), quiet)
    try:
        asyncio.run(watch_table(url, table, watcher.on_message))
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    watcher.finish()
