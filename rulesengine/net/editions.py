"""Editions over the wire: one self-contained form (the edition's data, `extends` resolved) for all.

A host names an edition the server knows, or sends its own file's data; every client receives the
data of its table's edition, so it can show the cards and run a bot. The server keeps that data in
its database, so a table resumes with the very edition it started with. This module never reads a
path a client sent: names are looked up among the server's own edition files only.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections import OrderedDict
from pathlib import Path

from ..edition.cache import passed_by
from ..edition.extends import load_with_extends
from ..edition.loader import load_edition
from ..edition.model import Edition
from ..edition.shipped import shipped_editions
from ..errors import BoomError, Diagnostic

# compiled editions by the SHA-256 of their text, the least recently used dropped past CACHE_SIZE: hosts may
# send editions of their own, and each costs memory (its compiled expressions) for as long as it is kept
CACHE_SIZE = 32
_loaded: OrderedDict[str, Edition] = OrderedDict()
_by_name: dict[str, tuple] = {}


def known_editions() -> dict[str, Path]:
    """The editions the server can run by name: the shipped ones (`boom editions`), found in a checkout
    or where boom was installed."""
    return shipped_editions()


def edition_data(path: str | Path) -> dict:
    """An edition file's data with `extends` resolved: what a host sends and a table keeps."""
    data, _ = load_with_extends(path)
    load_edition(path)  # the whole check, so a broken file is refused here, with its positions
    if not isinstance(data, dict):
        raise BoomError(Diagnostic(None, f"{path} is not an edition", "N101"))
    return data


def data_for_name(name: str) -> dict:
    """The data of an edition the server knows by name (read again only when its file changes)."""
    path = known_editions().get(name)
    if path is None:
        raise BoomError(Diagnostic(None, f"unknown edition '{name}' (known: {', '.join(known_editions())})", "N102"))
    stamp = (str(path), path.stat().st_mtime_ns)
    if _by_name.get(name, (None,))[0] != stamp:
        _by_name[name] = (stamp, edition_data(path))
    return json.loads(edition_text(_by_name[name][1]))  # a copy: the caller may keep it


def edition_text(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def edition_from_data(data: dict) -> Edition:
    """The Edition of this data, checked like a file (each distinct data is loaded once)."""
    if "extends" in data:  # resolved by the sender; here it would name a file on the server
        raise BoomError(Diagnostic(None, "send the edition with 'extends' resolved (boom host does this)", "N103"))
    text = edition_text(data)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if key in _loaded:
        _loaded.move_to_end(key)
        return _loaded[key]
    with tempfile.TemporaryDirectory(prefix="boom-edition-") as folder:
        path = Path(folder) / "edition.json"
        path.write_text(text, encoding="utf-8")
        with passed_by():   # a temporary file: not kept in the cache of checked editions
            edition = load_edition(path)  # a refused edition is never kept
    _loaded[key] = edition
    while len(_loaded) > CACHE_SIZE:
        _loaded.popitem(last=False)
    return edition
