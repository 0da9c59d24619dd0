"""`boom resume`: continue a saved game exactly where it stopped."""

from __future__ import annotations

import click

from rulesengine.game.saves import check_writable
from rulesengine.game.saves import resume as resume_session

from .common import handles_errors
from .playing import play_session


@click.command()
@click.argument("save_file", type=click.Path(dir_okay=False))
@click.option("--save-record", type=click.Path(dir_okay=False), help="Write the finished game as a record for `boom score`.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final sheet and ranking.")
@handles_errors
def resume(save_file, save_record, quiet):
    """Continue a game saved by `boom run --save` (or by an interruption)."""
    check_writable(save_record)
    session = resume_session(save_file, warn=lambda message: click.echo(message, err=True))
    game = session.game
    click.echo(f"{game.edition.name}: resumed in round {min(game.round + 1, game.edition.rounds)} after {len(game.decisions)} decisions; seed {game.seed}")
    play_session(session, quiet, save_record)
