"""A starter house rule (`boom new`): the lines every house rule begins with, filled in for an edition.

It names its parent as `boom run` does (a shipped edition by name, anything else by a path relative
to the new file) and points its `$schema` line at the schema installed with boom, so an editor's YAML
language server completes and explains keys wherever the file is. It writes one new file and never
overwrites one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import BoomError
from .loader import load_edition
from .shipped import is_bare_name, schema_file, shipped_editions

NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


class StarterError(Exception):
    """The starter cannot be written: a bad name, an unknown parent, a file already there."""


def starter_text(name: str, parent: str, folder: Path) -> str:
    """The text of a starter house rule called name, extending parent, to be saved in folder."""
    if is_bare_name(parent) and parent in shipped_editions() and not (folder / parent).exists():
        extends, parent_path = parent, shipped_editions()[parent]
    else:
        parent_path = Path(parent).resolve()
        extends = os.path.relpath(parent_path, folder.resolve())
    try:
        edition = load_edition(parent_path)
    except BoomError as exc:
        raise StarterError(f"'{parent}' does not load: {exc.diagnostics[0].message}") from None
    title = edition.name.split(" (")[0]
    return f"""# yaml-language-server: $schema={schema_file()}
# A house rule of {edition.name}: say in a line what it changes.
extends: {extends}
id: {name}
name: "{title} ({name.replace('-', ' ')})"
description: What this house rule changes, in a sentence for the players.

# Give only what changes. A plain value replaces the parent's (rounds: 3); a mapping merges key by
# key (passing: {{catch: previous}}); cards, regions, categories and races merge by letter, name or
# key; other lists are replaced, or edited with {{add: [...], remove: [...]}}.
# `boom docs authoring` has every rule and example; `boom rules {name}.yaml` shows the result.
"""


def write_starter(name: str, parent: str, folder: str | Path = ".") -> Path:
    """Write folder/name.yaml (never over an existing file); return its path."""
    if not NAME.match(name.removesuffix(".yaml")):
        raise StarterError(f"'{name}' is not a house rule name: lower-case letters, digits, '-' and '_', "
                           "starting with a letter")
    name = name.removesuffix(".yaml")
    folder = Path(folder)
    if not folder.is_dir():
        raise StarterError(f"no folder {folder}")
    known = shipped_editions()
    if is_bare_name(parent) and parent not in known and not Path(parent).exists():
        from ..errors import suggest

        hint = suggest(parent, known)
        raise StarterError(f"no shipped edition '{parent}'{f' ({hint})' if hint else ''}; `boom editions` lists them")
    text = starter_text(name, parent, folder)
    path = folder / f"{name}.yaml"
    try:
        with open(path, "x", encoding="utf-8") as stream:
            stream.write(text)
    except FileExistsError:
        raise StarterError(f"{path} exists already: choose another name") from None
    except OSError as exc:
        raise StarterError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
