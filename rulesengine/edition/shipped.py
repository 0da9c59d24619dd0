"""The editions, the schema and the guides shipped with boom, found wherever boom runs; editions by name.

In a checkout (or an editable install) they are the repository's top-level editions/ and schemas/;
after `pip install .` they are installed as data files under `share/boom/` of the environment
(pyproject.toml, [tool.setuptools.data-files]). A bare name (`australia`, `usa-direction`) is a
shipped edition's file name without `.yaml`. This module only finds files; it never parses one.
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

SUFFIX = ".yaml"


def _candidates(folder: str):
    yield Path(__file__).resolve().parents[2] / folder  # a checkout or an editable install
    for scheme_path in (sysconfig.get_path("data"), sys.prefix, sys.base_prefix):
        if scheme_path:
            yield Path(scheme_path) / "share" / "boom" / folder


def shipped_dir(folder: str) -> Path | None:
    """The shipped `editions`, `schemas` or `docs` folder, or None when boom was installed without it."""
    for path in _candidates(folder):
        if path.is_dir():
            return path
    return None


def schema_file() -> Path:
    folder = shipped_dir("schemas")
    return (folder or Path(__file__).resolve().parents[2] / "schemas") / "edition.schema.json"


def shipped_docs() -> dict[str, Path]:
    """Topic -> page of the guides installed with boom (docs/*.md): `boom docs TOPIC` prints one."""
    folder = shipped_dir("docs")
    return {path.stem: path for path in sorted(folder.glob("*.md"))} if folder else {}


def shipped_editions() -> dict[str, Path]:
    """Name -> file of every shipped edition: editions/*.yaml first, then editions/variants/*.yaml."""
    folder = shipped_dir("editions")
    if folder is None:
        return {}
    files = sorted(folder.glob(f"*{SUFFIX}")) + sorted((folder / "variants").glob(f"*{SUFFIX}"))
    return {path.stem: path for path in files}


def is_bare_name(text: str) -> bool:
    return bool(text) and "/" not in text and "\\" not in text and not text.endswith((SUFFIX, ".yml", ".json"))


def resolve_edition(path: str | Path) -> str | Path:
    """A path as given when it names a file; a shipped edition's file when it is a bare name of one."""
    text = str(path)
    if not is_bare_name(text) or Path(text).exists():
        return path
    return shipped_editions().get(text, path)
