"""Every case of tests/dsl_cases.yaml: an expression, the game it is evaluated in, and the value it
gives, the runtime error it gets or the problem the checker finds (code, offsets and message), with
each runner: the generated code and the reference closures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulesengine import dsl
from rulesengine.dsl import Scope
from rulesengine.edition.build import ROUND_VARIABLES

CASES = yaml.safe_load((Path(__file__).resolve().parent / "dsl_cases.yaml").read_text(encoding="utf-8"))
REFUSED = re.compile(r"^(?P<code>[A-Z]\d{3}) at (?P<start>\d+)-(?P<end>\d+): (?P<message>.*)$")
VARIABLES = {**ROUND_VARIABLES, "choice": dsl.IconType("activity")}


def environment(edition, case: dict) -> dict:
    env = {
        "players": case.get("players", 3),
        "round": case.get("round", 1),
        "previous": case.get("previous", 0),
        "choice": case.get("choice", "Sightseeing"),
    }
    for name in ("cards", "others", "visited"):
        env[name] = [edition.card(letter) for letter in case.get(name, "")]
    if env["cards"]:
        env["throw"], env["catch"] = env["cards"][0], env["cards"][-1]
    return env


def shown(value):
    """Cards as letters, regions by name, lists item by item: the value as the file writes it."""
    if isinstance(value, (list, tuple)):
        return [shown(v) for v in value]
    return getattr(value, "letter", None) or getattr(value, "name", None) or value


def test_there_are_cases_of_every_kind():
    assert len(CASES) >= 30 and {next(k for k in ("result", "refused", "fails") if k in c) for c in CASES} == {
        "result",
        "refused",
        "fails",
    }


@pytest.mark.parametrize("runner", dsl.RUNNERS)
@pytest.mark.parametrize("case", CASES, ids=[c["expression"] for c in CASES])
def test_case(australia, case, runner):
    checked = dsl.check(case["expression"], Scope(dict(VARIABLES), australia.language.constants), australia.language)
    if "refused" in case:
        want = REFUSED.match(case["refused"])
        assert [(p.code, p.start, p.end, p.message) for p in checked.problems] == [
            (want["code"], int(want["start"]), int(want["end"]), want["message"])
        ]
        return
    assert checked.problems == []
    run = dsl.compile(checked, australia.language, runner)
    env = environment(australia, case)
    if "fails" in case:
        with pytest.raises(dsl.DslRuntimeError) as caught:
            run(env)
        assert caught.value.message == case["fails"]
    else:
        assert shown(run(env)) == case["result"]
