"""Composes a YAML text into PyYAML's node graph within bounds on nesting, size and alias expansion.

It exists so that source.py reads nodes into plain data and positions, while this module alone
decides how a text is composed (libyaml when it reads the text without a problem, PyYAML's own
words otherwise) and where a text is too large. It must never build Python data from the nodes,
never let Python's stack or the machine's memory run out, and never raise anything but EditionError.
"""

from __future__ import annotations

import yaml

from ..errors import Diagnostic, EditionError, Span

MAX_DEPTH = 64
MAX_NODES = 10_000  # the largest edition has about 900; PyYAML composes some 50,000 nodes a second


class _TooLarge(Exception):
    def __init__(self, mark, message):
        super().__init__(message)
        self.mark, self.message = mark, message


class _Bounds:
    """PyYAML's composer recurses once per level of nesting: refuse depth and size before Python's
    stack (or the machine's memory) runs out, at the place in the text where the limit is crossed."""

    depth = 0
    composed = 0
    max_nodes = MAX_NODES

    def compose_node(self, parent, index):
        self.composed += 1
        if self.depth > MAX_DEPTH:
            raise _TooLarge(self.peek_event().start_mark, f"nesting deeper than {MAX_DEPTH} levels")
        if self.composed > self.max_nodes:
            raise _TooLarge(self.peek_event().start_mark, f"the document has more than {self.max_nodes} nodes")
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _BoundedLoader(_Bounds, yaml.SafeLoader):
    """The pure-Python reader: it words every YAML problem the way the error catalogue shows it."""

    def __init__(self, text: str, max_nodes: int = MAX_NODES):
        self.max_nodes = max_nodes
        super().__init__(text)


try:
    from yaml.cyaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml: the pure-Python reader does it all
    _CParser = None


class _FastLoader(
    _Bounds,
    yaml.composer.Composer,
    _CParser or yaml.parser.Parser,
    yaml.constructor.SafeConstructor,
    yaml.resolver.Resolver,
):
    """libyaml's scanner and parser (several times faster; marks keep line, column and character
    index) under PyYAML's own composer with the same bounds. Used for files it reads without a
    problem; any other problem is reported by _BoundedLoader instead, in its words."""

    def __init__(self, text: str, max_nodes: int = MAX_NODES):
        self.max_nodes = max_nodes
        _CParser.__init__(self, text)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


def compose(file: str, text: str, max_nodes: int = MAX_NODES):
    """The YAML node graph of text (None for an empty document) and the loader that made it."""

    def at(mark) -> Span:
        return Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)

    if _CParser is not None:
        try:
            loader = _FastLoader(text, max_nodes)
            return loader.get_single_node(), loader
        except _TooLarge as exc:  # a bound crossed: the same words and place either way, no second reading
            raise EditionError(Diagnostic(at(exc.mark), exc.message, "E003")) from None
        except Exception:  # noqa: BLE001 - read again below, to report the problem in the usual words
            pass
    loader = None
    try:
        loader = _BoundedLoader(text, max_nodes)
        return loader.get_single_node(), loader
    except _TooLarge as exc:
        raise EditionError(Diagnostic(at(exc.mark), exc.message, "E003")) from None
    except yaml.MarkedYAMLError as exc:
        problem = exc.problem or exc.context or "invalid YAML"
        raise EditionError(
            Diagnostic(at(exc.problem_mark or exc.context_mark), f"YAML syntax: {problem}", "E002")
        ) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position)
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1)
        what = f"character #x{exc.character:04x}" if isinstance(exc.character, int) else f"byte {exc.character!r}"
        raise EditionError(
            Diagnostic(Span(file, line + 1, col + 1), f"YAML: unacceptable {what}: {exc.reason}", "E002")
        ) from None
    except yaml.YAMLError as exc:
        raise EditionError(Diagnostic(Span(file, 1, 1), f"YAML: {exc}", "E002")) from None
    except RecursionError:  # a second line of defence: the depth check above should come first
        raise EditionError(Diagnostic(Span(file, 1, 1), "nesting too deep to read", "E003")) from None
    finally:
        if loader is not None:
            loader.dispose()


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def check_expansion(file: str, root, max_nodes: int = MAX_NODES) -> None:
    """Aliases share nodes, so a small text can stand for a huge (or endless) document: measure the
    expanded size and depth over the shared graph, without recursion, before building anything."""
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack = [(root, False)]

    def error(node, message):
        mark = node.start_mark
        return EditionError(Diagnostic(Span(file, mark.line + 1, mark.column + 1), message, "E003"))

    while stack:
        node, finished = stack.pop()
        key = id(node)
        children = _children(node)
        if finished:
            open_nodes.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children)
            height[key] = 1 + max((height[id(c)] for c in children), default=0)
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise error(node, "an alias refers to a collection that contains it (the document would be endless)")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)
    expands = f"the document expands to more than {max_nodes} nodes (aliases expanding without bound?)"
    for table, limit, message in (
        (size, max_nodes, expands),
        (height, MAX_DEPTH + 1, f"aliases nest the document deeper than {MAX_DEPTH} levels"),
    ):
        if table[id(root)] <= limit:
            continue
        node = root  # go down to the collection where the limit is crossed, to point at it
        while True:
            over = [c for c in _children(node) if table[id(c)] > limit]
            if not over:
                break
            node = over[0]
        raise error(node, message)
