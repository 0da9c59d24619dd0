"""Engine invariants over many seeds, every edition and every variant."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped import shipped_that_load

from cli.main import main
from rulesengine import Game, load_edition
from rulesengine.bots.determinize import from_view
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.edition.steps import Deal
from rulesengine.game.blocks import round_plan
from rulesengine.game.loop import play

ROOT = Path(__file__).resolve().parent.parent
EDITION_FILES = shipped_that_load()  # a broken file fails test_shipped, naming it
EDITIONS = {path.relative_to(ROOT).as_posix(): load_edition(path) for path in EDITION_FILES}
DRAFTING = {name: edition for name, edition in EDITIONS.items() if round_plan(edition).scores_rounds}  # 2010: test_flow


def check_invariants(edition, game):
    n = len(game.players)
    held = game.places
    thrown = held.discarded  # (a round that discards: its cards out of the round)
    places = [c for h in held.hands for c in h] + [c for d in held.drafts for c in d] + list(held.leftover)
    places += [c for d in thrown for c in d]
    # before the deal every card is in the deck (a round may ask a decision first: a choice declared in secret)
    if not game.over and (any(held.hands) or any(held.drafts)):
        assert sorted(c.index for c in places) == sorted(c.index for c in edition.cards), (
            "every card in exactly one place"
        )
        assert len({len(h) for h in game.places.hands}) == 1
        dealt = edition.round.step(Deal).cards_in(game.round)  # this round's hand (hand sizes by round)
        assert all(len(held.hands[s]) + len(held.drafts[s]) + len(thrown[s]) == dealt for s in range(n))


def seatings(edition) -> list[int]:
    """The player counts this edition seats (teams need equal teams)."""
    return [n for n in range(edition.players_min, edition.players_max + 1) if edition.draft.fits(n)]


# derandomized, as the fuzzers' ci profile: every run sees the same examples, so a failure is never luck
@settings(max_examples=25, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(DRAFTING)), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_cards_are_conserved_and_hands_stay_full(name, seed, data):
    edition = DRAFTING[name]
    players = data.draw(st.sampled_from(seatings(edition)))
    game = Game(edition, [f"p{i}" for i in range(players)], seed)
    agents = [RandomAgent(agent_seed(seed, s)) for s in range(players)]
    while not game.over:
        check_invariants(edition, game)
        for decision in game.pending():
            game.apply(
                decision.seat, agents[decision.seat].decide(game.view(decision.seat), decision), decision.category
            )
    for index, round_data in enumerate(game.record()["rounds"]):  # the cards each round keeps
        assert all(len(hand) == edition.round.kept(index) for hand in round_data["drafts"].values())
    sheet = game.scores.sheet()
    assert all(p["total"] == sum(p["categories"][k] for k in edition.counting_keys) for p in sheet["players"])


@settings(max_examples=15, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(DRAFTING)), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 30))
def test_a_view_is_unchanged_when_hidden_cards_change(name, seed, steps):
    """Two states that differ only in what seat 0 cannot see give seat 0 the same view."""
    edition = DRAFTING[name]
    game = Game(edition, [f"p{i}" for i in range(max(seatings(edition)[0], 2))], seed)
    for _ in range(steps):
        for decision in game.pending():
            if not game.over:
                game.apply(decision.seat, decision.options[-1], decision.category)
    view = game.view(0)
    import random

    other = from_view(edition, view, random.Random(seed))
    assert other.view(0) == view


def test_scoring_does_not_depend_on_hash_order():
    """The same game under two hash seeds (set and dict orders differ) gives the same log."""
    script = (
        "import json,sys; from rulesengine import Game, load_edition; "
        "from rulesengine.bots.registry import RandomAgent, agent_seed;"
        "from rulesengine.game.loop import play; out=[]\n"
        "for f in sys.argv[1:]:\n e=load_edition(f)\n for s in range(3):\n"
        "  n=max(e.players_min,min(3,e.players_max))\n"
        "  g=play(Game(e,['a','b','c','d'][:n],s),[RandomAgent(agent_seed(s,i)) for i in range(n)])\n"
        "  out.append(g.events)\n"
        "print(json.dumps(out))"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        result = subprocess.run(
            [sys.executable, "-c", script, *map(str, EDITION_FILES)],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=True,
        )
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]


def test_a_record_scores_the_same_whatever_the_order_of_its_mappings(tmp_path):
    edition = EDITIONS["editions/australia.yaml"]
    game = play(Game(edition, ["a", "b", "c"], 3), [RandomAgent(agent_seed(3, i)) for i in range(3)])
    record = game.record()
    for round_data in record["rounds"]:
        round_data["drafts"] = dict(reversed(list(round_data["drafts"].items())))
        round_data["choices"] = dict(reversed(list(round_data["choices"].items())))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(
        main, ["score", str(ROOT / "editions" / "australia.yaml"), "--record", str(path), "--format", "json"]
    )
    assert json.loads(result.output) == game.scores.sheet()


def test_a_runtime_error_in_an_expression_stops_the_game_cleanly_and_saves_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    variant = tmp_path / "broken.yaml"
    variant.write_text(f"""extends: {ROOT / "editions" / "australia.yaml"}
id: broken
categories:
  - key: collections
    score: 12 // count('Souvenirs', cards)
""")
    result = CliRunner().invoke(main, ["run", str(variant), "-p", "2", "--seed", "1", "-q"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    lines = lines[next(i for i, line in enumerate(lines) if "error:" in line) :]
    assert lines[0] == f"{variant}:5:12: error: division by zero (round 1, seat Ana, collections)"
    assert lines[1] == "        score: 12 // count('Souvenirs', cards)"
    assert "its state is saved to boom-broken-1.json" in result.output
    saved = json.loads((tmp_path / "boom-broken-1.json").read_text())
    assert len(saved["decisions"]) == 14 and saved["over"] is False


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_every_edition_and_variant_plays_with_every_player_count(name):
    edition = EDITIONS[name]
    for players in range(edition.players_min, edition.players_max + 1):
        for seed in range(3):
            game = play(
                Game(edition, [f"p{i}" for i in range(players)], seed),
                [RandomAgent(agent_seed(seed, s)) for s in range(players)],
            )
            assert game.over and len(game.scores.sheet()["winners"]) >= 1
