"""The command-line fixes of issue 14: both seat-list forms, usage errors, saves never overwritten,
diagnostics in line order, the note on reconstructed facts, the final sheet that adds up."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from cli.playing import default_save_path
from rulesengine.bots.tournament import seat_bot
from rulesengine.game.saves import Session

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def invoke(*args, **kwargs):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, **kwargs)
    assert "Traceback" not in result.output
    return result


def header(result) -> str:
    return next(line for line in result.output.splitlines() if line.startswith("Boomerang"))


def test_run_takes_the_seats_repeated_or_as_a_list():
    repeated = invoke(
        "run", AUSTRALIA, "-p", 3, "--seed", 4, "-q", "--seat", "greedy", "--seat", "random", "--seat", "greedy"
    )
    listed = invoke("run", AUSTRALIA, "-p", 3, "--seed", 4, "-q", "--seats", "greedy,random,greedy")
    assert header(repeated) == "Boomerang: Australia: Ana (greedy), Ben (random), Cy (greedy); seed 4"
    assert repeated.output == listed.output


def test_tournament_takes_the_seats_as_a_list_or_repeated():
    listed = invoke("tournament", AUSTRALIA, "--seats", "greedy,random", "-n", 2, "--format", "json")
    repeated = invoke("tournament", AUSTRALIA, "--seat", "greedy", "--seat", "random", "-n", 2, "--format", "json")
    assert [e["kind"] for e in json.loads(listed.output)["entries"]] == ["greedy", "random"]
    assert [e["kind"] for e in json.loads(repeated.output)["entries"]] == ["greedy", "random"]


def test_tournament_seats_take_a_budget(australia):
    """blend:3 is a blend bot of 3 rollouts, its own budget over the command line's for its kind."""
    played = invoke("tournament", AUSTRALIA, "--seats", "blend:3,search:2", "-n", 1, "--format", "json")
    assert played.exit_code == 0
    assert [e["kind"] for e in json.loads(played.output)["entries"]] == ["blend:3", "search:2"]
    bot = seat_bot("blend:40", australia, 1, {"blend": {"seconds": 0.05, "rollouts": None}})
    assert (bot.kind, bot.rollouts, bot.seconds) == ("blend", 40, 0.05)
    refused = invoke("tournament", AUSTRALIA, "--seats", "blend:0,greedy")
    assert refused.exit_code == 2
    assert ("Invalid value for --seats: unknown seat kind 'blend:0' (kinds: random, greedy1, greedy, search, ismcts, "
            "blend, guided; a budget as search:ROLLOUTS, blend:ROLLOUTS, ismcts:ITERATIONS or guided:ITERATIONS)"
            ) in refused.output


def test_an_unknown_seat_kind_is_a_usage_error():
    result = invoke("run", AUSTRALIA, "-p", 3, "--seats", "greedy,robot")
    assert result.exit_code == 2
    assert ("Invalid value for --seat: unknown seat kind 'robot' (kinds: human, random, greedy1, greedy, search, "
            "ismcts, blend, guided)") in result.output


def test_a_second_stop_never_overwrites_the_first_save(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 1, "--seat", "human", input="")
        assert result.exit_code == 130 and "saved to boom-australia-" in result.output
    assert len(list(tmp_path.glob("boom-australia-*.json"))) == 2


def test_the_default_save_name_takes_a_number_when_the_name_is_taken(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    session = Session.start(AUSTRALIA, ["Ana", "Ben"], ["random", "random"], 1)
    assert default_save_path(session) == "boom-australia-1.json"
    (tmp_path / "boom-australia-1.json").write_text("{}", encoding="utf-8")
    (tmp_path / "boom-australia-1-2.json").write_text("{}", encoding="utf-8")
    assert default_save_path(session) == "boom-australia-1-3.json"


def test_validation_errors_come_in_line_order_and_the_id_error_lists_every_allowed_character(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {AUSTRALIA}\nid: Aus tralia\nrounds: 0\nhand_size: 8\n", encoding="utf-8")
    result = invoke("validate", path)
    lines = [line for line in result.output.splitlines() if ": error: " in line]
    assert [int(line.split(":")[1]) for line in lines] == sorted(int(line.split(":")[1]) for line in lines)
    assert (
        "id: 'Aus tralia' is not a valid name (lower-case letters, digits, '_' and '-', starting with a letter)"
        in lines[0]
    )


def test_an_error_in_a_parent_is_named_by_the_relative_path_written(tmp_path, monkeypatch):
    (tmp_path / "variants").mkdir()
    (tmp_path / "parent.yaml").write_text(
        AUSTRALIA.read_text(encoding="utf-8").replace("catch.number)", "cach.number)"), encoding="utf-8"
    )
    (tmp_path / "variants" / "child.yaml").write_text("extends: ../parent.yaml\nid: child\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = invoke("validate", "variants/child.yaml")
    assert result.output.startswith("parent.yaml:78:31: error: unknown name 'cach'")


def first_note(output: str) -> str:
    """The note that heads an output, its lines (wrapped at words to the terminal) joined again."""
    return " ".join(output.split(" them).")[0].split()) + " them)."


def test_the_note_on_reconstructed_facts_heads_run_score_and_rules_and_q_hides_it(tmp_path):
    note = (
        "Note: 103 facts of Boomerang: Europe are reconstructed, not printed cards; if your cards differ, correct them "
        "in the YAML (boom validate --verbose europe lists them)."
    )
    assert first_note(invoke("rules", "europe").output) == note
    assert first_note(invoke("run", "europe", "-p", 2, "--seed", 1).output) == note
    record = tmp_path / "game.yaml"
    invoke("run", "europe", "-p", 2, "--seed", 1, "-q", "--save-record", record)
    assert first_note(invoke("score", "europe", "--record", record).output) == note
    assert "Note:" not in invoke("run", "europe", "-p", 2, "--seed", 1, "-q").output
    assert "Note:" not in invoke("rules", "europe", "-q").output
    assert "Note:" not in invoke("score", "europe", "--record", record, "-q").output
    assert "Note:" not in invoke("rules", "australia").output


def test_a_name_that_looks_like_markup_is_printed_as_it_is():
    output = invoke("run", "australia", "-p", 2, "--name", "[bold red]Zed[/]", "--name", "A[/x]", "--seed", 1).output
    assert "1. A[/x]  115\n2. [bold red]Zed[/]  98\nWinner: A[/x]\n" in output  # once crashed on '[/x]'


def test_resume_heads_with_the_same_note(tmp_path):
    save = tmp_path / "game.json"
    invoke("run", "europe", "-p", 2, "--seat", "human", "--seed", 1, "--save", save)  # no input: saved at once
    assert save.is_file()
    first = first_note(invoke("resume", save).output)
    assert first.startswith("Note: 103 facts of Boomerang: Europe are reconstructed")
    assert "europe.yaml lists them" in first
    assert "Note:" not in invoke("resume", save, "-q").output


def test_the_final_sheet_adds_up_like_the_pad():
    """Australia, 3 bots, seed 1: the rounds, then the bonuses and the tourist sites, then the total."""
    output = invoke("run", AUSTRALIA, "-p", 3, "--seed", 1, "-q").output
    rows = {}
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if len(cells) == 4 and cells[1].isdigit():
            rows[cells[0]] = [int(c) for c in cells[1:]]
    assert list(rows) == ["round 1", "round 2", "round 3", "round 4", "Region bonuses", "Tourist sites", "total"]
    assert rows["total"] == [sum(rows[k][seat] for k in rows if k != "total") for seat in range(3)]
    assert rows["total"] == [89, 109, 99]
    assert re.search(r"^1\. Ben  109\n2\. Cy  99\n3\. Ana  89\nWinner: Ben$", output, re.M)


def test_a_bots_only_game_shows_the_throws_and_with_v_every_draft():
    # Australia, 3 random bots, seed 1, round 1: Ana @ G T L P J W (Swimming), Throw @ (7), Catch W (2)
    plain = invoke("run", AUSTRALIA, "-p", 3, "--seed", 1).output
    assert "Throws revealed: Ana @ (7), Ben A (1), Cy V (2)" in plain
    verbose = invoke("run", AUSTRALIA, "-p", 3, "--seed", 1, "-v").output
    assert "  Ana: Throw @ (7) | G T L P J | Catch W (2); activities: Swimming" in verbose
    assert "  Cy: Throw V (2) | N B O Q X | Catch U (2); activities: Swimming\n" in verbose
    assert verbose.count(" | Catch ") == 3 * 4
    assert "Throws revealed" not in invoke("run", AUSTRALIA, "-p", 3, "--seed", 1, "-q").output


def test_the_readme_shows_a_real_final_sheet():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split("A game's last page", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    output = invoke("run", "australia", "--players", 3, "--seed", 1, "-q").output
    assert shown.strip() == "\n".join(line.rstrip() for line in output.splitlines()).strip()
