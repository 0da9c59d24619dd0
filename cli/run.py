"""`boom run`: a full game at this terminal, humans and/or bots, seeded and replayable."""

from __future__ import annotations

import secrets

import click

from rulesengine.bots.registry import BOTS
from rulesengine.escaping import one_line

from .common import (
    PLAYERS_HELP,
    SEED,
    InputFile,
    Players,
    budget_seconds,
    check_names,
    echo_wrapped,
    handles_errors,
    search_budget_options,
    seat_kinds,
    seat_option_option,
    seat_options_for,
)

SEAT_KINDS = ["human", *BOTS]
DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]  # one a seat


@click.command()
@click.argument("file", type=InputFile(edition=True))
@click.option("--players", "-p", type=Players(), required=True, help=PLAYERS_HELP)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Seed of the game, 0 or more (default: a random one, printed so the game can be replayed; "
    "at the end when a human plays).",
)
@click.option(
    "--seat",
    "--seats",
    "seat_lists",
    multiple=True,
    metavar="KIND[,KIND...]",
    help="Who sits at each seat, in order: repeat it or give a list (--seats human,greedy); seats not given "
    f"are random bots. Kinds: {', '.join(SEAT_KINDS)}.",
)
@click.option(
    "--name",
    "--names",
    "names",
    multiple=True,
    callback=check_names,
    metavar="NAME[,NAME...]",
    help="Player names, in seat order: repeat it or give a list (--names Ana,Ben); no name twice.",
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False),
    help="Keep the game's state in this file after every decision (for `boom resume`).",
)
@click.option(
    "--log", "log_path", type=click.Path(dir_okay=False), help="Write every event as JSON lines (for `boom replay`)."
)
@click.option(
    "--save-record",
    type=click.Path(dir_okay=False),
    help="Write the finished game as a record (YAML or JSON by extension) for `boom score`.",
)
@click.option("--verbose", "-v", is_flag=True, help="After each round: every seat's cards in order, and its choices.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final sheet and ranking (no note on reconstruction).")
@seat_option_option
@search_budget_options
@handles_errors
def run(
    file,
    players,
    seed,
    seat_lists,
    names,
    save_path,
    log_path,
    save_record,
    verbose,
    quiet,
    search_rollouts,
    search_seconds,
    think,
    seat_options,
):
    """Play a full game: humans at this terminal and/or bots.

    EDITION is an edition file or the name of a shipped edition (`boom editions`)."""
    # imported here, not at the top: `boom run --help` starts without the game, the edition and the language
    from rulesengine import load_edition
    from rulesengine.edition.catalogue import reconstructed_notice
    from rulesengine.edition.seat_options import in_words
    from rulesengine.game.outputs import check_outputs, holding
    from rulesengine.game.saves import Session

    from .playing import play_session

    seats = seat_kinds(seat_lists, SEAT_KINDS, "--seat")
    edition = load_edition(file)
    if not edition.players_min <= players <= edition.players_max:
        allowed = f"{edition.players_min} to {edition.players_max} players"
        raise click.BadParameter(f"{edition.name} is for {allowed}, not {players}", param_hint="--players")
    if len(seats) > players:
        raise click.BadParameter(f"{len(seats)} seats given for {players} players", param_hint="--seat")
    if len(names) > players:
        raise click.BadParameter(f"{len(names)} names given for {players} players", param_hint="--name")
    seed = secrets.randbelow(2**31) if seed is None else seed
    taken = {name.casefold() for name in names}
    player_names = list(names) + [n for n in DEFAULT_NAMES if n.casefold() not in taken][: players - len(names)]
    kinds = list(seats) + ["random"] * (players - len(seats))
    table = seat_options_for(seat_options, edition, player_names)
    budget = (("search_rollouts", search_rollouts), ("search_seconds", budget_seconds(search_seconds, think)))
    options = {key: value for key, value in budget if value is not None}
    check_outputs(save_path, log_path, save_record)
    with holding(save_record):  # the record is written at the end: no other game may take it meanwhile
        session = Session.start(file, player_names, kinds, seed, save_path, log_path, options, seat_options=table)
        notice = None if quiet else reconstructed_notice(session.game.edition, file)
        if notice:
            echo_wrapped(notice)
        # with a human seat the seed is a secret until the end: with it anyone could replay every deal
        shown_seed = "" if "human" in kinds else f"; seed {seed}"
        seats = ", ".join(f"{n} ({k})" for n, k in zip(player_names, kinds, strict=True))
        click.echo(one_line(f"{session.game.edition.name}: {seats}{shown_seed}"))
        if table:
            click.echo(one_line(f"seat options: {in_words(session.game.edition, table)}"))
        play_session(session, quiet, save_record, verbose)
