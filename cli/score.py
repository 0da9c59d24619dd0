"""`boom score`: the score pad for a game played on a real table."""

from __future__ import annotations

import click
from rich.console import Console

from rulesengine import load_edition, load_record, score_record
from rulesengine.edition.catalogue import reconstructed_notice

from .common import handles_errors
from .sheets import print_sheet, sheet_json


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--record", "record_path", required=True, type=click.Path(dir_okay=False), help="The game: players and each round's drafts and choices (YAML or JSON).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="Leave out the note on reconstructed facts.")
@handles_errors
def score(file, record_path, fmt, quiet):
    """The score pad: score a game played on a real table from its record."""
    edition = load_edition(file)
    record, source_map = load_record(record_path)
    sheet = score_record(edition, record, source_map)
    if fmt == "json":
        click.echo(sheet_json(sheet))
        return
    notice = None if quiet else reconstructed_notice(edition, file)
    if notice:
        click.echo(notice)
    print_sheet(Console(highlight=False), edition, sheet)
