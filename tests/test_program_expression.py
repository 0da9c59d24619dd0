"""Expressions compiled to generated Python (dsl/program/expression.py) give what the closures of
dsl/compiler.py give: the two runners of `load_edition(..., runner=...)`.

Same sheets for whole games of every edition, same errors at the same place, and no text of the
edition ever inside the generated source.
"""

from __future__ import annotations

import pytest
from conftest import EDITIONS

import rulesengine.dsl as dsl
from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.dsl import NUMBER, DslRuntimeError, Scope
from rulesengine.dsl.compiler import compile_checked
from rulesengine.dsl.program import expression as codegen
from rulesengine.dsl.program import helpers, names
from rulesengine.edition.build import compile_expression
from rulesengine.game.loop import play

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def both_ways():
    generated = {name: load_edition(EDITIONS / f"{name}.yaml") for name in ("australia", "europe", "usa")}
    closures = {name: load_edition(EDITIONS / f"{name}.yaml", runner="reference") for name in generated}
    return generated, closures


def test_the_runners_compile_to_generated_functions_and_to_closures(both_ways):
    generated, closures = both_ways
    for edition in generated.values():
        assert edition.runner == "compiled"
        assert all(c.score.run.__name__ == "expression" for c in edition.categories)
    assert all(c.score.run.__name__ != "expression" for c in closures["usa"].categories)
    assert closures["usa"].runner == "reference"


@pytest.mark.parametrize("name", ["australia", "europe", "usa"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_generated_and_closure_expressions_score_every_game_the_same(both_ways, name, players):
    generated, closures = both_ways
    for seed in range(12):
        games = [play(Game(edition[name], NAMES[:players], seed, events=False),
                      [RandomAgent(agent_seed(seed, s)) for s in range(players)]) for edition in (generated, closures)]
        assert games[0].decisions == games[1].decisions
        assert games[0].scores.sheet() == games[1].scores.sheet()


def test_an_unknown_runner_is_refused(australia):
    with pytest.raises(ValueError, match="runner must be one of compiled, reference, not 'fast'"):
        compile_expression(australia, "1 + 2", {}, runner="fast")


def compiled(edition, text, variables):
    checked = dsl.check(text, Scope(variables, edition.language.constants), edition.language)
    assert not checked.problems, checked.problems
    return checked.node, checked.resolved


@pytest.mark.parametrize("text, env, value", [
    ("let x = 3; let y = x * 2; [y + x, x]", {}, [9, 3]),
    ("let x = 1; [let x = i * 10; x + i for i in [1, 2]]", {}, [11, 22]),
    ("if n == 0 then 1 else 7 // n", {"n": 0}, 1),
    ("[i // 2 for i in [n, 5] if i % 2 == 1]", {"n": 3}, [1, 2]),
    ("-n - -2", {"n": 5}, -3),
    ("[subset([], [n]), subset([n, n], [n]), subset([n, 2], [n]), intersects([], []), intersects([2, n], [1, n])]",
     {"n": 3}, [True, True, False, False, True]),
    ("not (n > 1 and n < 3) or n == 2", {"n": 2}, True),
    # a let and a product in a comprehension's source, where Python refuses `:=`: generated as calls there
    ("[[y * i for i in [let w = n; w * 3]] for y in (let z = n * 2; [z * z, z])]", {"n": 2}, [[96], [24]]),
    ("[[let q = i * i; q * n for i in [n * n]] for j in [1]]", {"n": 3}, [[243]]),
    ("sum([n, 2, n * 3]) + sum([i * 2 for i in [n, 1]])", {"n": 4}, 28),   # a list literal's numbers added in place
])
def test_generated_expressions_agree_with_closures(australia, text, env, value):
    node, resolved = compiled(australia, text, {name: NUMBER for name in env})
    fast, slow = codegen.compile_to_python(node, resolved, None), compile_checked(node, resolved, None)
    assert fast.__name__ == "expression"
    assert fast(dict(env)) == slow(dict(env)) == value


def test_errors_carry_their_node_as_the_closures_do(australia):
    node, resolved = compiled(australia, "1 + 12 // n", {"n": NUMBER})
    with pytest.raises(DslRuntimeError) as error:
        codegen.compile_to_python(node, resolved, None)({"n": 0})
    assert error.value.message == "division by zero" and (error.value.node.start, error.value.node.end) == (4, 11)
    node, resolved = compiled(australia, "let x = n * n * n; x * x * x", {"n": NUMBER})
    with pytest.raises(DslRuntimeError, match="a product larger than"):
        codegen.compile_to_python(node, resolved, None)({"n": 10**3})
    node, resolved = compiled(australia, "2 + lookup(activity_points, n)", {"n": NUMBER})
    with pytest.raises(DslRuntimeError) as error:
        codegen.compile_to_python(node, resolved, None)({"n": 9})
    assert error.value.message == "table 'activity_points' has no row 9 (rows: 1, 2, 3, 4, 5, 6)"
    assert (error.value.node.start, error.value.node.end) == (4, 30)


def test_no_text_of_the_edition_reaches_the_generated_source(australia):
    node, resolved = compiled(australia, "let __import__ = 2; [__import__ * exec for exec in [n]]", {"n": NUMBER})
    source, constants = codegen.generate(node, resolved, None)
    assert "__import__" not in source and "exec" not in source.replace("expression", "")
    assert source == ("def make(k0, k1):\n    def expression(env):\n        _begin()\n"
                      "        return ((v0 := 2), [(v2 if -1000000000000000 <= (v2 := v0 * v1) <= 1000000000000000 "
                      "else _too_large(k1)) for v1 in _steps([env['n'], ], k0)])[1]\n"
                      "    return expression\n")


DEEPEST = {   # the deepest nesting of each kind the parser lets through (60 levels)
    "let": "".join("let a = " for _ in range(58)) + "n" + "; a * n" * 58,
    "product": "(n * " * 59 + "n" + ")" * 59,
    "negation": "-(" * 59 + "n" + ")" * 59,
    "if": "if " * 58 + "n > 1" + " then true else false" * 58,
    "mixed": "".join("let a = (n * -(" if i % 2 else "(n * (if " for i in range(22)) + "n"
             + "".join(")); a * n" if i % 2 else " > 1 then n else 2))" for i in reversed(range(22))),
}


@pytest.mark.parametrize("kind", sorted(DEEPEST))
def test_the_deepest_expressions_the_parser_allows_are_generated(australia, kind):
    """Python's own parser refuses parentheses nested 200 deep: what the language allows stays below it,
    so every expression has its generated function (no second way to evaluate it)."""
    run = compile_expression(australia, DEEPEST[kind], {"n": NUMBER})
    closures = compile_expression(australia, DEEPEST[kind], {"n": NUMBER}, runner="reference")
    assert run.__name__ == "expression" and closures.__name__ != "expression"
    assert run({"n": 1}) == closures({"n": 1})


@pytest.mark.parametrize("text", [
    "[value(i) * 2 for i in icons(cards, collection) if i != 'Leaves']",
    "[i for i in icons(cards, collection)]",
    "[len([i for i in icons(cards, collection) if i == j]) for j in kinds(collection)]",
    "[[c.number, len(icons([c], animal))] for c in cards]",
    "sum([count(k, cards) // 2 for k in kinds(animal)])",
    "[kinds(animal) == kinds(animal), len(kinds(activity)) == 6]",
    "abs(3 - len(cards) * 2)",
    "[[value(k) * count(k, cards), len([j for j in kinds(animal) if j != k])] for k in kinds(animal)]",
    "[let n = count(k, cards); n * n for k in kinds(collection)]",
    "[all([intersects(r.cards, cards) for r in regions]), any([subset(r.cards, cards) for r in regions])]",
    "[all([]), any([]), all([len(cards) > 2, true]), sum([len(r.cards) for r in regions]) > 20]",
])
def test_icons_kinds_and_abs_are_generated_as_their_builtins_give_them(australia, text):
    from conftest import cards

    from rulesengine.dsl import CARDS
    node, resolved = compiled(australia, text, {"cards": CARDS})
    lookups = australia.language.lookups
    fast, slow = codegen.compile_to_python(node, resolved, lookups), compile_checked(node, resolved, lookups)
    assert fast.__name__ == "expression"
    for letters in ("ABCDEFG", "YVWA", "S"):
        hand = cards(australia, letters)
        assert fast({"cards": hand}) == slow({"cards": hand})


def test_a_comprehension_over_the_icons_of_a_family_is_written_out(australia):
    from rulesengine.dsl import CARDS
    node, resolved = compiled(australia, "sum([count(k, cards) // 2 for k in kinds(animal)])", {"cards": CARDS})
    source, constants = codegen.generate(node, resolved, australia.language.lookups)
    assert " for " not in source and source.count("// 2") == 5 and "([" not in source   # no list handed to sum
    assert [c for c in constants if isinstance(c, str)] == ["Kangaroos", "Emus", "Wombats", "Koalas", "Platypuses"]
    node, resolved = compiled(australia, "[value(k) * 2 for k in kinds(animal)]", {})
    source, _ = codegen.generate(node, resolved, australia.language.lookups)
    assert "3 * 2" in source and "9 * 2" in source   # the values of the icons written out: Kangaroos 3, Platypuses 9


@pytest.mark.parametrize("text, checked", [
    ("value(i) * (count(i, cards) // 2)", False),      # an icon's value, a count: both small
    ("len(cards) * 1000000 * count(i, cards)", True),  # a product is not small: its bound is checked
    ("n * count(i, cards)", True),                      # a number from the game may be anything
    ("7 * (n // 2)", True),
    ("count(i, cards) * lookup(activity_points, n)", False),      # a table of small numbers
    ("count(i, cards) * lookup(activity_points, n, 3)", False),
    ("count(i, cards) * lookup(activity_points, n, n)", True),    # its default may be anything
])
def test_a_product_of_two_small_numbers_needs_no_check_of_its_bound(australia, text, checked):
    from rulesengine.dsl import CARDS, IconType
    node, resolved = compiled(australia, text, {"cards": CARDS, "n": NUMBER, "i": IconType("animal")})
    source, _ = codegen.generate(node, resolved, australia.language.lookups)
    assert ("_too_large" in source) == checked


def test_a_count_reads_a_tally_holding_every_icon_by_index_and_any_other_with_get(australia):
    """dsl.Full: the greedy bot's tallies hold every icon (0 where none is printed), so a count of an
    icon they hold, or of a key named as always one of them, is an index; any other count keeps get."""
    from rulesengine.dsl import CARDS, IconType
    text = "count(\"Kangaroos\", cards) * 100 + count(\"Emus\", cards) * 10 + count(i, cards)"
    node, resolved = compiled(australia, text, {"cards": CARDS, "i": IconType(None)})
    full = helpers.Full(frozenset({"T"}), frozenset({"Kangaroos"}), frozenset({"i"}))
    shared = codegen.Shared()
    lookups = australia.language.lookups
    source, _, used, _ = codegen.inline(node, resolved, lookups, shared, codegen.Held(names.game, {"cards": "T"},
                                                                                     full=full))
    assert source.count("T[") == 2 and source.count("T.get(") == 1   # Emus is not among the icons given
    assert used == {"T"}
    value = eval(source, dict(zip(shared.names().split(", "), shared.constants, strict=True)),
                 {"T": {"Kangaroos": 2, "Koalas": 0}, names.game("i"): "Koalas"})
    assert value == 200
    plain, _, _, _ = codegen.inline(node, resolved, lookups, codegen.Shared(), codegen.Held(names.game, {"cards": "T"}))
    assert "T[" not in plain and plain.count("T.get(") == 3
    once = helpers.Full(full.tallies, full.icons, full.keys, {("T", "i"): "C_i"})   # read once by the caller
    read, _, used, _ = codegen.inline(node, resolved, lookups, codegen.Shared(),
                                   codegen.Held(names.game, {"cards": "T"}, full=once))
    assert read.count("C_i") == 1 and read.count("T[") == 1 and used == {"T", "C_i"}


def test_connected_over_masks_answers_as_connected_over_the_set_of_cards():
    """dsl.Masks: the greedy bot asks USA's coast-to-coast race of its visited cards held as a bitmask;
    connected_masks walks the same paths as connected does over the set of them (a byte of the frontier a step)."""
    import random

    from rulesengine.dsl.builtins import _connected
    usa = load_edition(EDITIONS / "usa.yaml")
    neighbours = helpers.neighbour_bytes(helpers.edition_masks(usa).neighbours)
    rng = random.Random(12)
    answers = set()
    for _ in range(3000):
        nodes = rng.sample(usa.cards, rng.randrange(len(usa.cards) + 1))
        ends = [rng.sample(usa.cards, rng.randrange(1, 6)) for _ in range(2)]
        expected = _connected(frozenset(nodes), ends[0], ends[1], usa)
        masks = [helpers.card_mask(cards) for cards in (nodes, *ends)]
        assert helpers.connected_masks(*masks, neighbours) is expected
        answers.add(expected)
    assert answers == {True, False}


def test_a_round_line_is_read_by_its_key_as_a_constant(tmp_path):
    """`lines.<key>` is generated, the key a constant; a key that is a Python keyword too, and it scores as
    the closures do."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    path = tmp_path / "keyword.yaml"
    path.write_text(f"extends: {root / 'editions' / 'australia.yaml'}\nid: keyword\ncategories:\n"
                    "  - key: class\n    title: Class\n    score: count('Kangaroos', cards)\n"
                    "  - key: best_class\n    title: Best class\n    when: game_end\n    score: max(lines.class)\n",
                    encoding="utf-8")
    sheets = []
    for runner in ("compiled", "reference"):
        edition = load_edition(path, runner=runner)
        game = Game(edition, NAMES, 3, events=False)
        play(game, [RandomAgent(agent_seed(3, s)) for s in range(4)])
        sheets.append(game.scores.sheet())
    assert sheets[0] == sheets[1]
    for player in sheets[0]["players"]:
        assert player["categories"]["best_class"] == max(points["class"] for points in player["rounds"])
