"""`boom score`: the score pad for a game played on a real table."""

from __future__ import annotations

import json
import sys

import click

from rulesengine import BoomError
from rulesengine.errors import shown

from .common import InputFile, echo_wrapped, handles_errors, seat_option_option, seat_options_for, text_console


@click.command()
@click.argument("file", required=False, type=InputFile(edition=True))
@click.option(
    "--record",
    "record_path",
    required=True,
    type=InputFile(),
    help="The game: players and each round's drafts and choices (YAML or JSON).",
)
@click.option(
    "--edition",
    "what_if",
    metavar="NAME",
    type=InputFile(edition=True),
    default=None,
    help="Score the game under this edition or house rule instead of the one it was played under "
    "(what would it give under my rule?).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Leave out the note on reconstructed facts.")
@seat_option_option
@handles_errors
def score(file, record_path, what_if, fmt, quiet, seat_options):
    """The score pad: score a game played on a real table from its record.

    EDITION is an edition file or the name of a shipped edition (`boom editions`); without it, the
    edition the record names. With --format json, mistakes in the record come out as a JSON list of located
    diagnostics too."""
    # imported here, not at the top: `boom score --help` starts without the game, the edition and rich
    from rulesengine import load_edition, load_record, score_record
    from rulesengine.edition.catalogue import reconstructed_notice

    from .sheets import print_sheet, sheet_json

    if file and what_if:
        raise click.UsageError(f"give the edition as EDITION ({file}) or as --edition ({what_if}), not both")
    try:
        record, source_map = load_record(record_path)
        played = record.get("edition") if isinstance(record, dict) else None
        name = what_if or file or played
        if name is None:
            raise click.UsageError(f"{record_path} names no edition (no 'edition:' line): give it, e.g. "
                                   f"boom score australia --record {record_path}")
        edition = load_edition(name)
        players = record.get("players") if isinstance(record, dict) else None
        table = seat_options_for(seat_options, edition, players if isinstance(players, list) else [])
        sheet = score_record(edition, record, source_map, what_if=what_if is not None, seat_options=table)
    except BoomError as exc:
        if fmt != "json":
            raise
        click.echo(json.dumps([d.as_dict() for d in exc.diagnostics], indent=2, ensure_ascii=False))
        sys.exit(1)
    if fmt == "json":
        click.echo(sheet_json(sheet))
        return
    notice = None if quiet else reconstructed_notice(edition, name)
    if notice:
        echo_wrapped(notice)
    if what_if and played != edition.id:
        click.echo(shown(f"Scored under {edition.name}; the game was played under {played or 'an unnamed edition'}."))
    print_sheet(text_console(), edition, sheet)
