"""`boom replay`: re-play a game log, check it, or show the game as one player saw it."""

from __future__ import annotations

import json
import sys

import click

from rulesengine.escaping import one_line

from .common import InputFile, handles_errors, text_console


def seat_index(players, name: str) -> int:
    """The seat of a player named in any case (`--seat ana` is Ana); a usage error if none is."""
    found = [seat for seat, player in enumerate(players) if player.casefold() == name.casefold()]
    if len(found) != 1:
        exact = [seat for seat in found if players[seat] == name]
        if len(exact) == 1:
            return exact[0]
        message = f"{name!r} is not a player of this game ({', '.join(players)})"
        raise click.BadParameter(one_line(message), param_hint="--seat")
    return found[0]


@click.command()
@click.argument("log_file", type=InputFile())
@click.option(
    "--verify",
    is_flag=True,
    help="Re-play from the seed and decisions; check every event and the final sheet byte for byte "
    "(consistency, not authenticity: it does not show who wrote the log).",
)
@click.option(
    "--seat",
    "seat_name",
    metavar="NAME",
    help="Show only what this player saw, in order, as the terminal showed it (the name in any case).",
)
@click.option(
    "--all-seats",
    is_flag=True,
    help="A finished game with every seat: each round's sheet and every seat's cards in order, then the final sheet.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="With --seat: json prints the seat's raw events, one JSON object a line.",
)
@handles_errors
def replay(log_file, verify, seat_name, all_seats, fmt):
    """Re-play a log written by `boom run --log`."""
    # imported here, not at the top: `boom replay --help` starts without the game and the bots
    from rulesengine.bots.seats import SEAT_KINDS, recorded_bots
    from rulesengine.game.logs import replay_log

    from .seat_replay import show_all_seats, show_seat

    if seat_name is not None and all_seats:
        raise click.UsageError("give --seat NAME (one player's view) or --all-seats (every seat), not both")
    checking = verify or (seat_name is None and not all_seats)
    notes: list[str] = []
    game, problems = replay_log(log_file, seat_kinds=SEAT_KINDS, bots=recorded_bots if checking else None,
                                notes=notes)
    if all_seats:
        if not game.over:
            raise click.BadParameter(one_line(f"the game in {log_file} is not over: every seat's cards are shown only "
                                              "once it is (--seat NAME shows one player's part)"),
                                     param_hint="--all-seats")
        show_all_seats(game, text_console())
    if seat_name is not None:
        seat = seat_index(game.players, seat_name)
        if fmt == "json":
            for event in game.events_for(seat):
                click.echo(json.dumps({k: v for k, v in event.items() if k != "to"}, ensure_ascii=False))
        else:
            show_seat(game, seat, text_console())
    if checking:
        for problem in problems:
            click.echo(one_line(problem), err=True)
        if problems:
            sys.exit(1)
        for note in notes:
            click.echo(one_line(f"note: {note}"), err=True)
        sheet = game.scores.sheet() if game.over else None
        status = "finished" if game.over else f"stopped in round {game.round + 1}"
        click.echo(
            one_line(
                f"{log_file}: consistent: {len(game.events)} events and {len(game.decisions)} decisions "
                f"replay identically; game {status}" + (f"; winners {', '.join(sheet['winners'])}" if sheet else "")
            )
        )
        click.echo(
            "(this shows the log is consistent with its seed, seats and rules: not who wrote it; anyone can "
            "write a consistent log)",
            err=True,
        )
