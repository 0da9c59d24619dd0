"""Hostile inputs are refused quickly, with a located error, never with a RecursionError or a hang:
alias bombs, deep nesting, huge files and endless devices for YAML; deep and big expressions for
the scoring language. Also: evaluation ends (the last two tests show where it does not yet).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from cli.main import main
from rulesengine import EditionError, check_edition, load_edition
from rulesengine.dsl import parser
from rulesengine.edition.build import compile_expression
from rulesengine.edition.source import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, load_yaml

from .paths import EDITIONS, ROOT

AUSTRALIA = EDITIONS / "australia.yaml"


def refused(text: str) -> EditionError:
    """The EditionError load_yaml raises for text, checked to be located (no wall-clock limit here:
    how much work a refusal costs is counted, see test_too_many_nodes_are_refused; timings: bench/)."""
    with pytest.raises(EditionError) as caught:
        load_yaml("<hostile>", text)
    [diagnostic] = caught.value.diagnostics
    assert diagnostic.span is not None and diagnostic.span.file == "<hostile>"
    return caught.value


def only(error: EditionError):
    [diagnostic] = error.diagnostics
    return diagnostic


# -- YAML ------------------------------------------------------------------------------------------
BILLION_LAUGHS = "a: &a ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol']\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8)
)


def test_billion_laughs_is_refused_at_once():
    diagnostic = only(refused(BILLION_LAUGHS))
    assert diagnostic.code == "E003"
    assert (
        diagnostic.message == f"the document expands to more than {MAX_NODES} nodes (aliases expanding without bound?)"
    )
    assert (diagnostic.span.line, diagnostic.span.col) == (
        5,
        4,
    )  # at "&e [*d, ...]", the first anchor that expands too far (66,430 nodes)


def test_an_alias_inside_its_own_anchor_is_refused():
    for text in ("a: &a [*a]\n", "a: &a {b: [1, {c: *a}]}\n", "&a {*a : 1}\n"):
        diagnostic = only(refused(text))
        assert diagnostic.code == "E003" and "contains it" in diagnostic.message


def test_aliases_nesting_too_deep_are_refused():
    text = "a0: &a0 [1]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 100))
    diagnostic = only(refused(text))
    assert diagnostic.message == f"aliases nest the document deeper than {MAX_DEPTH} levels"


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        "{a: " * 10_000 + "1" + "}" * 10_000,
        "- " * 10_000 + "1\n",
        "".join(" " * i + "a:\n" for i in range(1_000)),
        "".join("  " * i + "- b:\n" for i in range(500)),
    ],
    ids=["flow lists", "flow mappings", "block lists", "block mappings", "block mixed"],
)
def test_deep_nesting_is_refused_quickly_without_recursion_error(text):
    diagnostic = only(refused(text))
    assert diagnostic.code == "E003" and diagnostic.message == f"nesting deeper than {MAX_DEPTH} levels"
    assert diagnostic.span.line >= 1


def test_the_depth_limit_is_exact():
    data, _ = load_yaml("<ok>", "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH)
    for _ in range(MAX_DEPTH):
        [data] = data
    assert data == 1
    only(refused("[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1)))


def test_too_many_nodes_are_refused(monkeypatch):
    from rulesengine.edition import bounded_yaml

    composed = []
    original = bounded_yaml._Bounds.compose_node  # the bounds of both YAML readers
    monkeypatch.setattr(
        bounded_yaml._Bounds,
        "compose_node",
        lambda self, parent, index: composed.append(1) or original(self, parent, index),
    )
    diagnostic = only(refused("[" + "1," * (MAX_NODES * 3) + "1]"))
    assert diagnostic.message == f"the document has more than {MAX_NODES} nodes"
    assert len(composed) == MAX_NODES + 1  # the work done: refused as the limit is crossed


def test_a_2_mb_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("# padding\n" * 200_000, encoding="utf-8")
    edition, [diagnostic] = check_edition(path)
    assert edition is None and diagnostic.code == "E001"
    assert diagnostic.message == f"file is 2000000 bytes, more than the limit of {MAX_FILE_BYTES}"
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and f"{path}:1:1: error: file is 2000000 bytes" in result.output


def test_a_2_mb_text_is_refused():
    assert (
        only(refused("a: " + "x" * 2_000_000)).message
        == f"file is longer than the limit of {MAX_FILE_BYTES} characters"
    )


@pytest.mark.skipif(not __import__("os").path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_refused_without_reading_it():
    edition, [diagnostic] = check_edition("/dev/zero")
    assert diagnostic.message == "cannot read /dev/zero: it is a device, not a regular file"


@pytest.mark.parametrize(
    "text, message",
    [
        ("id: !!int abc\n", "bad scalar: 'abc' is not a valid int"),  # `id`: an edition's (or nothing is said)
        ("id: !!float abc\n", "bad scalar: 'abc' is not a valid float"),
        ("id: !!bool maybe\n", "bad scalar: 'maybe' is not a valid bool"),
        ("id: !!timestamp noon\n", "bad scalar: 'noon' is not a valid timestamp"),
        ("id: " + "9" * 5000 + "\n", f"bad scalar: '{'9' * 37}...' is not a valid int (more digits than Python reads)"),
        ("a: 1\nb: x\x00\n", "YAML: unacceptable character #x0000: special characters are not allowed"),
    ],
)
def test_scalars_yaml_cannot_construct_are_located_errors(text, message):
    diagnostic = only(refused(text))
    assert diagnostic.message == message
    assert diagnostic.span.line == (2 if "\x00" in text else 1)


def test_mapping_keys_are_text_as_in_json():
    data, _ = load_yaml("<keys>", "1: a\ntrue: b\n~: c\n2.5: d\n0x10: e\nid: f\n")
    assert data == {"1": "a", "true": "b", "~": "c", "2.5": "d", "16": "e", "id": "f"}


# -- the scoring language --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def australia():
    return load_edition(AUSTRALIA)


def refused_expression(edition, text: str):
    with pytest.raises(EditionError) as caught:
        compile_expression(edition, text)
    [diagnostic] = caught.value.diagnostics
    assert diagnostic.code == "D100" and diagnostic.span.file == "<expression>"
    return diagnostic


DEEP_5000 = {
    "parentheses": "(" * 5000 + "1" + ")" * 5000,
    "not": "not " * 5000 + "true",
    "minus": "- " * 5000 + "1",
    "lists": "[" * 5000 + "]" * 5000,
    "calls": "abs(" * 5000 + "1" + ")" * 5000,
}


@pytest.mark.parametrize("text", DEEP_5000.values(), ids=DEEP_5000.keys())
def test_5000_deep_expressions_are_refused(australia, text):
    diagnostic = refused_expression(australia, text)
    assert (
        diagnostic.message
        == f"syntax: expression is {len(text)} characters long, more than {parser.MAX_EXPRESSION_CHARS}"
    )


@pytest.mark.parametrize(
    "text", [t for k, t in DEEP_5000.items() if k != "parentheses"], ids=[k for k in DEEP_5000 if k != "parentheses"]
)
def test_5000_deep_expressions_under_a_larger_length_limit_are_refused_by_depth(australia, text, monkeypatch):
    monkeypatch.setattr(parser, "MAX_EXPRESSION_CHARS", 100_000)
    diagnostic = refused_expression(australia, text)
    assert diagnostic.message.startswith("syntax: expression nests 500") and diagnostic.message.endswith(
        f"levels deep, more than {parser.MAX_DEPTH}"
    )


def test_parentheses_alone_add_no_depth(australia, monkeypatch):
    monkeypatch.setattr(parser, "MAX_EXPRESSION_CHARS", 100_000)
    assert compile_expression(australia, "(" * 5000 + "1" + ")" * 5000)({}) == 1


@pytest.mark.parametrize(
    "text, depth",
    [
        ("-" * 1999 + "1", 2000),
        ("not " * 999 + "true", 1000),
        ("[" * 1999 + "]" * 1999, 1999),
        ("1+" * 1999 + "1", 2000),
    ],
)
def test_deep_expressions_within_the_length_limit_are_refused_where_they_get_too_deep(australia, text, depth):
    diagnostic = refused_expression(australia, text)
    assert diagnostic.message == f"syntax: expression nests {depth} levels deep, more than {parser.MAX_DEPTH}"
    assert diagnostic.hint == "split it into simpler expressions"
    assert diagnostic.span.col > 1  # at the part that crosses the limit, not at the start


def test_the_expression_depth_limit_is_exact(australia):
    assert compile_expression(australia, "-" * (parser.MAX_DEPTH - 1) + "1")({}) == -1
    refused_expression(australia, "-" * parser.MAX_DEPTH + "1")


def test_expressions_with_too_many_parts_are_refused(australia):
    text = "[" + ", ".join(["1+1"] * 750) + "]"
    assert len(text) <= parser.MAX_EXPRESSION_CHARS
    assert (
        refused_expression(australia, text).message
        == f"syntax: expression has 2251 parts, more than {parser.MAX_NODES}"
    )


def test_a_deep_expression_in_an_edition_is_a_located_error(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text(
        AUSTRALIA.read_text(encoding="utf-8").replace("score: len(visited)", "score: " + "-" * 100 + "len(visited)"),
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert (
        f"{path}:" in result.output and "error: syntax: expression nests 102 levels deep, more than 60" in result.output
    )


# -- evaluation ends -------------------------------------------------------------------------------
def evaluates_in_time(text: str, seconds: float = 120) -> str:
    """Compile and evaluate text in a child process (bounded in memory); its last line of output.
    The timeout only stops a hang: it is far above any evaluation, never a measure of speed."""
    program = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        from rulesengine import load_edition
        from rulesengine.edition.build import compile_expression
        from rulesengine.dsl import DslRuntimeError
        edition = load_edition({str(AUSTRALIA)!r})
        cards = list(edition.cards[:7])
        env = {{"cards": cards, "throw": cards[0], "catch": cards[-1], "others": [], "visited": cards,
               "players": 3, "round": 1, "previous": 0}}
        from rulesengine import EditionError
        try:
            print(type(compile_expression(edition, {text!r})(env)).__name__)
        except DslRuntimeError as exc:
            print("DslRuntimeError", exc.message)
        except EditionError as exc:
            print("EditionError", exc.diagnostics[0].code)
    """)
    try:
        done = subprocess.run(
            [sys.executable, "-c", program], capture_output=True, text=True, timeout=seconds, cwd=ROOT
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"evaluation still running after {seconds} s") from None
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


SQUARING = "let a = 99999; " + "let a = a * a; " * 40 + "a > 0"
NESTED_LOOPS = "sum([1 for x0 in deck])"
for _level in range(1, 8):
    NESTED_LOOPS = f"sum([{NESTED_LOOPS} for x{_level} in deck])"


def test_repeated_squaring_ends():
    assert evaluates_in_time(SQUARING).startswith("DslRuntimeError a product larger than 1,000,000,000,000,000")


def test_nested_loops_end():
    """Deep nesting is refused when the expression is compiled; three levels still evaluate."""
    assert evaluates_in_time(NESTED_LOOPS) == "EditionError D209"
    three = "sum([sum([sum([1 for a in deck]) for b in deck]) for c in deck])"
    assert evaluates_in_time(three) == "int"
    chain = "deck"  # lists built from lists, one after another: not nested (found by fuzzing)
    for level in range(8):
        chain = f"[x{level} for x{level} in {chain}]"
    assert evaluates_in_time(f"len({chain})") == "int"


def test_an_ordinary_expression_evaluates_in_a_child_process():
    assert evaluates_in_time("sum([value(i) for i in icons(cards, collection)])") == "int"
