"""The scoring language's front door: check an expression, then compile it (like jmespath's
compile() and search()). Code outside rulesengine/dsl uses the names exported here, never the
modules behind them.

An expression is checked in a Scope (the game variables it may read) against a Language (what an
edition gives every expression: its quoted names, its constants, what builtins read when run, and
the largest size of its lists). Problems come back as data, with offsets into the expression's text;
turning them into positions in a file is the caller's job. check() never raises on bad text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

_WHERE = {   # name -> the module that defines it, imported when the name is first used (PEP 562)
    **dict.fromkeys(("Binary", "Call", "Comprehension", "Let", "Name", "Node", "Symbol", "Visitor", "variable_names",
                     "walk"), ".ast"),
    **dict.fromkeys(("MAX_NUMBER", "MAX_WORK", "Bounds", "worst_case"), ".budget"),
    **dict.fromkeys(("COSTS", "MAP", "REGISTRY", "Builtin", "DslRuntimeError"), ".builtins"),
    **dict.fromkeys(("Checked", "Problem", "Symbols"), ".checker"),
    **dict.fromkeys(("UNKNOWN", "constant_value"), ".folding"),
    **dict.fromkeys(("DslSyntaxError", "parse"), ".parser"),
    "FAILED": ".program",
    **dict.fromkeys(("Param", "exactly"), ".signatures"),
    **dict.fromkeys(("ANY", "BOOL", "CARD", "CARDS", "ERROR", "FAMILY", "NUMBER", "REGION", "SEAT", "SEATS", "TABLE",
                     "IconType", "LinesType", "ListType", "OptionsType", "Scope", "compatible"), ".types"),
}


def __getattr__(name: str):
    """Each name imported when first used: an edition read back from the cache (edition/cache.py) or a game
    loads the types and the compiler it needs, never Lark's parser (dsl/parser.py) unless a text is parsed."""
    if name in _WHERE:
        value = globals()[name] = getattr(import_module(_WHERE[name], __name__), name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Language:
    """What an edition gives every expression."""

    symbols: object  # the quoted names: icons, regions, card letters
    constants: dict  # name -> (type, value): families, tables, card sets, deck, regions
    lookups: object  # what builtins read when run: .icon_values, .paths
    bounds: object = None  # the largest lists, for the work budget (None: no budget)


def check(text: str, scope, language: Language, want=None):
    """Parse and check text; every problem (syntax D100, names and types D2xx, the wrong type for
    its place D208, the budget D210) is in .problems, the first syntax error alone."""
    from . import checker
    from .checker import Checked, Problem
    from .parser import DslSyntaxError, parse
    from .types import ERROR, compatible

    try:
        node = parse(text)
    except DslSyntaxError as exc:
        hint = exc.hint
        if text[exc.start : exc.end] == "=":
            hint = "compare with '==', or bind a name with 'let name = value; body'"
        return Checked(ERROR, problems=[Problem(f"syntax: {exc.message}", exc.start, exc.end, "D100", hint)], text=text)
    checked = checker.check(node, scope, language.symbols, language.bounds)
    checked.node, checked.text = node, text
    if not checked.problems and want is not None and not compatible(want, checked.type):
        message = f"this expression gives {checked.type}, but {want} is needed here"
        checked.problems.append(Problem(message, node.start, node.end, "D208", _conversion_hint(want, checked.type)))
    return checked


RUNNERS = ("compiled", "reference")


def compile(checked, language: Language, runner: str = "compiled") -> Callable[[dict], object]:
    """The checked expression (without problems) as a function of its environment: a dict of the game
    variables of its scope. It raises DslRuntimeError, carrying the node, on a value it cannot give.
    runner "compiled": one generated Python function (program/expression.py); "reference": the
    closures of compiler.py, which evaluate every node the straightforward way."""
    if checked.problems or checked.node is None:
        raise ValueError("only an expression without problems compiles")
    if runner not in RUNNERS:
        raise ValueError(f"runner must be one of {', '.join(RUNNERS)}, not {runner!r}")
    return compiled(checked.node, checked.resolved, language.lookups, runner)


def compiled(node, resolved, lookups, runner: str = "compiled") -> Callable[[dict], object]:
    """compile() of an expression's checked tree (node, resolved names, lookups), as an Edition keeps it: an
    edition read back from the cache compiles its expressions again from the trees it kept."""
    if runner == "reference":
        from .compiler import compile_checked

        run = compile_checked(node, resolved, lookups)
    else:
        from .program import compile_to_python

        run = compile_to_python(node, resolved, lookups)
    run.runner = runner   # what an Edition checks its own runner against (edition/model.py)
    return run


def _conversion_hint(want, got) -> str | None:
    from .types import BOOL, NUMBER, ListType

    if want == NUMBER and got == BOOL:
        return "turn a condition into points with 'if condition then points else 0'"
    if want == NUMBER and isinstance(got, ListType):
        return "len(list) counts the items, sum(list) adds numbers"
    if want == BOOL and got == NUMBER:
        return "compare the number, e.g. '... >= 1'"
    return None


__all__ = [
    "FAILED",
    "RUNNERS",
    "LinesType",
    "OptionsType",
    "Binary",
    "Call",
    "Comprehension",
    "Let",
    "Name",
    "ANY",
    "BOOL",
    "CARD",
    "CARDS",
    "COSTS",
    "ERROR",
    "FAMILY",
    "MAX_NUMBER",
    "MAX_WORK",
    "MAP",
    "NUMBER",
    "REGION",
    "REGISTRY",
    "SEAT",
    "SEATS",
    "TABLE",
    "UNKNOWN",
    "Bounds",
    "Builtin",
    "Checked",
    "DslRuntimeError",
    "DslSyntaxError",
    "IconType",
    "Language",
    "ListType",
    "Node",
    "Problem",
    "Scope",
    "Symbol",
    "Symbols",
    "Visitor",
    "check",
    "compile",
    "compatible",
    "constant_value",
    "Param",
    "exactly",
    "parse",
    "variable_names",
    "walk",
    "worst_case",
]
