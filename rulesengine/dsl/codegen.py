"""Checked AST → the source of one Python function per expression, compiled once per edition.

The closures of compiler.py call one Python function per node; a generated function evaluates the
whole expression in one frame, so a category costs what the same line of hand-written Python
costs. The source is built from the checked tree only, never from the edition's text: numbers and
booleans through repr, every other constant (cards, icons, families, tables, builtins, the nodes
errors point at) handed in as an argument and named k0, k1, ...; names bound by `let` and
comprehensions become v0, v1, ...; game variables are read as env[<repr of the name>]; attributes
are only those the language declares. Evaluation stays bounded as in compiler.py (products capped,
division by zero and missing table rows raised as DslRuntimeError carrying their node).
Anything it does not know how to generate falls back to compiler.py's closures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import ast
from .ast import Visitor
from .budget import MAX_NUMBER
from .builtins import ATTRIBUTES, REGISTRY, DslRuntimeError
from .compiler import _equal, compile_checked

_ATTRIBUTE_NAMES = frozenset(name for members in ATTRIBUTES.values() for name in members if name.isidentifier())
_PLAIN = {"+": "+", "-": "-", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": "in", "not in": "not in",
          "and": "and", "or": "or"}


class Unsupported(Exception):
    """A node this generator does not translate; the expression keeps its closures."""


def _multiply(a, b, node):
    product = a * b
    if -MAX_NUMBER <= product <= MAX_NUMBER:
        return product
    _too_large(node)


def _too_large(node):
    message = f"a product larger than {MAX_NUMBER:,} (is something multiplied by itself over and over?)"
    raise DslRuntimeError(message, node)


def _floordiv(a, b, node):
    if b == 0:
        raise DslRuntimeError("division by zero", node)
    return a // b


def _mod(a, b, node):
    if b == 0:
        raise DslRuntimeError("division by zero", node)
    return a % b


def _tally(cards) -> dict:
    """icon -> how many times it is printed on the cards: every count(icon, cards) of one evaluation
    over the same cards reads this instead of walking the cards again."""
    tally: dict = {}
    for card in cards:
        for icon in card.icons:
            tally[icon] = tally.get(icon, 0) + 1
    return tally


def _count(icon, cards) -> int:
    """count(icon, cards) where no other count reads the same cards."""
    found = 0
    for card in cards:
        if icon in card.icons:
            found += card.icons.count(icon)
    return found


def _subset(a, b) -> bool:
    """subset(a, b) with the loop in C: every item of a is in b."""
    return set(b).issuperset(a)


def _intersects(a, b) -> bool:
    """intersects(a, b) with the loop in C: some item of a is in b."""
    return not set(b).isdisjoint(a)


_FASTER = {"subset": "_subset", "intersects": "_intersects", "abs": "_abs"}   # builtins with a faster equal here


def _located(function, node):
    """A builtin whose errors point at its call (lookup's missing rows)."""
    def run(*values):
        try:
            return function(*values)
        except DslRuntimeError as exc:
            exc.node = exc.node or node
            raise
    return run


HELPERS = {"_multiply": _multiply, "_too_large": _too_large, "_floordiv": _floordiv, "_mod": _mod, "_equal": _equal,
           "_tally": _tally, "_count": _count, "_subset": _subset, "_intersects": _intersects, "_abs": abs,
           "__builtins__": {}}
_LOCAL = re.compile(r"\bv\d+\b")
_UNROLLED = 8   # a comprehension over this few icons or items is written out (see _written_out)
_CONSTANT = re.compile(r"k(\d+)")


@dataclass(frozen=True)
class Full:
    """Tallies their caller makes with every one of `icons` in them, 0 where none is printed, so that a
    count of one of these icons indexes the tally instead of calling its get (a tenth of the greedy bot's
    time went to those calls). tallies: their locals; keys: sources that always hold one of the icons
    (a choice's icon, looped over its family); once: counts the caller reads once into a local (the
    count of the choice's icon, which its requires and its points both read)."""

    tallies: frozenset
    icons: frozenset
    keys: frozenset = frozenset()
    once: dict = field(default_factory=dict)   # (tally, key source) -> the local its caller read it into


@dataclass(frozen=True)
class Masks:
    """Cards values their caller holds as bitmasks (bit card.index of each card: see card_mask), not as
    sets: one card more is an int's |, where a set is copied (the greedy bot adds one card to the visited
    cards of every hand it values). Only what a mask answers is read from it: subset and intersects
    with a region's cards or an edition constant, connected between two constants over the map, len;
    the caller falls back to sets where the source still reads the value itself. locals: source -> the
    local holding its mask, a value holding each site once (the visited cards); regions: region -> the
    mask of its cards; neighbours: card.index -> the mask of the cards a path joins it to."""

    locals: dict
    regions: dict
    neighbours: tuple = ()


def card_mask(cards) -> int:
    """The cards as a bitmask: bit card.index of each. A copy of a card (copies:) has its own bit,
    which the visited cards (each site once) never hold, as a set of them never holds the copy."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def connected_masks(nodes: int, sources: int, targets: int, neighbours: tuple) -> bool:
    """connected() over masks (see Masks): a target reached from a source by paths inside nodes."""
    if not nodes & targets:
        return False
    reached = frontier = nodes & sources
    while frontier:
        if frontier & targets:
            return True
        grown = 0
        while frontier:
            lowest = frontier & -frontier
            grown |= neighbours[lowest.bit_length() - 1]
            frontier ^= lowest
        frontier = grown & nodes & ~reached
        reached |= frontier
    return False


_REGION_CARDS = re.compile(r"(g_region|k\d+)\.cards")
_LINE_KEY = re.compile(r"[a-z][a-z0-9_]*")   # a category's or race's key, as the schema has it


def _list_of(elements: list) -> str:
    """The source of a list of these element sources (a trailing comma: [x, ] is a list of one)."""
    return "[" + "".join(f"{element}, " for element in elements) + "]"


def _read_env(name: str) -> str:
    return f"env[{name!r}]"


_SMALL = 10**6


def _small(node, resolved: dict) -> bool:
    """Whether the node's value stays within about a million whatever the game, so that a product of
    two such never reaches MAX_NUMBER (10**15): a literal up to _SMALL, an icon's value (at most
    1,000 by the schema), a count or a length (a list one evaluation can go through holds at most
    MAX_WORK = 100,000 items, a card at most 12 icons), a row of a table whose rows are all such
    literals (and its default, if any), or one of those // or % a literal."""
    if isinstance(node, ast.Number):
        return abs(node.value) <= _SMALL
    if isinstance(node, ast.Call) and node.function == "lookup" and isinstance(node.args[0], ast.Name):
        rows = getattr(resolved.get(id(node.args[0])), "rows", None)
        return type(rows) is dict and all(type(v) is int and abs(v) <= _SMALL for v in rows.values()) \
            and all(_small(default, resolved) for default in node.args[2:])
    if isinstance(node, ast.Call):
        return node.function in ("count", "value", "len")
    if isinstance(node, ast.Binary) and node.op in ("//", "%"):
        return isinstance(node.right, ast.Number) and node.right.value != 0 and _small(node.left, resolved)
    return False


class _Generator(Visitor):
    def __init__(self, resolved: dict, edition, hoisted: frozenset = frozenset(), read=_read_env, shared=None,
                 fixed: dict | None = None, sets: dict | None = None, lengths: dict | None = None,
                 full: Full | None = None, masks: Masks | None = None):
        self.resolved = resolved
        self.masks = masks             # cards values held as bitmasks (see Masks), or None
        self.fixed = fixed or {}       # source of a cards value -> the local its caller tallied it in
        self.full = full               # which of those tallies hold every icon (see Full), or None
        self.sets = sets               # None, or source of a value -> the local its caller made a set of;
        # given, errors are never reported (a bot's hand that fails counts as its default): a builtin
        # may then fail with any exception, so lookup and value index their dicts directly
        self.lengths = lengths or {}   # source of a value -> a set of it as long as it (see inline)
        self.hoisted = hoisted         # cards values counted more than once in an evaluation: tallied first
        self.counted: dict = {}        # cards value -> how often a count reads it (2 inside a comprehension)
        self.comprehensions = 0
        self.edition = edition
        self.read = read               # game variable name -> the source that reads it
        # constants may be shared by the expressions of one generated function
        self.shared = shared or Shared()
        self.constants = self.shared.constants
        self.scopes: list[dict] = []   # name bound by let/comprehension -> its local
        self.locals = 0
        self.tallies: dict = {}        # source of a cards value that binds nothing -> its tally's local
        # inside a comprehension's source, where Python refuses `:=`: let and products are calls there
        self.in_source = 0
        self.tally_prefix = shared.tally_prefix() if shared else "t"

    def constant(self, value) -> str:
        return self.shared.constant(value)

    def named(self, source: str):
        """The constant a source such as k3 names (see Shared), or None for any other source."""
        constant = _CONSTANT.fullmatch(source)
        return self.constants[int(constant[1])] if constant else None

    def count_in(self, tally: str, icon: str) -> str:
        """How often the icon (source) is printed, read from a tally the caller made (one of self.fixed)."""
        full = self.full
        if full is not None and tally in full.tallies:
            if (tally, icon) in full.once:
                return full.once[tally, icon]
            value = self.named(icon)
            if icon in full.keys or (type(value) is str and value in full.icons):
                return f"{tally}[{icon}]"
        return f"{tally}.get({icon}, 0)"

    def literal(self, value) -> str:
        if type(value) is bool or type(value) is int:
            return repr(value)
        return self.constant(value)

    def fresh(self) -> str:
        """A local name used nowhere else in the expression."""
        local = f"v{self.locals}"
        self.locals += 1
        return local

    def bind(self, name: str) -> str:
        local = self.fresh()
        self.scopes.append({name: local})
        return local

    def local(self, name: str) -> str | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def visit_other(self, node) -> str:
        raise Unsupported(type(node).__name__)

    def visit_Number(self, node):
        return self.literal(node.value)

    def visit_Bool(self, node):
        return self.literal(node.value)

    def visit_Symbol(self, node):
        return self.literal(self.resolved[id(node)])

    def visit_Name(self, node):
        local = self.local(node.name)
        if local is not None:
            return local
        if id(node) in self.resolved:
            return self.literal(self.resolved[id(node)])
        return self.read(node.name)

    def visit_Attribute(self, node):
        if self._line(node):   # the key is a constant: no text of the edition reaches the source
            return f"{self.constant(getattr)}({self.visit(node.target)}, {self.constant(node.name)})"
        if node.name not in _ATTRIBUTE_NAMES:
            raise Unsupported(f"attribute {node.name!r}")
        return f"{self.visit(node.target)}.{node.name}"

    def _line(self, node) -> bool:
        """Whether the attribute reads a round line of the sheet, `lines.<key>`: the checker let only the
        edition's line keys through, and a key is lower-case letters, digits and _ (checked again here:
        no other attribute of the lines can be read)."""
        target = node.target
        return (isinstance(target, ast.Name) and target.name == "lines" and self.local("lines") is None
                and id(target) not in self.resolved and _LINE_KEY.fullmatch(node.name) is not None)

    def visit_Unary(self, node):
        if node.op == "-":
            return f"(-{self.visit(node.operand)})"
        if node.op == "not":
            return f"(not {self.visit(node.operand)})"
        raise Unsupported(node.op)

    def visit_Binary(self, node):
        left, right, op = self.visit(node.left), self.visit(node.right), node.op
        if op in ("//", "%") and isinstance(node.right, ast.Number) and node.right.value != 0:
            return f"({left} {op} {right})"             # a divisor that is never zero needs no check
        if op == "*" and _small(node.left, self.resolved) and _small(node.right, self.resolved):
            return f"({left} * {right})"                  # two small numbers: the product is far below the cap
        if op == "*" and not self.in_source:   # the product's bound checked in place, without a call
            product = self.fresh()
            return (f"({product} if {-MAX_NUMBER} <= ({product} := {left} * {right}) <= {MAX_NUMBER} "
                    f"else _too_large({self.constant(node)}))")
        if op in ("*", "//", "%"):
            helper = {"*": "_multiply", "//": "_floordiv", "%": "_mod"}[op]
            return f"{helper}({left}, {right}, {self.constant(node)})"
        if op in ("==", "!="):
            if isinstance(node.left, ast.Number | ast.Bool) or isinstance(node.right, ast.Number | ast.Bool):
                return f"({left} {op} {right})"       # a number never equals a list: no list/tuple question
            return f"_equal({left}, {right})" if op == "==" else f"(not _equal({left}, {right}))"
        if op not in _PLAIN:
            raise Unsupported(op)
        return f"({left} {_PLAIN[op]} {right})"

    def visit_If(self, node):
        return f"({self.visit(node.then)} if {self.visit(node.condition)} else {self.visit(node.otherwise)})"

    def visit_Let(self, node):
        value = self.visit(node.value)
        local = self.bind(node.name)
        try:
            body = self.visit(node.body)
        finally:
            self.scopes.pop()
        if self.in_source:
            return f"(lambda {local}: {body})({value})"
        return f"(({local} := {value}), {body})[1]"   # every local name is new: nothing else is rebound

    def _family(self, node):
        """The family a node stands for when it names one (an edition constant), else None."""
        value = self.resolved.get(id(node)) if isinstance(node, ast.Name) else None
        return value if hasattr(value, "icon_set") else None

    def visit_Comprehension(self, node):
        source = node.source
        elements = self._written_out(node)
        if elements is not None:
            return _list_of(elements)
        family = self._family(source.args[1]) if isinstance(source, ast.Call) and source.function == "icons" else None
        self.in_source += 1
        try:
            if family is not None:
                # over icons(cards, family): the cards' icons walked in place, without the list icons() would build
                cards, card = self.visit(source.args[0]), self.fresh()
                source = None
            else:
                source = self.visit(source)
        finally:
            self.in_source -= 1
        local = self.bind(node.name)
        if source is None:
            source = f"{card} in {cards} for {local} in {card}.icons if {local} in {self.constant(family.icon_set)}"
        else:
            source = f"{local} in {source}"
        self.comprehensions += 1
        try:
            element = self.visit(node.element)
            condition = f" if {self.visit(node.condition)}" if node.condition is not None else ""
        finally:
            self.scopes.pop()
            self.comprehensions -= 1
        return f"[{element} for {source}{condition}]"

    def _sum_by_counts(self, node) -> str | None:
        """sum([f(i) for i in icons(cards, family) if c(i)]) from the tally its caller made of cards: the
        sum over the family's icons of f(icon) times how often the icon is printed, f worked out only for
        an icon the cards show (so it fails where the list would). An element sees nothing but its icon
        and what stays the same all through the list, so every occurrence of an icon adds the same.
        None: the list is generated as it is written."""
        source = node.source if isinstance(node, ast.Comprehension) else None
        if not (isinstance(source, ast.Call) and source.function == "icons"):
            return None
        family = self._family(source.args[1])
        if family is None or len(family.icons) > _UNROLLED:
            return None
        tally = self.fixed.get(self.visit(source.args[0]))
        if tally is None:
            return None
        def term(icon: str) -> str:
            times = self.fresh()
            test = f"({times} := {self.count_in(tally, self.constant(icon))})"
            if node.condition is not None:
                test = f"{test} and {self.visit(node.condition)}"
            return f"({self.visit(node.element)} * {times} if {test} else 0)"

        terms = self._for_each(node.name, family.icons, term)
        return "(" + " + ".join(terms or ["0"]) + ")"

    def _for_each(self, name: str, items, write) -> list:
        """[write(item) for item in items], each written with `name` read as that item (a constant), as
        inside the comprehension that binds it."""
        written = []
        self.comprehensions += 1
        try:
            for item in items:
                self.scopes.append({name: self.constant(item)})
                try:
                    written.append(write(item))
                finally:
                    self.scopes.pop()
        finally:
            self.comprehensions -= 1
        return written

    def _written_out(self, node) -> list | None:
        """The sources of the elements of [element for name in kinds(family)] (or over an edition constant
        such as `regions`), one per item, the name read as that item (in Python 3.11 a comprehension is a
        function made and called, which costs more than a few elements), or of a list literal; None for
        any other list."""
        if isinstance(node, ast.ListLiteral):
            return [self.visit(item) for item in node.items]
        if not isinstance(node, ast.Comprehension) or node.condition is not None:
            return None
        items, source = None, node.source
        if isinstance(source, ast.Call) and source.function == "kinds" and self._family(source.args[0]) is not None:
            items = self._family(source.args[0]).icons
        elif isinstance(source, ast.Name) and self.local(source.name) is None \
                and type(self.resolved.get(id(source))) is tuple:
            items = self.resolved[id(source)]       # an edition constant such as `regions`
        if items is None or len(items) > _UNROLLED:
            return None
        return self._for_each(node.name, items, lambda item: self.visit(node.element))

    def visit_ListLiteral(self, node):
        return _list_of([self.visit(item) for item in node.items])

    def visit_Call(self, node):
        entry = REGISTRY.get(node.function)
        if entry is None:
            raise Unsupported(node.function)
        if node.function == "sum":
            counted = self._sum_by_counts(node.args[0]) if not self.in_source else None
            if counted is not None:
                return counted
            elements = self._written_out(node.args[0])
            if elements is not None:   # the numbers added in place, without the list
                return "(" + " + ".join(elements or ["0"]) + ")"
        if node.function in ("all", "any"):
            elements = self._written_out(node.args[0])
            if elements is not None:   # every element worked out, as the list would be: & and |, not and/or
                joined = " & " if node.function == "all" else " | "
                return "(" + joined.join(f"({e})" for e in elements) + ")" if elements else repr(node.function == "all")
        args = [self.visit(arg) for arg in node.args]
        if node.function == "count":
            cards = args[1]
            if _LOCAL.search(cards) is None:
                self.counted[cards] = self.counted.get(cards, 0) + (2 if self.comprehensions else 1)
            if cards in self.fixed:
                return self.count_in(self.fixed[cards], args[0])
            if cards not in self.hoisted:
                return f"_count({args[0]}, {cards})"
            if cards not in self.tallies:
                self.tallies[cards] = f"{self.tally_prefix}{len(self.tallies)}"
            return f"{self.tallies[cards]}.get({args[0]}, 0)"
        if node.function == "value":   # the value of an icon named by a constant (kinds written out) is a number
            values = getattr(self.edition, "icon_values", None) or {}
            icon = self.named(args[0])
            if type(icon) is str and type(values.get(icon)) is int:
                return repr(values[icon])
        if self.sets is not None:
            quick = self.unreported_call(node.function, args)
            if quick is not None:
                return quick
        if node.function == "kinds" and self._family(node.args[0]) is not None:
            return self.constant(list(self._family(node.args[0]).icons))  # the same list at every call
        if node.function in _FASTER:
            return f"{_FASTER[node.function]}({', '.join(args)})"
        if entry.needs_edition:
            args.append(self.constant(self.edition))
        function = _located(entry.run, node) if entry.fails else entry.run
        return f"{self.constant(function)}({', '.join(args)})"


    def unreported_call(self, function: str, args: list) -> str | None:
        """A call where errors are not reported, in fewer Python calls; None: generated as usual."""
        masked = self._masked_call(function, args) if self.masks is not None else None
        if masked is not None:
            return masked
        if function in ("subset", "intersects") and args[1] in self.sets:
            method = "issuperset" if function == "subset" else "isdisjoint"
            test = f"{self.sets[args[1]]}.{method}({args[0]})"
            return test if function == "subset" else f"(not {test})"
        if function == "len" and args[0] in self.lengths:
            return f"len({self.lengths[args[0]]})"
        if function == "connected" and args[0] in self.sets:   # the nodes as a set: the same nodes
            nodes = [self.sets[args[0]], *args[1:], self.constant(self.edition)]
            return f"{self.constant(REGISTRY[function].run)}({', '.join(nodes)})"
        if function == "value":
            return f"{self.constant(self.edition.icon_values)}[{args[0]}]"
        table = self.named(args[0])
        if function == "lookup" and hasattr(table, "rows"):
            rows = self.constant(table.rows)
            return f"{rows}[{args[1]}]" if len(args) == 2 else f"{rows}.get({args[1]}, {args[2]})"
        return None

    def _masked_call(self, function: str, args: list) -> str | None:
        """subset/intersects of a masked value and a region's cards or a constant, connected over a
        masked value, len of one (see Masks); None otherwise."""
        masks = self.masks.locals
        if function == "len" and args[0] in masks:
            return f"{masks[args[0]]}.bit_count()"
        if function == "connected" and args[0] in masks and self.masks.neighbours:
            ends = [self._mask_of(source) for source in args[1:]]
            if None in ends:
                return None
            return (f"{self.constant(connected_masks)}({masks[args[0]]}, {ends[0]}, {ends[1]}, "
                    f"{self.constant(self.masks.neighbours)})")
        if function not in ("subset", "intersects") or args[1] not in masks:
            return None
        mask = self._mask_of(args[0])
        if mask is None:
            return None
        if function == "subset":
            return f"(not ({mask} & ~{masks[args[1]]}))"
        return f"(({mask} & {masks[args[1]]}) != 0)"

    def _mask_of(self, source: str) -> str | None:
        """The source of the mask of a cards value: the race's region's cards, a region's or a constant list
        of cards (written as a number); None for any other."""
        cards = _REGION_CARDS.fullmatch(source)
        if cards is not None and cards[1] == "g_region":   # the race's region
            return f"{self.constant(self.masks.regions)}[g_region]"
        if cards is not None:
            region = self.named(cards[1])
            return repr(self.masks.regions[region]) if region in self.masks.regions else None
        value = self.named(source)
        if type(value) in (tuple, list) and all(hasattr(card, "index") and hasattr(card, "site") for card in value):
            return repr(card_mask(value))
        return None


class Shared:
    """The constants of several expressions generated into one function (see inline)."""

    def __init__(self):
        self.constants: list = []
        self.slots: dict = {}
        self.expressions = 0

    def constant(self, value) -> str:
        """The name (k0, k1, ...) the generated function reads this constant object by."""
        key = id(value)
        if key not in self.slots:
            self.slots[key] = len(self.constants)
            self.constants.append(value)
        return f"k{self.slots[key]}"

    def tally_prefix(self) -> str:
        self.expressions += 1
        return f"t{self.expressions}_"

    def names(self) -> str:
        return ", ".join(f"k{i}" for i in range(len(self.constants)))


def inline(node, resolved: dict, edition, shared: Shared, read, fixed: dict | None = None,
           sets: dict | None = None, lengths: dict | None = None, full: Full | None = None,
           masks: Masks | None = None) -> tuple[str, dict]:
    """One expression as Python source to be placed in a larger generated function: game variables
    read by read(name) (a local of that function; it raises Unsupported for a name it cannot give),
    constants named in `shared`, counts over a cards value in `fixed` read from the tally the
    function made of it once; with `sets` (source of a value -> the local holding it as a set) its
    errors are not reported, only caught, and the length of a value in `lengths` (source -> the local
    holding it as a set, when it holds each item once: the visited cards) is read from that set, so
    the caller need not make the list; `full` says which tallies hold every icon, `masks` which values
    are bitmasks (with `sets` only). Returns the source and its own tallies (source of a cards value
    -> local), which must be assigned before it runs. Raises Unsupported for what it does not
    translate."""
    first = _Generator(resolved, edition, read=read, shared=Shared(), fixed=fixed, sets=sets, lengths=lengths,
                       full=full, masks=masks)
    first.visit(node)
    hoisted = frozenset(cards for cards, uses in first.counted.items() if uses > 1)
    generator = _Generator(resolved, edition, hoisted, read=read, shared=shared, fixed=fixed, sets=sets,
                           lengths=lengths, full=full, masks=masks)
    return generator.visit(node), generator.tallies


def generate(node, resolved: dict, edition) -> tuple[str, list]:
    """The source of `def make(k0, k1, ...)` returning the expression's function, and its constants."""
    shared = Shared()
    body, tallies = inline(node, resolved, edition, shared, _read_env)
    prologue = "".join(f"        {local} = _tally({cards})\n" for cards, local in tallies.items())
    source = (f"def make({shared.names()}):\n    def expression(env):\n{prologue}        return {body}\n"
              "    return expression\n")
    return source, shared.constants


def compile_to_python(node, resolved: dict, edition):
    """The expression as one generated Python function of env; the closures if it cannot be generated."""
    try:
        source, constants = generate(node, resolved, edition)
        namespace = dict(HELPERS)
        exec(compile(source, "<scoring expression>", "exec"), namespace)  # the source comes from the checked tree only
    except (Unsupported, SyntaxError, RecursionError, MemoryError, ValueError):
        return compile_checked(node, resolved, edition)
    return namespace["make"](*constants)
