"""The words an editor shows for a key or a name: the schema's own titles and descriptions, and what an
edition constant is (a family, a table, cards, regions), so hover text and `boom rules` agree."""

from __future__ import annotations

from ..edition import scopes
from ..edition.schema import schema_document

MEANINGS = scopes.meanings()


def schema_node(path: tuple) -> dict:
    node = schema_document()
    for part in path:
        node = branch(node)
        if isinstance(part, int):
            node = node.get("items") or {}
        elif part in (node.get("properties") or {}):
            node = node["properties"][part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return {}
    return node


def branch(node: dict) -> dict:
    """The branch of an anyOf/oneOf that is not the edit form (whose properties describe the data)."""
    for word in ("anyOf", "oneOf"):
        for branch in node.get(word) or ():
            if "$ref" not in branch and ("properties" in branch or "items" in branch
                                         or "additionalProperties" in branch):
                return branch
    return node


def schema_properties(node: dict) -> dict:
    node = branch(node)
    if "items" in node:
        node = branch(node["items"])
    return node.get("properties") or {}


def schema_words(path: tuple) -> str | None:
    node = schema_node(path)
    if not node.get("description") and not node.get("title"):
        return None
    title = node.get("title", str(path[-1]) if path else "")
    return f"**{title}**\n\n{node.get('description', '')}"


def constant_words(name: str, value) -> str:
    if hasattr(value, "icons"):
        listed = ", ".join(f"{i} {v}" for i, v in value.values.items()) if value.valued else ", ".join(value.icons)
        return f"the family {value.title}: {listed}"
    if hasattr(value, "rows"):
        return "the table " + ", ".join(f"{k} → {v}" for k, v in value.rows.items())
    if isinstance(value, tuple) and value and hasattr(value[0], "letter"):
        return "the cards " + " ".join(c.letter for c in value)
    if isinstance(value, tuple) and value and hasattr(value[0], "bonus"):
        return "every region"
    return MEANINGS.get(name, "a name of this edition")
