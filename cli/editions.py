"""`boom editions`: the editions shipped with boom, by the name `boom run NAME` takes."""

from __future__ import annotations

import json

import click

from rulesengine.edition.shipped import shipped_dir

from .common import handles_errors, text_console


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def editions(fmt):
    """List the shipped editions and variants: name, title, players, reconstructed or not, file."""
    # imported here, not at the top: `boom editions --help` starts without the editions' checks and rich
    from rich.table import Table

    from rulesengine.edition.catalogue import catalogue

    entries = catalogue()
    if fmt == "json":
        click.echo(json.dumps([e.as_dict() for e in entries], indent=2, ensure_ascii=False))
        return
    folder = shipped_dir("editions")
    table = Table(title=f"Shipped editions in {folder} (boom run NAME, boom rules NAME, extends: NAME)",
                  title_justify="left", show_edge=False)
    for column in ("name", "edition", "players", "cards", "file"):
        table.add_column(column)
    for entry in entries:
        facts = entry.reconstructed_facts
        table.add_row(
            entry.name,
            entry.title,
            f"{entry.players_min}-{entry.players_max}",
            f"reconstructed ({facts} facts)" if facts else "published",
            str(entry.path.relative_to(folder)) if folder and entry.path.is_relative_to(folder) else str(entry.path),
        )
    table.caption = ("reconstructed (N facts): N fields of the deck (a card's name, number, region or icons...) "
                     "filled in by a stated rule, not read from a printed card; docs/sources.md says how, and "
                     "`boom validate --verbose NAME` lists them")
    table.caption_justify = "left"
    text_console(width=160).print(table)
