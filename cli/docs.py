"""`boom docs`: the guides installed with boom (authoring, the scoring language, error codes...)."""

from __future__ import annotations

import sys

import click

from rulesengine.edition.shipped import shipped_docs

from .common import handles_errors


@click.command()
@click.argument("topic", required=False)
@click.option("--path", "as_path", is_flag=True, help="Print only where the page is.")
@handles_errors
def docs(topic, as_path):
    """Print a guide installed with boom: `boom docs authoring`, `boom docs dsl`, `boom docs errors`...

    Without TOPIC, list the guides and where they are."""
    pages = shipped_docs()
    if topic is None:
        for name, path in pages.items():
            click.echo(f"{name:12} {path}")
        return
    page = pages.get(topic.removesuffix(".md"))
    if page is None:
        from rulesengine.errors import suggest

        hint = suggest(topic, pages)
        click.echo(f"boom docs: no guide '{topic}'{f' ({hint})' if hint else ''}; guides: {', '.join(pages)}",
                   err=True)
        sys.exit(2)
    click.echo(str(page) if as_path else page.read_text(encoding="utf-8"), nl=as_path)
