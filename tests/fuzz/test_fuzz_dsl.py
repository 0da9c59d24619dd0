"""Fuzzing the scoring language: any text either compiles against Boomerang: Australia or is refused
with located diagnostics; anything that compiles evaluates, in any possible game environment, to a
value of its checked type or to a DslRuntimeError, and leaves the environment as it found it; with
each runner (the generated code and the reference closures), which give the same values and errors.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from rulesengine import EditionError, dsl, load_edition
from rulesengine.dsl import BOOL, CARD, CARDS, NUMBER, REGION, SEAT, SEATS, DslRuntimeError, IconType, ListType, Scope
from rulesengine.edition.build import compile_expression
from rulesengine.game.program import RUNNERS

from .budget import budget
from .dsl_strategies import Typed, conforms, environments, grammar_expressions, mutated, random_texts, scopes_for
from .paths import EDITIONS

pytestmark = pytest.mark.fuzz

AUSTRALIA = load_edition(EDITIONS / "australia.yaml")
EDITION_TEXTS = [c.score.text for c in AUSTRALIA.categories] + [
    t for r in AUSTRALIA.races for t in (r.qualifies.text, r.award.text)
]
SCOPES = scopes_for(AUSTRALIA)
TYPED = Typed(AUSTRALIA, SCOPES["round"])
TYPED_AT_GAME_END = Typed(AUSTRALIA, SCOPES["game_end"])
WANTED = (
    [NUMBER] * 6
    + [BOOL] * 4
    + [
        CARD,
        REGION,
        CARDS,
        CARDS,
        ListType(NUMBER),
        ListType(BOOL),
        ListType(REGION),
        SEAT,
        SEATS,
        *[IconType(f) for f in AUSTRALIA.families],
        *[ListType(IconType(f)) for f in AUSTRALIA.families],
    ]
)


def compile_or_refuse(text: str, variables: dict, runner: str):
    """The compiled expression and its type, or None after checking that the refusal is located."""
    try:
        run = compile_expression(AUSTRALIA, text, dict(variables), runner=runner)
    except EditionError as exc:
        assert exc.diagnostics
        event(f"refused ({exc.diagnostics[0].code})")
        for diagnostic in exc.diagnostics:
            span = diagnostic.span
            assert span is not None and span.file == "<expression>" and span.line == 1, diagnostic
            assert 1 <= span.col <= len(text) + 1 and span.end_col >= span.col, (diagnostic, len(text))
            assert diagnostic.message and diagnostic.code.startswith("D"), diagnostic
        return None
    language = AUSTRALIA.language
    checked = dsl.check(text, Scope(dict(variables), language.constants), language)
    assert not checked.problems
    return run, checked.type


def evaluate_everywhere(data, text: str, runner: str, scope: str = "round") -> bool:
    """Compile text in a scope and evaluate it in a few random environments; True if it compiled."""
    variables = SCOPES[scope]
    compiled = compile_or_refuse(text, variables, runner)
    if compiled is None:
        return False
    run, type_ = compiled
    event(f"compiled: {type_}")
    event(f"compiled, {len(text) // 50 * 50}+ characters")
    for env in data.draw(st.lists(environments(AUSTRALIA, variables), min_size=1, max_size=3), label="environments"):
        before = dict(env)
        try:
            value = run(env)
        except DslRuntimeError as exc:
            assert exc.message
            event("evaluated: DslRuntimeError")
        else:
            assert conforms(value, type_, AUSTRALIA), f"{text!r} gave {value!r}, not a {type_}"
        assert env == before, "evaluation must leave the environment as it found it"
    return True


@pytest.mark.parametrize("runner", RUNNERS)
@budget(400)
@given(text=grammar_expressions(AUSTRALIA), scope=st.sampled_from(sorted(SCOPES)), data=st.data())
def test_grammar_generated_expressions(runner, text, scope, data):
    evaluate_everywhere(data, text, runner, scope)


@pytest.mark.parametrize("runner", RUNNERS)
@budget(400)
@given(text=st.sampled_from(WANTED).flatmap(TYPED.expression), data=st.data())
def test_well_typed_expressions_compile_and_evaluate_to_their_type(runner, text, data):
    assert evaluate_everywhere(data, text, runner), f"a well-typed expression was refused: {text!r}"


@pytest.mark.parametrize("runner", RUNNERS)
@budget(200)
@given(text=st.sampled_from([NUMBER, NUMBER, BOOL, ListType(NUMBER), SEAT]).flatmap(TYPED_AT_GAME_END.expression),
       data=st.data())
def test_well_typed_game_end_expressions_compile_and_evaluate_to_their_type(runner, text, data):
    assert evaluate_everywhere(data, text, runner, "game_end"), f"a well-typed expression was refused: {text!r}"


def test_every_variable_of_every_scope_gets_a_value():
    """The environments give every variable a value (the `large` profile stopped on `left`, unset)."""
    from hypothesis import find

    for scope, variables in SCOPES.items():
        env = find(environments(AUSTRALIA, variables), lambda env: True)
        assert set(env) == set(variables) - {"choice"}, scope


@pytest.mark.parametrize("runner", RUNNERS)
@budget(300)
@given(text=random_texts() | mutated(EDITION_TEXTS), scope=st.sampled_from(sorted(SCOPES)), data=st.data())
def test_random_and_mutated_text(runner, text, scope, data):
    evaluate_everywhere(data, text, runner, scope)


def _in_one_function(node, resolved, variables: list):
    """The expression as the program's writer places it in a larger function (dsl/program/writer.py): game
    variables as locals, errors raised as they are (the score sheet locates them)."""
    from rulesengine.dsl.program.writer import Writer

    writer = Writer(AUSTRALIA.language.lookups, frozenset(variables))
    expression = SimpleNamespace(tree=(node, resolved, AUSTRALIA.language.lookups))
    writer.value("result", expression, 2)
    writer.emit("return result", 2)
    return writer.function("one", "env", {name: f"env[{name!r}]" for name in variables})


@budget(300)
@given(text=st.sampled_from(WANTED).flatmap(TYPED.expression), data=st.data())
def test_generated_code_gives_what_the_closures_give(text, data):
    """The generated function of the expression, and the same expression inside a generated function (the
    sheet's round, the bots' value), give the closures' value; where the closures raise, both raise the
    same error at the same node."""
    from rulesengine.dsl.compiler import compile_checked
    from rulesengine.dsl.program import compile_to_python

    variables = SCOPES["round"]
    language = AUSTRALIA.language
    checked = dsl.check(text, Scope(dict(variables), language.constants), language)
    assert not checked.problems, text
    node, resolved = checked.node, checked.resolved
    closure = compile_checked(node, resolved, language.lookups)
    generated = compile_to_python(node, resolved, language.lookups)
    together = _in_one_function(node, resolved, sorted(variables))
    for env in data.draw(st.lists(environments(AUSTRALIA, variables), min_size=1, max_size=3), label="environments"):
        try:
            expected = closure(dict(env))
        except DslRuntimeError as exc:
            for run in (generated, together):
                with pytest.raises(DslRuntimeError) as raised:
                    run(dict(env))
                assert (raised.value.message, raised.value.node) == (exc.message, exc.node)
            continue
        assert generated(dict(env)) == expected
        assert together(dict(env)) == expected
