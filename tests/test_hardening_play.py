"""Issue #13, the game: an edition that validates must play (its sizes bounded), no internal errors,
hidden information that stays hidden (the deal, the hot seat's scrollback, the seed, control
sequences), and the smaller findings."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from rich.console import Console

from cli.main import main
from cli.terminal import TerminalAgent
from rulesengine import Game, check_edition, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.edition import bounded_yaml
from rulesengine.edition.source import MAX_NODES, load_yaml
from rulesengine.errors import EditionError

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def invoke(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result


def australia_data() -> dict:
    return yaml.safe_load(AUSTRALIA.read_text(encoding="utf-8"))


# -- 2. the sizes an edition may declare ---------------------------------------------------------
def _cards(data, n):
    data["cards"] = [dict(data["cards"][0], letter=f"{i:03d}") for i in range(n)]


def _family_icons(data, n):
    data["families"]["animal"]["icons"] = {f"Beast{i}": 1 for i in range(n)}


def _families(data, n):
    data["families"].update({f"extra{i}": {"icons": ["Odd"]} for i in range(n)})


def _regions(data, n):
    data["regions"] += [{"name": f"Land {i}"} for i in range(n)]


def _card_sets(data, n):
    data["card_sets"] = {f"set{i}": ["A"] for i in range(n)}


def _table_entries(data, n):
    data["tables"]["activity_points"] = {str(i): i for i in range(n)}


def _map_paths(data, n):
    data["map"] = {"paths": [["A", "B"]] * n}


@pytest.mark.parametrize(
    "grow, size, where, limit",
    [
        (_cards, 101, "cards", "takes at most 100 items, has 101"),
        (_family_icons, 201, "families.animal.icons", "takes at most 200 entries, has 201"),
        (_families, 20, "families", "takes at most 12 entries, has 23"),
        (_regions, 30, "regions", "takes at most 26 items, has 37"),
        (_card_sets, 40, "card_sets", "takes at most 16 entries, has 40"),
        (_table_entries, 51, "tables.activity_points", "takes at most 50 entries, has 51"),
        (_map_paths, 301, "map.paths", "takes at most 300 items, has 301"),
    ],
    ids=["cards", "icons-per-family", "families", "regions", "card-sets", "table-entries", "map-paths"],
)
def test_the_sizes_an_edition_declares_are_bounded_with_a_located_error(tmp_path, grow, size, where, limit):
    data = australia_data()
    grow(data, size)
    path = tmp_path / "big.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    edition, diagnostics = check_edition(path)
    assert edition is None
    [bound] = [d for d in diagnostics if d.code == "S105" and "takes at most" in d.message]
    assert bound.message == f"{where}: {limit}"
    assert bound.span.file == str(path) and bound.span.line > 1
    assert bound.hint == "a limit of every edition (`boom docs limits`)"


def test_docs_limits_lists_every_bound_of_the_schema():
    import json

    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    schema = json.loads((ROOT / "schemas" / "edition.schema.json").read_text(encoding="utf-8"))
    bounds = []

    def walk(node):
        if isinstance(node, dict):
            bounds.extend(node[k] for k in ("maxItems", "maxProperties") if k in node and node[k] > 2)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert bounds and all(f"| {bound:,} |" in text or f"| {bound} |" in text for bound in bounds)


# -- 5. no internal errors -----------------------------------------------------------------------
def test_an_extends_symlink_loop_is_a_located_error(tmp_path):
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    (tmp_path / "v.yaml").write_text("id: v\nextends: a.yaml\n")
    result = invoke("validate", tmp_path / "v.yaml")
    assert (
        result.exit_code == 1
        and f"{tmp_path / 'v.yaml'}:2:10: error: cannot find the edition 'a.yaml'" in result.output
    )


def test_a_lone_surrogate_is_a_located_error(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(
        AUSTRALIA.read_text(encoding="utf-8").replace('name: "Boomerang: Australia"', 'name: "Boom \\ud800"', 1),
        encoding="utf-8",
    )
    assert 'name: "Boom \\ud800"' in path.read_text(encoding="utf-8")
    result = invoke("run", path, "-p", 2, "-q")
    assert result.exit_code == 1 and "error: a lone surrogate (such as \\ud800) is not a character" in result.output
    assert f"{path}:" in result.output


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "601"])
def test_out_of_range_search_seconds_are_refused_at_the_command_line(value):
    result = invoke("run", AUSTRALIA, "-p", 2, "--search-seconds", value)
    assert result.exit_code == 2 and "--search-seconds" in result.output


def test_too_many_rollouts_are_refused_at_the_command_line():
    result = invoke("run", AUSTRALIA, "-p", 2, "--search-rollouts", 10**9)
    assert result.exit_code == 2 and "10000" in result.output


def test_validate_refuses_a_fifo_instead_of_blocking(tmp_path):
    fifo = tmp_path / "e.yaml"
    os.mkfifo(fifo)
    code = "import sys; from cli.main import main; sys.argv = ['boom', 'validate', sys.argv[1]]; main()"
    result = subprocess.run(
        [sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 1
    assert f"error: cannot read {fifo}: it is a FIFO, not a regular file" in result.stderr


# -- 7. hidden information -----------------------------------------------------------------------
def test_no_hand_is_known_from_the_previous_rounds_face_up_cards():
    """With 3 players 7 cards stay undealt; every drafted card is face up by the round's end, so the
    undealt ones are known. Dealt round-robin, no seat gets more than 3 of them: every hand holds
    at least 4 cards nobody could know."""
    edition = load_edition(AUSTRALIA)
    for seed in range(150):
        game = Game(edition, ["a", "b", "c"], seed)
        agents = [RandomAgent(agent_seed(seed, s)) for s in range(3)]
        known = None
        while not game.over:
            if game.phase == "throw" and not game.block.chosen and known is not None:
                for hand in game.places.hands:
                    assert len([c for c in hand if c in known]) <= 3
                known = None
            for decision in game.pending():
                game.apply(
                    decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category
                )
                if game.phase == "choice" and known is None:
                    drafted = {c for d in game.places.drafts for c in d}
                    known = [c for c in edition.cards if c not in drafted]
                    assert len(known) == 7


def test_four_player_deals_are_unchanged_by_the_round_robin_deal():
    edition = load_edition(AUSTRALIA)
    for seed in range(20):
        new, old = Game(edition, list("abcd"), seed), Game(edition, list("abcd"), seed, deal_version=1)
        assert new.places.hands == old.places.hands


def test_hot_seat_clears_the_scrollback_too(tmp_path):
    edition = load_edition(AUSTRALIA)
    game = Game(edition, ["Ana", "Ben"], 1)
    out = io.StringIO()
    agent = TerminalAgent(
        edition, Console(file=out, force_terminal=True, width=100), read=lambda prompt: "", hot_seat=True
    )
    decision = game.pending()[0]
    answers = iter(["", decision.options[0]])
    agent.read = lambda prompt: next(answers)
    agent.decide(game.view(0), decision)
    assert out.getvalue().count("\x1b[2J") == 2 and out.getvalue().count("\x1b[3J") == 2


def test_the_seed_of_a_game_with_a_human_is_printed_only_at_its_end(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("run", AUSTRALIA, "-p", 2, "--seed", 77, "--seat", "human", "--seat", "random", input="")
    assert result.exit_code == 130 and "77" not in result.output  # stopped early: never shown
    [saved] = tmp_path.glob("boom-australia-*.json")
    assert "77" not in saved.name
    bots = invoke("run", AUSTRALIA, "-p", 2, "--seed", 77, "-q")
    assert bots.output.splitlines()[0].endswith("; seed 77")


def test_control_sequences_from_an_edition_and_a_record_are_shown_escaped(tmp_path):
    path = tmp_path / "e.yaml"
    path.write_text(
        AUSTRALIA.read_text(encoding="utf-8").replace(
            'name: "Boomerang: Australia"', 'name: "Boom \\e[2J\\e]0;pwned\\a"', 1
        ),
        encoding="utf-8",
    )
    result = invoke("validate", path)
    assert result.exit_code == 0 and "\x1b" not in result.output and "\x07" not in result.output
    assert "Boom \\x1b[2J\\x1b]0;pwned\\x07" in result.output
    record = tmp_path / "r.yaml"
    game = invoke("run", AUSTRALIA, "-p", 2, "--seed", 3, "-q", "--save-record", record)
    assert game.exit_code == 0
    record.write_text(record.read_text(encoding="utf-8").replace("Ana", '"An\\ea"'), encoding="utf-8")
    scored = invoke("score", AUSTRALIA, "--record", record)
    assert scored.exit_code == 0 and "\x1b" not in scored.output and "An\\x1ba" in scored.output


@pytest.mark.parametrize("name", ["", "   ", "\x1b[2J"])
def test_empty_blank_and_control_names_are_refused(name):
    result = invoke("run", AUSTRALIA, "-p", 2, "--name", name)
    assert result.exit_code == 2 and "--name" in result.output and "\x1b" not in result.output


# -- 8. smaller ------------------------------------------------------------------------------------
def test_a_long_yaml_list_is_refused_after_at_most_max_nodes_nodes(monkeypatch):
    composed = []
    original = bounded_yaml._Bounds.compose_node          # the bounds of both YAML readers

    def counting(self, parent, index):
        composed.append(1)
        return original(self, parent, index)

    monkeypatch.setattr(bounded_yaml._Bounds, "compose_node", counting)
    with pytest.raises(EditionError) as caught:
        load_yaml("<list>", "[" + "1," * 60_000 + "1]")
    assert caught.value.diagnostics[0].message == f"the document has more than {MAX_NODES} nodes"
    assert MAX_NODES == 10_000 and len(composed) == MAX_NODES + 1  # the work done before refusing
