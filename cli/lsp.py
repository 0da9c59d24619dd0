"""`boom lsp`: the language server for edition files, started by an editor (docs/lsp.md)."""

from __future__ import annotations

import importlib.util
import sys

import click

from .common import handles_errors


@click.command()
@handles_errors
def lsp():
    """Run the language server for edition files over stdin and stdout, for an editor to start.

    It gives the validator's errors and warnings as you type, hover text, completion and
    go-to-definition; `boom docs lsp` sets up VS Code, Neovim, Helix and Emacs."""
    if importlib.util.find_spec("pygls") is None:
        click.echo("boom lsp needs pygls, in boom's `lsp` extra: pip install 'boom[lsp]'", err=True)
        sys.exit(2)
    from rulesengine.lsp.server import serve

    serve()
