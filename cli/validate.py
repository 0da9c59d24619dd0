"""`boom validate`: every problem of an edition file at once, as text or JSON."""

from __future__ import annotations

import json
import sys

import click

from rulesengine import render
from rulesengine.errors import as_errors
from rulesengine.escaping import one_line

from .common import InputFile, handles_errors

# In text output the "ok:" line already counts the reconstructed facts; --verbose shows the warning too.
SUMMARY_CODES = {"W402"}


@click.command()
@click.argument("files", nargs=-1, required=True, type=InputFile(edition=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one list of diagnostics for editors and CI.",
)
@click.option("--verbose", "-v", is_flag=True, help="Text: also print summary warnings (W402, what is reconstructed).")
@click.option("--strict", is_flag=True, help="Warnings are errors: exit 1 on any (notes stay notes).")
@handles_errors
def validate(files, fmt, verbose, strict):
    """Check edition files; report every error at file:line:col."""
    from rulesengine import check_edition  # here: `boom validate --help` starts without the edition's model

    failed = False
    everything = []
    for file in files:
        edition, diagnostics = check_edition(file)
        if strict:
            diagnostics = as_errors(diagnostics)
        errors = [d for d in diagnostics if d.severity == "error"]
        failed = failed or bool(errors) or edition is None
        everything.extend(diagnostics)
        if fmt == "json":
            continue
        for diagnostic in diagnostics:
            if verbose or diagnostic.code not in SUMMARY_CODES:
                click.echo(render(diagnostic, code=True), err=bool(errors))
        if edition is not None and not errors:
            races = len(edition.races)
            click.echo(
                one_line(
                    f"{file}: ok: {edition.name}, {len(edition.cards)} cards, {len(edition.categories)} categories, "
                    f"{races} race{'s' if races != 1 else ''}, {edition.reconstructed_facts} reconstructed facts"
                )
            )
        else:
            count = len(errors)
            click.echo(one_line(f"{file}: {count} error{'s' if count != 1 else ''}"), err=True)
    if fmt == "json":
        click.echo(json.dumps([d.as_dict() for d in everything], indent=2))
    sys.exit(1 if failed else 0)
