"""An edition as text that travels: what a worker process or a Ray worker compiles, once.

Compiled expressions are closures and must never be pickled, so a worker receives the edition as
text (every `extends` resolved into one document) with its SHA-256, checks the hash, and compiles
it itself. It never reads the edition's files in the worker: the text is all it gets.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..edition.cache import passed_by
from ..edition.loader import check_edition_data, edition_or_error, load_edition
from ..edition.model import Edition


@dataclass(frozen=True)
class EditionSource:
    """One edition, resolved into a single JSON document (valid YAML), and the hash of that text."""

    name: str  # the file it was read from, as given (for reports)
    text: str
    sha256: str

    @classmethod
    def read(cls, path: str | Path) -> EditionSource:
        """The edition at path as a source; load_edition(path) must have succeeded first."""
        from ..edition.extends import load_with_extends

        data, _ = load_with_extends(path)
        return cls.of(str(path), data)

    @classmethod
    def of(cls, name: str, data: dict) -> EditionSource:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        return cls(name, text, hashlib.sha256(text.encode()).hexdigest())

    @classmethod
    def load(cls, path: str | Path, name: str) -> tuple[Edition, EditionSource]:
        """load_edition(path) and the edition as a source, from one reading of its files (EditionError as
        load_edition raises it; read back from the cache of checked editions, edition/cache.py, as it does)."""
        edition, diagnostics, data = check_edition_data(path)
        return edition_or_error(edition, diagnostics), cls.of(name, data)

    def compile(self) -> Edition:
        """Check the hash and build the edition from the text (in a worker: once per worker)."""
        if hashlib.sha256(self.text.encode()).hexdigest() != self.sha256:
            raise ValueError(f"the text of {self.name} does not match its hash")
        handle, temporary = tempfile.mkstemp(suffix=".json", prefix="boom-edition-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(self.text)
            with passed_by():   # a temporary file: not kept in the cache of checked editions
                return load_edition(temporary)
        finally:
            os.unlink(temporary)


_COMPILED: dict[str, Edition] = {}


def remember(source: EditionSource, edition: Edition) -> None:
    """Keep an edition already loaded from the source's own files (worker processes forked from
    this one then start with it; others compile the text)."""
    _COMPILED.setdefault(source.sha256, edition)


def compiled(source: EditionSource) -> Edition:
    """The edition of this source, compiled at most once in this process."""
    edition = _COMPILED.get(source.sha256)
    if edition is None:
        edition = _COMPILED[source.sha256] = source.compile()
    return edition
