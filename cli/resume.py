"""`boom resume`: continue a saved game exactly where it stopped."""

from __future__ import annotations

import click

from rulesengine.escaping import one_line

from .common import InputFile, echo_wrapped, handles_errors


@click.command()
@click.argument("save_file", type=InputFile())
@click.option(
    "--save-record", type=click.Path(dir_okay=False), help="Write the finished game as a record for `boom score`."
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False),
    help="Write every event as JSON lines, from the game's start (for `boom replay`).",
)
@click.option(
    "--allow-changed-edition", is_flag=True, help="Go on even if the edition file changed since the game was saved."
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the final sheet and ranking.")
@handles_errors
def resume(save_file, save_record, log_path, allow_changed_edition, quiet):
    """Continue a game saved by `boom run --save` (or by an interruption)."""
    # imported here, not at the top: `boom resume --help` starts without the game and the bots
    from rulesengine.bots.seats import SEAT_KINDS
    from rulesengine.edition.catalogue import reconstructed_notice
    from rulesengine.game.outputs import check_outputs, holding
    from rulesengine.game.saves import resume as resume_session

    from .playing import play_session

    check_outputs(save_file, log_path, save_record)
    with holding(save_record):  # the record is written at the end: no other game may take it meanwhile
        session = resume_session(
            save_file,
            log_path,
            seat_kinds=SEAT_KINDS,
            allow_changed_edition=allow_changed_edition,
            warn=lambda message: click.echo(one_line(message), err=True),
        )
        game = session.game
        notice = None if quiet else reconstructed_notice(game.edition, session.edition_path)
        if notice:
            echo_wrapped(notice)
        seed = "" if "human" in session.seats else f"; seed {game.seed}"
        where = min(game.round + 1, game.edition.rounds or game.round + 1)
        made = len(game.decisions)
        resumed = f"resumed in round {where} after {made} decision{'s' if made != 1 else ''}{seed}"
        click.echo(one_line(f"{game.edition.name}: {resumed}"))
        play_session(session, quiet, save_record)
