"""The scoring language through its front door (rulesengine.dsl): builtins declared once as data,
check then compile, the work budget and the bound on numbers, errors that quote their own line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import cards

from rulesengine import check_edition, dsl, errors, render
from rulesengine.dsl import NUMBER, Builtin, Scope
from rulesengine.edition.build import ROUND_VARIABLES

BROKEN = Path(__file__).resolve().parent / "broken"


def checked_in_round(edition, text):
    return dsl.check(text, Scope(dict(ROUND_VARIABLES), edition.language.constants), edition.language)


def problems(edition, text):
    return [(p.code, p.message, p.start, p.end) for p in checked_in_round(edition, text).problems]


# -- the front door ------------------------------------------------------------------------------------
def test_check_then_compile_gives_the_value(australia):
    checked = checked_in_round(australia, "count('Kangaroos', cards) + len(regions)")
    assert checked.problems == [] and checked.type == NUMBER
    run = dsl.compile(checked, australia.language)
    kangaroos = [c for c in australia.cards if "Kangaroos" in c.icons][:2]
    assert run({"cards": kangaroos}) == 2 + 7  # two Kangaroos, seven regions


def test_check_reports_syntax_as_a_problem_with_offsets(australia):
    assert problems(australia, "1 +") == [("D100", "syntax: the expression ends too early", 2, 3)]


def test_only_an_expression_without_problems_compiles(australia):
    with pytest.raises(ValueError):
        dsl.compile(checked_in_round(australia, "cach"), australia.language)


def test_the_tree_is_made_of_ast_nodes_only_and_walked_root_first(australia):
    node = dsl.parse("abs(1 - x) + [y for y in z]")
    assert [type(n).__name__ for n in dsl.walk(node)] == [
        "Binary",
        "Call",
        "Binary",
        "Number",
        "Name",
        "Comprehension",
        "Name",
        "Name",
    ]


def test_every_walker_uses_the_one_visitor_idiom():
    from rulesengine.dsl import ast, budget, checker, compiler, folding

    kinds = {
        f"visit_{cls.__name__}"
        for cls in vars(ast).values()
        if isinstance(cls, type) and issubclass(cls, ast.Node) and cls is not ast.Node
    }
    assert len(kinds) == 12
    for visitor in (checker.Checker, compiler.Compiler, budget._Work):
        assert issubclass(visitor, dsl.Visitor) and kinds <= set(dir(visitor)), visitor
    assert issubclass(folding._Folder, dsl.Visitor)


# -- builtins as data ------------------------------------------------------------------------------------
def test_every_builtin_declares_its_signature_and_cost_class():
    for name, entry in dsl.REGISTRY.items():
        assert entry.name == name and entry.cost in dsl.COSTS and entry.summary.startswith(name + "(")
        assert all(isinstance(p, dsl.Param) for p in entry.params) and 1 <= entry.min_args <= entry.max_args
    assert (dsl.REGISTRY["min"].min_args, dsl.REGISTRY["min"].max_args) == (1, 8)
    assert (dsl.REGISTRY["lookup"].min_args, dsl.REGISTRY["lookup"].max_args) == (2, 3)


def test_a_builtin_declared_once_is_checked_compiled_and_budgeted(australia, monkeypatch):
    twice = Builtin("twice", (dsl.exactly(NUMBER),), NUMBER, lambda n: 2 * n, "one", "twice(n): n doubled")
    monkeypatch.setitem(dsl.REGISTRY, "twice", twice)
    checked = checked_in_round(australia, "twice(3) + 1")
    assert checked.problems == [] and dsl.compile(checked, australia.language)({}) == 7
    assert problems(australia, "twice(1, 2)") == [("D207", "'twice' takes 1 argument, got 2", 0, 11)]
    assert problems(australia, "twice(cards)") == [
        ("D205", "argument 1 of 'twice': expected number, got list of cards", 6, 11)
    ]
    assert checked.problems == [] and dsl.worst_case(
        checked.node, australia.language.bounds, ROUND_VARIABLES, checked.resolved
    ) == (4, None)


def test_folding_reads_the_registry(australia):
    checked = checked_in_round(australia, "max(abs(0 - 3), 2) + lookup(activity_points, 2)")
    assert dsl.constant_value(checked.node, checked.resolved) == 3 + 2


# -- the work budget and the bound on numbers ----------------------------------------------------------------
@pytest.mark.parametrize(
    "text, steps",
    [
        ("len([a for a in deck])", 59),  # 28 cards: 1 + 1 + 28 * (1 + 1) for the list, 1 for len
        ("count('Kangaroos', cards)", 17),  # 7 cards of at most 2 icons: 14, and 3 for the nodes
        ("len([[a for a in cards] for b in others])", 360),  # 21 * (16 + 1) + 2 with 16 = 1 + 1 + 7 * 2, and 1 for len
    ],
)
def test_the_worst_case_counts_the_editions_largest_lists(australia, text, steps):
    checked = checked_in_round(australia, text)
    assert dsl.worst_case(checked.node, australia.language.bounds, ROUND_VARIABLES, checked.resolved) == (steps, None)


def test_an_expression_over_the_budget_is_refused_at_its_costliest_loop(australia):
    text = "len([[[a for a in deck if a.number > b.number + c.number] for b in deck] for c in deck])"
    assert problems(australia, text) == [
        ("D210", "this can take 221,958 steps to evaluate, more than the budget of 100,000", 4, 87)
    ]


def test_the_shipped_editions_are_far_within_the_budget():
    from rulesengine import load_edition

    for name in ("australia", "europe", "usa"):
        edition = load_edition(Path(__file__).resolve().parent.parent / "editions" / f"{name}.yaml")
        assert edition.language.bounds.variables == {
            "cards": 7, "others": 21, "visited": 28, "opponents": 3, "round_totals": 4, "lines": 4, "totals": 4
        }


def test_numbers_are_bounded_where_they_are_written(australia):
    assert dsl.compile(checked_in_round(australia, "1000000000000000"), australia.language)({}) == 10**15
    assert problems(australia, "2 * 1000000000000001") == [
        (
            "D211",
            "the number 1000000000000001 is too large: numbers in expressions are at most 1,000,000,000,000,000",
            4,
            20,
        )
    ]
    assert (
        problems(australia, "1" * 309)[0][1]
        == "the number 11111111... (309 digits) is too large: numbers in expressions are at most 1,000,000,000,000,000"
    )


def test_a_product_too_large_is_a_located_runtime_error(australia):
    checked = checked_in_round(australia, "let x = 1000000000000000; len(cards) * x")
    with pytest.raises(dsl.DslRuntimeError) as caught:
        dsl.compile(checked, australia.language)({"cards": cards(australia, "AB")})
    assert (
        caught.value.message
        == "a product larger than 1,000,000,000,000,000 (is something multiplied by itself over and over?)"
    )
    assert (caught.value.node.start, caught.value.node.end) == (26, 40)


# -- errors quote their own line ----------------------------------------------------------------------------
def test_a_diagnostic_carries_the_line_it_points_at():
    path = BROKEN / "d202-unknown-name.yaml"
    _, diagnostics = check_edition(path)
    [diagnostic] = diagnostics
    assert diagnostic.quote == "    score: abs(throw.number - cach.number)"
    assert render(diagnostic).splitlines()[1:3] == ["        score: abs(throw.number - cach.number)", " " * 34 + "^~~~"]
    assert not hasattr(errors, "SOURCES")


def test_quoting_fills_only_diagnostics_of_the_files_given():
    here = errors.Diagnostic(errors.Span("a.yaml", 2, 1), "m", "E002")
    elsewhere = errors.Diagnostic(errors.Span("b.yaml", 1, 1), "m", "E002")
    quoted = errors.quoting([here, elsewhere], {"a.yaml": "one\ntwo\n"})
    assert [d.quote for d in quoted] == ["two", None]
    assert quoted[0] == here  # the quote is not part of what a diagnostic says
    assert render(quoted[1]) == "b.yaml:1:1: error: m"


def test_the_documented_functions_are_the_declared_ones():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "dsl.md").read_text(encoding="utf-8")
    table = doc[doc.index("## Functions") : doc.index("## What each expression sees")]
    assert set(re.findall(r"`([a-z]+)\(", table)) == set(dsl.REGISTRY)
    limits = (Path(__file__).resolve().parent.parent / "docs" / "limits.md").read_text(encoding="utf-8")
    for name, entry in dsl.REGISTRY.items():
        [row] = [line for line in limits.splitlines() if line.startswith(f"| {entry.cost} |")]
        assert f"`{name}`" in row, (name, entry.cost)


def test_an_overflow_in_a_game_with_bots_is_a_located_error_quoting_its_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from cli.main import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "australia.yaml").write_text(
        (BROKEN.parent.parent / "editions" / "australia.yaml").read_text(encoding="utf-8")
    )
    (tmp_path / "huge.yaml").write_text(
        "extends: australia.yaml\ncategories:\n  - key: throw_catch\n    score: len(cards) * 1000000000000000\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main,
        [
            "run",
            "huge.yaml",
            "--players",
            "3",
            "--seed",
            "1",
            "--seat",
            "greedy",
            "--seat",
            "search",
            "--seat",
            "random",
            "--search-rollouts",
            "2",
            "-q",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 1 and "internal error" not in result.output
    lines = result.output.splitlines()
    at = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("huge.yaml:4:12: error: a product larger than 1,000,000,000,000,000")
    )
    assert lines[at + 1 : at + 3] == [
        "        score: len(cards) * 1000000000000000",
        "           " + "    ^" + "~" * 28,
    ]
