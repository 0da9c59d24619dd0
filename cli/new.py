"""`boom new`: a starter house rule, ready to edit, validate and play."""

from __future__ import annotations

import sys

import click

from .common import handles_errors


@click.command()
@click.argument("name")
@click.option("--from", "parent", default="australia", show_default=True,
              help="The edition it changes: a shipped edition's name (`boom editions`) or a file.")
@click.option("--dir", "folder", type=click.Path(file_okay=False), default=".", show_default=True,
              help="The folder to write NAME.yaml in.")
@handles_errors
def new(name, parent, folder):
    """Write NAME.yaml, a starter house rule of an edition, with a working $schema line for editors.

    The file extends the edition by name (or by a path relative to it) and says nothing else yet:
    add what your house rule changes, then `boom validate NAME.yaml` and `boom rules NAME.yaml`."""
    from rulesengine.edition.starter import StarterError, write_starter  # here: `--help` checks no edition

    try:
        path = write_starter(name, parent, folder)
    except StarterError as exc:
        click.echo(f"boom new: {exc}", err=True)
        sys.exit(2)
    click.echo(f"wrote {path}: edit it, then `boom validate {path}` and `boom rules {path}`")
