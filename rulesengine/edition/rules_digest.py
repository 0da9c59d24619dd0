"""What plays, hashed: an edition's merged data without its words, so that a saved game outlives a reworded file.

A save names its edition's file and that file's SHA-256; a description rewritten (a number turned into
a placeholder, a typo mended) changes the file but not one game it plays. The rules digest is the
SHA-256 of the data the Edition is built from (its `extends:` chain and `borrow:` resolved) with the
words left out: the edition's name, description and provenance, the titles and descriptions of
families, categories, choices and races, card names, goal names and descriptions, and the
`reconstructed:` marks; and `tune:` (the ranges `boom tune` may search, which playing ignores).
Everything else is what plays. The data is made canonical first: mapping keys sorted, except where
their order plays (a family's icons: the order of its kinds), lists kept in order (the deck's order
deals the cards). It never reads a file.
"""

from __future__ import annotations

import hashlib
import json

# where the words are ('*' any key of a mapping, '[]' any item of a list); a region's name is not one:
# the cards name their region by it
WORDS = (
    ("name",), ("description",), ("provenance",),
    ("families", "*", "title"),
    ("regions", "[]", "reconstructed"),
    ("cards", "[]", "name"), ("cards", "[]", "reconstructed"),
    ("map", "reconstructed"),
    ("categories", "[]", "title"), ("categories", "[]", "description"), ("categories", "[]", "choice", "description"),
    ("races", "[]", "title"), ("races", "[]", "description"),
    ("seat_options", "*", "title"), ("seat_options", "*", "description"),
    ("goals", "cards", "[]", "name"), ("goals", "cards", "[]", "description"),
)
NOT_PLAYED = (("tune",),)  # for boom tune only
ORDERED = (("families", "*", "icons"),)  # mappings whose order plays: kept as [key, value] pairs in order


def rules_digest(data: dict) -> str:
    """The SHA-256 (hex) of what plays in an edition's merged data."""
    text = json.dumps(_canonical(data, ()), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _canonical(node, path: tuple):
    if isinstance(node, dict):
        kept = {str(key): _canonical(value, path + (key,)) for key, value in node.items()
                if not _at(path + (key,), WORDS + NOT_PLAYED)}
        return [[key, value] for key, value in kept.items()] if _at(path, ORDERED) else kept
    if isinstance(node, list):
        return [_canonical(item, path + ("[]",)) for item in node]
    return node


def _at(path: tuple, places: tuple) -> bool:
    """Is path one of places? A key in path matches its name or '*'; an item's '[]' matches '[]'."""
    return any(len(place) == len(path)
               and all(p == q or (p == "*" and q != "[]") for p, q in zip(place, path, strict=True))
               for place in places)
