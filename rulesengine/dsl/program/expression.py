"""Checked AST → Python source: one expression, alone or as a statement of a larger function.

The closures of compiler.py call one Python function per node; generated source evaluates the whole
expression in one frame, so a category costs what the same line of hand-written Python costs. The
source is built from the checked tree only, never from the edition's text: numbers and booleans
through repr, every other constant (cards, icons, families, tables, builtins, the nodes errors point
at) handed in as an argument and named k0, k1, ...; names bound by `let` and comprehensions become
v0, v1, ...; game variables are read as the function that places the expression says (Held.read);
attributes are only those the language declares. Evaluation stays bounded as in compiler.py
(products capped, division by zero and missing table rows raised as DslRuntimeError carrying their
node). Every node's source is made by Generator.visit: the one place a per-evaluation step count
would be added.

Which form of a game value a use reads (the value, its tally, its set, its bitmask) is asked of the
tree (reads.Scoped), as reads.Uses asked it when the function's forms were chosen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import ast
from ..budget import MAX_NUMBER
from ..builtins import ATTRIBUTES
from . import names
from .calls import Calls
from .helpers import HELPERS, Full, Masks, Unsupported
from .reads import UNSET, Bound, Reads, Scoped, analyse

_ATTRIBUTE_NAMES = frozenset(name for members in ATTRIBUTES.values() for name in members if name.isidentifier())
_PLAIN = {"+": "+", "-": "-", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": "in", "not in": "not in",
          "and": "and", "or": "or"}
_LINE_KEY = re.compile(r"[a-z][a-z0-9_]*")   # a category's, race's or seat option's key, as the schema has it
_KEYED = frozenset({"lines", "options"})     # variables whose attributes are the edition's keys
_SMALL = 10**6
_SCALAR_CALLS = frozenset({"count", "len", "value", "sum", "abs", "lookup"})   # builtins giving a number


@dataclass(frozen=True)
class Held:
    """What the function an expression is placed in holds of the game: read(variable) -> the source
    reading it (raising Unsupported for one it lacks); tallies, sets, lengths: path -> the local
    holding that form of the value (lengths: a set as long as the value, which holds each item once);
    full: which tallies hold every icon; masks: the values held as bitmasks; caught: the statement's
    errors are caught and give a default (a bot judging a hand), so a builtin may fail any way (a
    table's missing row is a KeyError) and is not located."""

    read: object
    tallies: dict = field(default_factory=dict)
    sets: dict = field(default_factory=dict)
    lengths: dict = field(default_factory=dict)
    full: Full | None = None
    masks: Masks | None = None
    caught: bool = False


def _scalar(node) -> bool:
    """Whether the node gives a number, a card, an icon or a region whatever the game (written so): looking
    for it in a list compares one item at a time, each in one step."""
    if isinstance(node, ast.Number | ast.Bool | ast.Symbol | ast.Unary):
        return True
    if isinstance(node, ast.Attribute):
        return node.name not in ("cards", "visited")
    if isinstance(node, ast.Binary):
        return node.op in ("+", "-", "*", "//", "%")
    return isinstance(node, ast.Call) and node.function in _SCALAR_CALLS


def _list_of(elements: list) -> str:
    """The source of a list of these element sources (a trailing comma: [x, ] is a list of one)."""
    return "[" + "".join(f"{element}, " for element in elements) + "]"


def stays_small(node, resolved: dict) -> bool:
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
            and all(stays_small(default, resolved) for default in node.args[2:])
    if isinstance(node, ast.Call):
        return node.function in ("count", "value", "len")
    if isinstance(node, ast.Binary) and node.op in ("//", "%"):
        return isinstance(node.right, ast.Number) and node.right.value != 0 and stays_small(node.left, resolved)
    return False


class Shared:
    """The constants of the expressions generated into one function."""

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
        return f"{names.CONSTANT}{self.slots[key]}"

    def tally_prefix(self) -> str:
        self.expressions += 1
        return f"{names.HOISTED}{self.expressions}_"

    def names(self) -> str:
        return ", ".join(f"{names.CONSTANT}{i}" for i in range(len(self.constants)))


class Generator(Calls, Scoped):
    def __init__(self, resolved: dict, edition, held: Held, shared: Shared, hoisted: frozenset = frozenset()):
        super().__init__(resolved, held.masks)
        self.edition = edition         # the lookups builtins read: icon values, the map's paths
        self.held = held
        self.shared = shared
        self.hoisted = hoisted         # shapes of the cards values counted more than once: tallied first
        self.tallies: dict = {}        # shape of such a value -> (its source, its tally's local)
        self.used: set = set()         # the locals of `held` the source reads
        self.locals = 0
        self.in_source = 0             # inside a comprehension's source, where Python refuses `:=`
        self.tally_prefix = shared.tally_prefix()
        self.metered = False           # the source charges the step budget: its statement begins an evaluation

    def visit(self, node) -> str:
        """The source of one node (every node's goes through here)."""
        return super().visit(node)

    def constant(self, value) -> str:
        return self.shared.constant(value)

    def literal(self, value) -> str:
        if type(value) is bool or type(value) is int:
            return repr(value)
        return self.constant(value)

    def fresh(self) -> str:
        local = f"{names.LOCAL}{self.locals}"
        self.locals += 1
        return local

    def held_form(self, forms: dict, node) -> str | None:
        """The local holding this form of the node's game value (one of held's dicts), else None."""
        path = self.path(node)
        local = forms.get(path) if path is not None else None
        if local is not None:
            self.used.add(local)
        return local

    def count_in(self, tally: str, icon_node, icon_source: str) -> str:
        """How often the icon is printed, read from a tally the function holds."""
        full = self.held.full
        if full is not None and tally in full.tallies:
            key = self.path(icon_node)
            if (tally, key) in full.once:
                self.used.add(full.once[tally, key])
                return full.once[tally, key]
            value = self.known(icon_node)
            if type(value) is str and value in full.icons:
                return full.read(tally, value, icon_source)
            if full.index is not None:   # a packed tally: the icon's byte, the last (always 0) for an icon it lacks
                index = self.constant(full.index)
                if key in full.keys:
                    return f"{tally}[{index}[{icon_source}]]"
                return f"{tally}[{index}.get({icon_source}, {len(full.index)})]"
            if key in full.keys:
                return f"{tally}[{icon_source}]"
        return f"{tally}.get({icon_source}, 0)"

    def visit_other(self, node) -> str:
        raise Unsupported(type(node).__name__)

    def visit_Number(self, node):
        return self.literal(node.value)

    visit_Bool = visit_Number

    def visit_Symbol(self, node):
        return self.literal(self.resolved[id(node)])

    def visit_Name(self, node):
        binding = self.bound(node.name)
        if binding is not None:
            return binding.source
        if id(node) in self.resolved:
            return self.literal(self.resolved[id(node)])
        return self.held.read(node.name)

    def visit_Attribute(self, node):
        target = node.target
        if isinstance(target, ast.Name) and self.path(target) in _KEYED and _LINE_KEY.fullmatch(node.name):
            # a round line of the sheet or a seat option: the key a constant, so no text of the edition reaches
            # the source
            return f"{self.constant(getattr)}({self.visit(target)}, {self.constant(node.name)})"
        if node.name not in _ATTRIBUTE_NAMES:
            raise Unsupported(f"attribute {node.name!r}")
        return f"{self.visit(target)}.{node.name}"

    def visit_Unary(self, node):
        if node.op == "-":
            return f"(-{self.visit(node.operand)})"
        return f"(not {self.visit(node.operand)})"

    def visit_Binary(self, node):
        left, right, op = self.visit(node.left), self.visit(node.right), node.op
        if op in ("//", "%") and isinstance(node.right, ast.Number) and node.right.value != 0:
            return f"({left} {op} {right})"             # a divisor that is never zero needs no check
        if op == "*" and stays_small(node.left, self.resolved) and stays_small(node.right, self.resolved):
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
            self.metered = True   # lists compared item by item are charged (dsl/meter.py)
            equal = f"_equal({left}, {right}, {self.constant(node)})"
            return equal if op == "==" else f"(not {equal})"
        if op in ("in", "not in") and not _scalar(node.left):
            self.metered = True   # a list or a seat looked for in a list: compared item by item, charged
            within = f"_within({left}, {right}, {self.constant(node)})"
            return within if op == "in" else f"(not {within})"
        return f"({left} {_PLAIN[op]} {right})"

    def visit_If(self, node):
        return f"({self.visit(node.then)} if {self.visit(node.condition)} else {self.visit(node.otherwise)})"

    def visit_Let(self, node):
        value = self.visit(node.value)
        local = self.fresh()
        with self.binding({node.name: Bound(UNSET, local)}):
            body = self.visit(node.body)
        if self.in_source:
            return f"(lambda {local}: {body})({value})"
        return f"(({local} := {value}), {body})[1]"   # every local name is new: nothing else is rebound

    def for_each(self, name: str, items, write) -> list:
        """[write(item) for item in items], each written with `name` read as that item (a constant), as
        inside the comprehension that binds it."""
        written = []
        for item in items:
            with self.binding({name: Bound(item, self.constant(item))}):
                written.append(write(item))
        return written

    def visit_Comprehension(self, node):
        items = self.written_out(node)
        if items is not None:
            return _list_of(self.for_each(node.name, items, lambda item: self.visit(node.element)))
        source = node.source
        family = self.family(source.args[1]) if isinstance(source, ast.Call) and source.function == "icons" else None
        self.in_source += 1
        try:
            if family is not None:
                # over icons(cards, family): the cards' icons walked in place, without the list icons() would build
                cards, card = self.visit(source.args[0]), self.fresh()
            else:
                cards, card = self.visit(source), None
        finally:
            self.in_source -= 1
        local = self.fresh()
        self.metered = True   # each item of the source charged (dsl/meter.py)
        if card is not None:   # charged an icon of the family at a time, as the reference goes through icons()
            members = self.constant(family.icon_set)
            cards = f"_icon_steps({cards}, {members}, {self.constant(node)})"
            loop = f"{card} in {cards} for {local} in {card}.icons if {local} in {members}"
        else:
            loop = f"{local} in _steps({cards}, {self.constant(node)})"
        with self.binding({node.name: Bound(UNSET, local)}):
            element = self.visit(node.element)
            condition = f" if {self.visit(node.condition)}" if node.condition is not None else ""
        return f"[{element} for {loop}{condition}]"

    def visit_ListLiteral(self, node):
        return _list_of([self.visit(item) for item in node.items])


def inline(node, resolved: dict, edition, shared: Shared, held: Held, reads: Reads | None = None
           ) -> tuple[str, dict, set, bool]:
    """One expression as Python source to be placed in a larger generated function (see Held), its
    constants named in `shared`. Returns the source, its own tallies (source of a cards value ->
    local, to be assigned before it runs), the locals of `held` it reads, and whether it charges the
    step budget (its statement then begins an evaluation: _begin()). Raises Unsupported for what it
    does not translate. reads: the tree's analysis, when the caller keeps one (reads.reads_of)."""
    hoisted = (reads or analyse(node, resolved)).hoisted
    generator = Generator(resolved, edition, held, shared, hoisted)
    source = generator.visit(node)
    return source, dict(generator.tallies.values()), generator.used, generator.metered


def _read_env(name: str) -> str:
    return f"env[{name!r}]"


def generate(node, resolved: dict, edition) -> tuple[str, list]:
    """The source of `def make(k0, k1, ...)` returning the expression's function of its environment
    dict, and its constants."""
    shared = Shared()
    body, tallies, _, metered = inline(node, resolved, edition, shared, Held(_read_env))
    prologue = "        _begin()\n" if metered else ""
    prologue += "".join(f"        {local} = _tally({cards})\n" for cards, local in tallies.items())
    source = (f"def make({shared.names()}):\n    def expression(env):\n{prologue}        return {body}\n"
              "    return expression\n")
    return source, shared.constants


def compile_to_python(node, resolved: dict, edition):
    """The expression as one generated Python function of its environment (the deepest nesting the
    parser lets through stays within what Python compiles: tests/test_program_expression.py)."""
    source, constants = generate(node, resolved, edition)
    namespace = dict(HELPERS)
    exec(compile(source, "<scoring expression>", "exec"), namespace)  # the source comes from the checked tree only
    return namespace["make"](*constants)
