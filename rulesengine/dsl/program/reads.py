"""What an expression reads of the game, and in what form: facts of its syntax tree.

A generated function is handed each game value in the forms its statements need: the seat's cards
as a list or only their tally, the visited cards as a list in deck order, a set, a bitmask or only
their number. Which forms those are is decided here, from the checked tree, before any source is
written: a `Uses` visitor goes over the tree as the expression generator will (the same bindings,
the same lists written out item by item) and records, for every game value, each way it is read.
The generator (expression.py) asks the same questions of the same nodes through `Scoped`, so the
two cannot disagree. Nothing here writes or searches source text.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass

from .. import ast
from ..ast import Visitor

# How a game value is read. A function that holds the value in a form that answers a use (a tally
# for COUNT, a set for SET, a mask for MASK, a set or a mask for LENGTH) reads it from that form;
# any other use, and any use no form of the function answers, reads the value itself (LIST).
COUNT = "count"      # count(icon, X), or sum(...) over icons(X, family) worked out from counts
SET = "set"          # X's membership only: the second list of subset/intersects, the nodes of connected
MASK = "mask"        # a use a bitmask of X answers (see Scoped.mask_able): a SET or LENGTH use as well
LENGTH = "length"    # len(X): X holds each item once when it is the visited cards
LIST = "list"        # the value itself

UNROLLED = 8          # a comprehension over this few icons or items is written out item by item
SEAT_LISTS = ("cards", "visited")   # the attributes of a seat (and `cards` of a region) that are lists


@dataclass(frozen=True)
class Bound:
    """A name bound by `let` or a comprehension: to a value known only when it runs (constant is
    UNSET), or, in a list written out item by item, to that item; source: what generated code reads
    it by (a local v<n>, or the constant k<n>), None in the analysis."""

    constant: object
    source: str | None = None


UNSET = object()
LOCAL = Bound(UNSET)


class Scoped(Visitor):
    """The bindings of the names of a tree, and the facts the generator and the analysis share."""

    def __init__(self, resolved: dict, masks=None):
        self.resolved = resolved
        self.masks = masks            # the edition's Masks where values may be held as bitmasks, else None
        self.scopes: list[dict] = []

    def bound(self, name: str) -> Bound | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def path(self, node) -> str | None:
        """The game value a node reads as it is: a variable (`visited`), or a list attribute of a
        variable (`left.cards`, `region.cards`); None for anything else."""
        if isinstance(node, ast.Name):
            return node.name if self.bound(node.name) is None and id(node) not in self.resolved else None
        if isinstance(node, ast.Attribute) and node.name in SEAT_LISTS:
            target = self.path(node.target)
            return f"{target}.{node.name}" if target is not None and "." not in target else None
        return None

    def known(self, node):
        """The value of a node that names an edition constant (a symbol, a family, a card set, an item
        of a list written out), else UNSET."""
        if isinstance(node, ast.Symbol):
            return self.resolved[id(node)]
        if isinstance(node, ast.Name):
            binding = self.bound(node.name)
            if binding is not None:
                return binding.constant
            return self.resolved.get(id(node), UNSET)
        return UNSET

    def family(self, node):
        """The family a node names (an edition constant), else None."""
        value = self.resolved.get(id(node)) if isinstance(node, ast.Name) and self.bound(node.name) is None else None
        return value if hasattr(value, "icon_set") else None

    def written_out(self, node) -> tuple | None:
        """The items of [element for name in list] when the list is a family's kinds or an edition
        constant of at most UNROLLED items and there is no condition: the generator writes its
        elements out one by one (a comprehension is a function made and called in Python 3.11, which
        costs more than a few elements); None for any other list."""
        if not isinstance(node, ast.Comprehension) or node.condition is not None:
            return None
        source, items = node.source, None
        if isinstance(source, ast.Call) and source.function == "kinds" and self.family(source.args[0]) is not None:
            items = self.family(source.args[0]).icons
        elif isinstance(source, ast.Name) and self.bound(source.name) is None \
                and type(self.resolved.get(id(source))) is tuple:
            items = self.resolved[id(source)]       # an edition constant such as `regions`
        return items if items is not None and len(items) <= UNROLLED else None

    def by_counts(self, node, in_source: bool):
        """The (cards node, family) of sum([f(i) for i in icons(cards, family) if c(i)]) when a tally of
        the cards answers it (the family has at most UNROLLED icons), else None."""
        source = node.source if isinstance(node, ast.Comprehension) else None
        if in_source or not (isinstance(source, ast.Call) and source.function == "icons"):
            return None
        family = self.family(source.args[1])
        return (source.args[0], family) if family is not None and len(family.icons) <= UNROLLED else None

    def mask_able(self, node) -> bool:
        """Whether a bitmask of this cards value is known without reading a game value: the cards of
        the race's region or of a region constant, or an edition constant list of cards."""
        if self.masks is None:
            return False
        if self.path(node) == "region.cards":
            return True
        if isinstance(node, ast.Attribute) and node.name == "cards":
            return self.known(node.target) in self.masks.regions
        value = self.known(node)
        return type(value) in (tuple, list) and all(hasattr(c, "index") and hasattr(c, "site") for c in value)

    def free(self, node) -> bool:
        """Whether no name in the node is one bound by `let` or a comprehension (its value is the same
        all through one evaluation, so a tally of it can be made once, first)."""
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, ast.Name) and self.bound(current.name) is not None:
                return False
            if isinstance(current, ast.Comprehension | ast.Let):
                return False
            stack.extend(ast.children(current))
        return True

    def shape(self, node):
        """The node without its position, names bound to constants read as those: two counts over
        values of the same shape count the same cards."""
        if isinstance(node, ast.Name):
            value = self.known(node)
            return ("name", node.name) if value is UNSET else ("constant", id(value))
        if isinstance(node, ast.Symbol):
            return ("constant", id(self.resolved[id(node)]))
        parts = [type(node).__name__]
        for f in dataclasses.fields(node):
            if f.name in ("start", "end", "name_end"):
                continue
            value = getattr(node, f.name)
            if isinstance(value, ast.Node):
                value = self.shape(value)
            elif isinstance(value, tuple):
                value = tuple(self.shape(v) if isinstance(v, ast.Node) else v for v in value)
            parts.append(value)
        return tuple(parts)

    def binding(self, scope: dict):
        """A context that binds these names while the nodes below them are visited."""
        return _Binding(self.scopes, scope)


class _Binding:
    def __init__(self, scopes: list, scope: dict):
        self.scopes, self.scope = scopes, scope

    def __enter__(self):
        self.scopes.append(self.scope)

    def __exit__(self, *exc):
        self.scopes.pop()


@dataclass(frozen=True)
class Reads:
    """How one expression reads the game: for every game value (a variable, or `left.cards`...) its
    uses, each as the forms that would answer it (len(visited): LENGTH or MASK; a list read as it is:
    LIST only), and the shapes of the other cards values it counts more than once (tallied first)."""

    uses: dict                  # path -> frozenset of uses, each a frozenset of forms
    hoisted: frozenset          # shapes of cards values (not game values) counted more than once

    @property
    def paths(self) -> frozenset:
        return frozenset(self.uses)

    def variables(self) -> frozenset:
        """The game variables read at all (`left` for `left.cards`)."""
        return frozenset(path.split(".")[0] for path in self.uses)

    def answered(self, path: str, forms) -> bool:
        """Whether a function holding the value in these forms answers every use of it without the value."""
        return all(use & forms for use in self.uses.get(path, ()))

    def reads_value(self, path: str, forms=frozenset()) -> bool:
        """Whether some use of it needs the value itself, when these forms of it are held."""
        return not self.answered(path, frozenset(forms))

    def read_as(self, path: str, form: str) -> bool:
        """Whether some use of it is answered by this form."""
        return any(form in use for use in self.uses.get(path, ()))


def merged(reads) -> Reads:
    """The uses of several expressions, as one function holding them all reads the game."""
    uses: dict = defaultdict(set)
    hoisted: set = set()
    for one in reads:
        for path, found in one.uses.items():
            uses[path].update(found)
    return Reads({path: frozenset(found) for path, found in uses.items()}, frozenset(hoisted))


def reads_of(expression) -> Reads:
    """analyse() of an expression's whole tree, worked out once and kept with the expression (its `kept`
    dict, the compiled edition's): building an edition's program asks about each of its ~8 expressions
    about three times. An expression handed as a bare tree (no `kept`: a pinned copy, a test's) is
    analysed at each ask."""
    kept = getattr(expression, "kept", None)
    if kept is None:
        return analyse(*expression.tree[:2])
    found = kept.get("reads")
    if found is None:
        found = kept["reads"] = analyse(*expression.tree[:2])
    return found


def analyse(node, resolved: dict, masks=None) -> Reads:
    """How the checked tree reads the game (masks: the edition's Masks, where a value may be held as one)."""
    uses = Uses(resolved, masks)
    uses.visit(node)
    hoisted = frozenset(shape for shape, weight in uses.counted.items() if weight > 1)
    return Reads({path: frozenset(found) for path, found in uses.uses.items()}, hoisted)


class Uses(Scoped):
    """Records every use of every game value (see Reads), visiting the tree as the generator writes it."""

    def __init__(self, resolved: dict, masks=None):
        super().__init__(resolved, masks)
        self.uses: dict = defaultdict(set)
        self.counted: dict = defaultdict(int)   # shape of a counted cards value -> uses (2 inside a loop)
        self.loops = 0
        self.in_source = 0

    def use(self, node, *forms) -> bool:
        """Record a use of the node's game value that these forms answer; False when the node reads
        no game value as it is (its own nodes are then visited)."""
        path = self.path(node)
        if path is None:
            return False
        self.uses[path].add(frozenset(forms))
        return True

    def visit_Number(self, node):
        pass

    visit_Bool = visit_Symbol = visit_Number

    def visit_Name(self, node):
        self.use(node, LIST)

    def visit_Attribute(self, node):
        if not self.use(node, LIST):
            self.visit(node.target)

    def visit_Unary(self, node):
        self.visit(node.operand)

    def visit_Binary(self, node):
        self.visit(node.left)
        self.visit(node.right)

    def visit_If(self, node):
        for child in (node.condition, node.then, node.otherwise):
            self.visit(child)

    def visit_ListLiteral(self, node):
        for item in node.items:
            self.visit(item)

    def visit_Let(self, node):
        self.visit(node.value)
        with self.binding({node.name: LOCAL}):
            self.visit(node.body)

    def each(self, name: str, items, visit) -> None:
        """visit() once per item with name bound to it, as the generator writes a list out."""
        self.loops += 1
        for item in items:
            with self.binding({name: Bound(item)}):
                visit()
        self.loops -= 1

    def visit_Comprehension(self, node):
        items = self.written_out(node)
        if items is not None:
            self.each(node.name, items, lambda: self.visit(node.element))
            return
        source = node.source
        self.in_source += 1
        if isinstance(source, ast.Call) and source.function == "icons" and self.family(source.args[1]) is not None:
            self.visit(source.args[0])    # the icons walked in place
        else:
            self.visit(source)
        self.in_source -= 1
        self.loops += 1
        with self.binding({node.name: LOCAL}):
            self.visit(node.element)
            if node.condition is not None:
                self.visit(node.condition)
        self.loops -= 1

    def visit_Call(self, node):
        function, args = node.function, node.args
        if function == "sum" and (found := self.by_counts(args[0], self.in_source)) is not None:
            cards, family = found
            if self.use(cards, COUNT):     # a tally answers it, else the list is walked as written
                comprehension = args[0]

                def terms():
                    self.visit(comprehension.element)
                    if comprehension.condition is not None:
                        self.visit(comprehension.condition)
                self.each(comprehension.name, family.icons, terms)
                return
        if function == "count":
            self.visit(args[0])
            if self.free(args[1]):
                self.counted[self.shape(args[1])] += 2 if self.loops else 1
            if not self.use(args[1], COUNT):
                self.visit(args[1])
            return
        if function == "len":
            if not self.use(args[0], LENGTH, MASK):
                self.visit(args[0])
            return
        if function in ("subset", "intersects"):
            self.visit(args[0])
            masked = (MASK,) if self.mask_able(args[0]) else ()
            if not self.use(args[1], SET, *masked):
                self.visit(args[1])
            return
        if function == "connected":
            ends = all(self.mask_able(end) for end in args[1:]) and bool(self.masks and self.masks.neighbours)
            if not self.use(args[0], SET, *((MASK,) if ends else ())):
                self.visit(args[0])
            for end in args[1:]:
                self.visit(end)
            return
        for arg in args:
            self.visit(arg)

