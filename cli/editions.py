"""`boom editions`: the editions shipped with boom, by the name `boom run NAME` takes."""

from __future__ import annotations

import json

import click
from rich.table import Table

from rulesengine.edition.catalogue import catalogue

from .common import handles_errors, text_console


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def editions(fmt):
    """List the shipped editions and variants: name, title, players, reconstructed or not."""
    entries = catalogue()
    if fmt == "json":
        click.echo(json.dumps([e.as_dict() for e in entries], indent=2, ensure_ascii=False))
        return
    table = Table(title="Shipped editions (boom run NAME, boom rules NAME)", title_justify="left", show_edge=False)
    for column in ("name", "edition", "players", "cards"):
        table.add_column(column)
    for entry in entries:
        facts = entry.reconstructed_facts
        table.add_row(
            entry.name,
            entry.title,
            f"{entry.players_min}-{entry.players_max}",
            f"reconstructed ({facts} facts)" if facts else "published",
        )
    text_console(width=120).print(table)
