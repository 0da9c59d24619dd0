"""`boom rules`: an edition printed as a rules summary to read at the table."""

from __future__ import annotations

import click

from .common import InputFile, echo_wrapped, handles_errors


@click.command()
@click.argument("file", type=InputFile(edition=True))
@click.option("--quiet", "-q", is_flag=True, help="Leave out the note on reconstructed facts.")
@click.option("--formulas", is_flag=True, help="Also print each scoring formula and what its names mean (for authors).")
@handles_errors
def rules(file, quiet, formulas):
    """Print the rules of an edition or house rule, in words: the round, the categories, the bonuses, the tie-breaks.

    EDITION is an edition file or the name of a shipped edition (`boom editions`)."""
    # imported here, not at the top: `boom rules --help` starts without the edition and the language
    from rulesengine import load_edition
    from rulesengine.edition.catalogue import reconstructed_notice
    from rulesengine.edition.rules_text import rules_text

    notice = None if quiet else reconstructed_notice(load_edition(file), file)
    if notice:
        echo_wrapped(notice)
    click.echo(rules_text(file, formulas), nl=False)
