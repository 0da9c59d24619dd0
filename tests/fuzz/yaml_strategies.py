"""Mutations of YAML texts (editions and records) for fuzzing, and random YAML documents.

Text mutations work on lines and characters; scalar mutations replace a value written in the file
by one of another type; data mutations change the parsed document and write it back.
"""

from __future__ import annotations

import copy

import yaml
from hypothesis import strategies as st

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's, when there: writing whole editions is the slow part

YAML_CHARACTERS = ":-[]{},&*!|>'\"#%@`?\t\n \\"
OTHER_VALUES = [
    "0",
    "-1",
    "1",
    "7",
    "13",
    "99999999999999999999",
    "9" * 5000,
    "3.5",
    "1e400",
    ".nan",
    "true",
    "false",
    "null",
    "~",
    "''",
    "'x'",
    "[]",
    "{}",
    "[1, 2]",
    "{a: 1}",
    "[[[[]]]]",
    "*undefined",
    "&anchor 1",
    "!!float x",
    "!!binary '!'",
    "!!python/object:os.system x",
    "2020-01-01",
    "'Leaves'",
    "'#'",
    "A",
    "abs(throw.number)",
    "1 // 0",
    "lookup(activity_points, 99)",
    "|\n  text",
    ">-",
    "'''",
    "'unterminated",
    '"\\x"',
    "? a",
    "- a",
    "a: b: c",
    "\u00e9t\u00e9",
    "\x00",
    "\ufeff",
    "{letter: A}",
    "left",
    "right",
    "game_end",
    "region",
]


def scalar_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of every scalar written in a YAML text."""
    spans = []
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.ScalarEvent) and event.end_mark.index > event.start_mark.index:
            spans.append((event.start_mark.index, event.end_mark.index))
    return spans


def values() -> st.SearchStrategy[str]:
    """A YAML value written in flow style, of any type, often a wrong one."""
    return (
        st.sampled_from(OTHER_VALUES)
        | st.integers(-10, 10**6).map(str)
        | st.text(max_size=12).map(
            lambda t: yaml.safe_dump(t, default_flow_style=True).strip().removesuffix("\n...").strip()
        )
    )


def mutated_text(texts: list[str]) -> st.SearchStrategy[str]:
    """One of texts with a few scalars replaced, then a few lines or characters changed."""
    spans = {text: scalar_spans(text) for text in texts}

    @st.composite
    def build(draw):
        text = draw(st.sampled_from(texts))
        places = spans[text]
        chosen = sorted(set(draw(st.lists(st.sampled_from(places), max_size=3))), reverse=True) if places else []
        for start, end in chosen:  # from the end, so earlier offsets stay right
            text = text[:start] + draw(values()) + text[end:]
        for _ in range(draw(st.integers(0 if chosen else 1, 3))):
            text = draw(_one_change(text))
        return text

    return build()


def _one_change(text: str) -> st.SearchStrategy[str]:
    lines = text.split("\n")

    @st.composite
    def change(draw):
        kind = draw(
            st.sampled_from(
                ["delete line", "duplicate line", "swap lines", "move line", "character", "character", "cut", "indent"]
            )
        )
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        out = list(lines)
        if kind == "delete line":
            del out[i]
        elif kind == "duplicate line":
            out.insert(i, out[i])
        elif kind == "swap lines":
            out[i], out[j] = out[j], out[i]
        elif kind == "move line":
            out.insert(j, out.pop(i))
        elif kind == "indent":
            out[i] = (
                draw(st.sampled_from(["", " ", "  ", "\t", "    "])) + out[i].lstrip(" ")
                if draw(st.booleans())
                else out[i][1:]
            )
        elif kind == "cut":
            return text[: draw(st.integers(0, len(text)))]
        else:
            at = draw(st.integers(0, len(text)))
            char = draw(st.sampled_from(YAML_CHARACTERS) | st.characters())
            how = draw(st.sampled_from(["insert", "replace", "delete"]))
            return text[:at] + ("" if how == "delete" else char) + text[at + (0 if how == "insert" else 1) :]
        return "\n".join(out)

    return change()


def json_like(max_leaves: int = 40) -> st.SearchStrategy[object]:
    scalars = (
        st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=True) | st.text(max_size=10)
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=max_leaves,
    )


def mutated_data(documents: list[object]) -> st.SearchStrategy[str]:
    """One of the documents with a few nodes replaced, removed or duplicated, written back as YAML."""

    @st.composite
    def build(draw):
        data = copy.deepcopy(draw(st.sampled_from(documents)))
        for _ in range(draw(st.integers(1, 3))):
            paths = list(_paths(data, ()))
            path = draw(st.sampled_from(paths))
            if not path:
                continue
            parent = data
            for part in path[:-1]:
                parent = parent[part]
            last = path[-1]
            how = draw(st.sampled_from(["replace", "replace", "delete", "duplicate", "swap type"]))
            if how == "replace":
                parent[last] = draw(json_like(8))
            elif how == "delete":
                del parent[last]
            elif how == "duplicate" and isinstance(parent, list):
                parent.insert(last, copy.deepcopy(parent[last]))
            elif how == "swap type":
                value = parent[last]
                parent[last] = [value] if not isinstance(value, list) else (value[0] if value else {})
        return yaml.dump(
            data,
            Dumper=DUMPER,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=draw(st.sampled_from([None, False, True])),
        )

    return build()


def _paths(data, path):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, path + (index,))


def random_yaml() -> st.SearchStrategy[str]:
    """A random YAML document, or random text."""
    return st.one_of(
        json_like().map(lambda d: yaml.safe_dump(d, allow_unicode=True)),
        st.text(max_size=200),
        st.lists(
            st.sampled_from([*YAML_CHARACTERS, "a", "1", "key", "&a", "*a", "!!str", "---", "...", "%YAML 1.1"]),
            max_size=60,
        ).map("".join),
    )
