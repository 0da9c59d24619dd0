"""Expressions compiled to generated Python give what the closures of dsl/compiler.py give.

Same sheets for whole games of every edition, same errors at the same place, and no text of the
edition ever inside the generated source.
"""

from __future__ import annotations

import pytest
from conftest import EDITIONS

import rulesengine.dsl as dsl
from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.dsl import NUMBER, Scope, codegen
from rulesengine.dsl.compiler import compile_checked
from rulesengine.game.loop import play

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def both_ways():
    closures = {}
    generated = {name: load_edition(EDITIONS / f"{name}.yaml") for name in ("australia", "europe", "usa")}
    original = dsl.compile_to_python
    dsl.compile_to_python = compile_checked
    try:
        closures = {name: load_edition(EDITIONS / f"{name}.yaml") for name in generated}
    finally:
        dsl.compile_to_python = original
    return generated, closures


def test_the_editions_are_compiled_to_generated_functions(both_ways):
    generated, closures = both_ways
    for edition in generated.values():
        assert all(c.score.run.__name__ == "expression" for c in edition.categories)
    assert all(c.score.run.__name__ != "expression" for c in closures["usa"].categories)


@pytest.mark.parametrize("name", ["australia", "europe", "usa"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_generated_and_closure_expressions_score_every_game_the_same(both_ways, name, players):
    generated, closures = both_ways
    for seed in range(12):
        games = [play(Game(edition[name], NAMES[:players], seed, events=False),
                      [RandomAgent(agent_seed(seed, s)) for s in range(players)]) for edition in (generated, closures)]
        assert games[0].decisions == games[1].decisions
        assert games[0].scores.sheet() == games[1].scores.sheet()


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
    with pytest.raises(codegen.DslRuntimeError) as error:
        codegen.compile_to_python(node, resolved, None)({"n": 0})
    assert error.value.message == "division by zero" and (error.value.node.start, error.value.node.end) == (4, 11)
    node, resolved = compiled(australia, "let x = n * n * n; x * x * x", {"n": NUMBER})
    with pytest.raises(codegen.DslRuntimeError, match="a product larger than"):
        codegen.compile_to_python(node, resolved, None)({"n": 10**3})


def test_no_text_of_the_edition_reaches_the_generated_source(australia):
    node, resolved = compiled(australia, "let __import__ = 2; [__import__ * exec for exec in [n]]", {"n": NUMBER})
    source, constants = codegen.generate(node, resolved, None)
    assert "__import__" not in source and "exec" not in source.replace("expression", "")
    assert source == ("def make(k0):\n    def expression(env):\n"
                      "        return ((v0 := 2), [(v2 if -1000000000000000 <= (v2 := v0 * v1) <= 1000000000000000 "
                      "else _too_large(k0)) for v1 in [env['n'], ]])[1]\n"
                      "    return expression\n")


def test_an_expression_the_generator_cannot_translate_keeps_its_closures(australia, monkeypatch):
    def refuse(self, node):
        raise codegen.Unsupported("let")
    monkeypatch.setattr(codegen._Generator, "visit_Let", refuse)
    node, resolved = compiled(australia, "let x = n; x * 2", {"n": NUMBER})
    run = codegen.compile_to_python(node, resolved, None)
    assert run.__name__ != "expression" and run({"n": 4}) == 8


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
    full = dsl.Full(frozenset({"T"}), frozenset({"Kangaroos"}), frozenset({"g_i"}))
    shared = dsl.Shared()
    source, _ = dsl.inline(node, resolved, australia.language.lookups, shared, lambda name: f"g_{name}",
                           {"g_cards": "T"}, full=full)
    assert source.count("T[") == 2 and source.count("T.get(") == 1   # Emus is not among the icons given
    value = eval(source, dict(zip(shared.names().split(", "), shared.constants, strict=True)),
                 {"T": {"Kangaroos": 2, "Koalas": 0}, "g_i": "Koalas"})
    assert value == 200
    plain, _ = dsl.inline(node, resolved, australia.language.lookups, dsl.Shared(), lambda name: f"g_{name}",
                          {"g_cards": "T"})
    assert "T[" not in plain and plain.count("T.get(") == 3
    once = dsl.Full(full.tallies, full.icons, full.keys, {("T", "g_i"): "C_i"})   # read once by the caller
    read, _ = dsl.inline(node, resolved, australia.language.lookups, dsl.Shared(), lambda name: f"g_{name}",
                         {"g_cards": "T"}, full=once)
    assert read.count("C_i") == 1 and read.count("T[") == 1


def test_connected_over_masks_answers_as_connected_over_the_set_of_cards():
    """dsl.Masks: the greedy bot asks USA's coast-to-coast race of its visited cards held as a bitmask;
    connected_masks walks the same paths as connected does over the set of them."""
    import random

    from rulesengine.dsl.builtins import _connected
    usa = load_edition(EDITIONS / "usa.yaml")
    neighbours = [0] * len(usa.cards)
    for card in usa.cards:
        neighbours[card.index] = codegen.card_mask(usa.paths.get(card, ()))
    rng = random.Random(12)
    answers = set()
    for _ in range(3000):
        nodes = rng.sample(usa.cards, rng.randrange(len(usa.cards) + 1))
        ends = [rng.sample(usa.cards, rng.randrange(1, 6)) for _ in range(2)]
        expected = _connected(frozenset(nodes), ends[0], ends[1], usa)
        masks = [codegen.card_mask(cards) for cards in (nodes, *ends)]
        assert codegen.connected_masks(*masks, tuple(neighbours)) is expected
        answers.add(expected)
    assert answers == {True, False}


def test_a_round_line_is_read_by_its_key_as_a_constant(tmp_path, monkeypatch):
    """`lines.<key>` is generated, the key a constant (australia-best-collections' game end and its bot
    value are generated); a key that is a Python keyword too, and it scores as the closures do."""
    from pathlib import Path

    from rulesengine.game import scoring
    from rulesengine.game.fast_round import round_function

    root = Path(__file__).resolve().parent.parent
    assert round_function(load_edition(root / "editions" / "variants" / "australia-best-collections.yaml")).end
    path = tmp_path / "keyword.yaml"
    path.write_text(f"extends: {root / 'editions' / 'australia.yaml'}\nid: keyword\ncategories:\n"
                    "  - key: class\n    title: Class\n    score: count('Kangaroos', cards)\n"
                    "  - key: best_class\n    title: Best class\n    when: game_end\n    score: max(lines.class)\n",
                    encoding="utf-8")
    edition = load_edition(path)
    assert round_function(edition).end is not None
    sheets = []
    for generated in (True, False):
        if not generated:
            monkeypatch.setattr(scoring, "round_function", lambda edition: None)
        game = Game(edition, NAMES, 3, events=False)
        play(game, [RandomAgent(agent_seed(3, s)) for s in range(4)])
        sheets.append(game.scores.sheet())
    assert sheets[0] == sheets[1]
    for player in sheets[0]["players"]:
        assert player["categories"]["best_class"] == max(points["class"] for points in player["rounds"])
