"""`boom rules`: an edition printed as a rules summary to read at the table."""

from __future__ import annotations

import click

from rulesengine.edition.rules_text import rules_text

from .common import handles_errors


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@handles_errors
def rules(file):
    """Print the rules of an edition or house rule: the round, the categories and their formulas, the bonuses, the tie-breaks."""
    click.echo(rules_text(file), nl=False)
