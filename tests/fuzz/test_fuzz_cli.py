"""Fuzzing the command line: any argument list for validate, run and score ends with exit status 0,
1, 2 (or 130 for a game abandoned at the terminal) and never with a traceback or an internal error.
"""

from __future__ import annotations

import shutil

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import event, given
from hypothesis import strategies as st

from cli.main import main

from .budget import budget
from .paths import EDITIONS

pytestmark = pytest.mark.fuzz

ALLOWED_EXIT = {0, 1, 2, 130}
ARGUMENT_TEXT = st.text(
    st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=8
)  # argv cannot hold a NUL


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Paths the arguments may name: good and broken editions and records, and odd files."""
    root = tmp_path_factory.mktemp("fuzz-cli")
    shutil.copytree(EDITIONS, root / "editions")
    australia = (EDITIONS / "australia.yaml").read_text(encoding="utf-8")
    (root / "broken.yaml").write_text(
        australia.replace("abs(throw.number - catch.number)", "abs(throw.number - cach.number)"), encoding="utf-8"
    )
    (root / "syntax.yaml").write_text(australia.replace("rounds: 4", "rounds: [4"), encoding="utf-8")
    (root / "empty.yaml").write_text("", encoding="utf-8")
    (root / "list.yaml").write_text("- 1\n- 2\n", encoding="utf-8")
    (root / "binary.yaml").write_bytes(b"\xff\xfe\x00\x01 not utf-8")
    (root / "huge.yaml").write_text("# padding\n" * 210_000, encoding="utf-8")
    (root / "dir.yaml").mkdir()
    rounds = [
        {"drafts": {"Ana": list("ABCDEFG"), "Ben": list("HIJKLMN")}},
        {"drafts": {"Ana": list("OPQRSTU"), "Ben": list("VWXYZ@#")}},
    ] * 2
    (root / "game.yaml").write_text(yaml.safe_dump({"players": ["Ana", "Ben"], "rounds": rounds}), encoding="utf-8")
    (root / "bad-game.yaml").write_text(
        yaml.safe_dump({"players": ["Ana", "Ana"], "rounds": rounds[:3]}), encoding="utf-8"
    )
    (root / "out").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)  # a game stopped at the terminal is saved in the current directory
        yield root
    shutil.rmtree(root, ignore_errors=True)


FILE_NAMES = [
    "editions/australia.yaml",
    "editions/europe.yaml",
    "editions/usa.yaml",
    "editions/variants/australia-direction.yaml",
    "broken.yaml",
    "syntax.yaml",
    "empty.yaml",
    "list.yaml",
    "binary.yaml",
    "huge.yaml",
    "dir.yaml",
    "game.yaml",
    "bad-game.yaml",
    "missing.yaml",
    "no/such/dir/x.yaml",
    "",
    "/dev/zero",
    "/dev/null",
]
SAVE_NAMES = ["out/game.yaml", "out/game.json", "out/game.txt", "out", "no/such/dir/game.yaml", "out/"]
WORDS = st.sampled_from(
    [
        "-",
        "--",
        "-h",
        "--help",
        "--version",
        "-q",
        "--quiet",
        "-p",
        "--players",
        "--seed",
        "--seat",
        "--name",
        "--format",
        "--record",
        "--save-record",
        "json",
        "text",
        "xml",
        "human",
        "random",
        "robot",
        "0",
        "-1",
        "2",
        "3",
        "4",
        "99",
    ]
)


@st.composite
def arguments(draw):
    """A command (usually a real one), its file and required options (usually), then a few more
    options, values and, now and then, noise."""
    file = st.sampled_from(FILE_NAMES).map(lambda name: f"FILE:{name}")
    edition = st.sampled_from(FILE_NAMES[:4] * 3 + FILE_NAMES[4:]).map(lambda name: f"FILE:{name}")
    command = draw(st.sampled_from(["validate", "run", "score"] * 6 + ["", "--help", "scor", "play", "--version"]))
    parts = [command]
    well_formed = draw(st.integers(0, 3)) > 0
    if command == "validate" and well_formed:
        parts += draw(st.lists(edition, min_size=1, max_size=3))
    elif command == "run" and well_formed:
        parts += [draw(edition), "--players", str(draw(st.integers(1, 5))), "--seed", str(draw(st.integers(0, 10**6)))]
    elif command == "score" and well_formed:
        parts += [draw(edition), "--record", draw(st.sampled_from(["FILE:game.yaml"] * 3) | file)]
    options = {
        "validate": [st.tuples(st.just("--format"), st.sampled_from(["json", "text", "yaml", ""]))],
        "run": [
            st.tuples(
                st.sampled_from(["--players", "-p"]), st.integers(-2, 14).map(str) | st.sampled_from(["two", "", "1e3"])
            ),
            st.tuples(st.just("--seed"), st.integers(-(2**70), 2**70).map(str) | st.sampled_from(["x", "", "0x10"])),
            st.tuples(st.just("--seat"), st.sampled_from(["human", "random", "random", "bot", ""])),
            st.tuples(st.just("--name"), ARGUMENT_TEXT | st.sampled_from(["Ana", "Ben", "Ana"])),
            st.just(("--quiet",)),
            st.just(("-q",)),
            st.tuples(
                st.sampled_from(["--save-record", "--save", "--log"]),
                st.sampled_from(SAVE_NAMES).map(lambda name: f"FILE:{name}"),
            ),
        ],
        "score": [st.tuples(st.just("--format"), st.sampled_from(["json", "text", "csv"]))],
    }.get(command, [])
    noise = [WORDS.map(lambda w: (w,)), ARGUMENT_TEXT.map(lambda t: (t,)), file.map(lambda f: (f,))]
    if not well_formed or draw(st.integers(0, 4)) == 0:
        options = options + noise
    if options:
        for item in draw(st.lists(st.one_of(*options), max_size=5)):
            parts += list(item)
    return parts


@budget(80)
@given(
    parts=arguments(),
    stdin=st.lists(
        st.sampled_from(["A", "b", "?", "none", "Swimming", "", "#", "@", "q"]) | st.text(max_size=4), max_size=8
    ),
)
def test_any_command_line(files, parts, stdin):
    args = [
        (part[5:] if part.startswith("FILE:/") else str(files / part[5:])) if part.startswith("FILE:") else part
        for part in parts
    ]
    result = CliRunner().invoke(main, args, input="\n".join(stdin) + "\n" if stdin else None, catch_exceptions=True)
    output = result.output
    if result.exit_code == 3 or not isinstance(result.exception, SystemExit | None):
        debug = CliRunner().invoke(
            main, args, input="\n".join(stdin) + "\n" if stdin else None, env={"BOOM_DEBUG": "1"}
        )
        if debug.exception is not None and not isinstance(debug.exception, SystemExit):
            raise debug.exception
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args}: {type(result.exception).__name__}: {result.exception}"
    )
    assert result.exit_code in ALLOWED_EXIT, f"{args}: exit {result.exit_code}\n{output}"
    assert "Traceback" not in output and "internal error" not in output, f"{args}\n{output}"
    event(f"{parts[0] or '(none)'}: exit {result.exit_code}")
