"""`boom schema`: the edition schema installed with boom, for editors and CI."""

from __future__ import annotations

import click

from rulesengine.edition.shipped import schema_file

from .common import handles_errors


@click.command()
@click.option("--path", "as_path", is_flag=True, help="Print only where the schema file is.")
@handles_errors
def schema(as_path):
    """Print the JSON Schema of edition files (with --path: where it is installed).

    Editors take it on a file's first line: `# yaml-language-server: $schema=PATH`."""
    path = schema_file()
    click.echo(str(path) if as_path else path.read_text(encoding="utf-8"), nl=as_path)
