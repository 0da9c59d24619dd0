"""`boom score`: the score pad for a game played on a real table."""

from __future__ import annotations

import json
import sys

import click

from rulesengine import BoomError, load_edition, load_record, score_record
from rulesengine.edition.catalogue import reconstructed_notice

from .common import handles_errors, text_console
from .sheets import print_sheet, sheet_json


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--record",
    "record_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="The game: players and each round's drafts and choices (YAML or JSON).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Leave out the note on reconstructed facts.")
@handles_errors
def score(file, record_path, fmt, quiet):
    """The score pad: score a game played on a real table from its record.

    FILE is an edition file or the name of a shipped edition (`boom editions`). With --format json,
    mistakes in the record come out as a JSON list of located diagnostics too."""
    try:
        edition = load_edition(file)
        record, source_map = load_record(record_path)
        sheet = score_record(edition, record, source_map)
    except BoomError as exc:
        if fmt != "json":
            raise
        click.echo(json.dumps([d.as_dict() for d in exc.diagnostics], indent=2, ensure_ascii=False))
        sys.exit(1)
    if fmt == "json":
        click.echo(sheet_json(sheet))
        return
    notice = None if quiet else reconstructed_notice(edition, file)
    if notice:
        click.echo(notice)
    print_sheet(text_console(), edition, sheet)
