"""Deck copies (editions/variants/australia-two-decks.yaml): lettering, one site per card and its copy,
scores by hand, the checks, bots with up to 8 players, logs that replay, and the browser's cards."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.edition.loader import check_edition
from rulesengine.game.scoring import ScoreKeeper

PATH = EDITIONS / "variants" / "australia-two-decks.yaml"


@pytest.fixture(scope="module")
def two_decks():
    return load_edition(PATH)


def test_every_card_twice_lettered_with_its_copy_number(two_decks):
    assert len(two_decks.cards) == 56 and two_decks.players_max == 8
    a, copy = two_decks.card("A"), two_decks.card("A.2")
    assert copy.copy_of is a and copy.site is a and a.site is a
    assert (copy.name, copy.region, copy.number, copy.icons) == (a.name, a.region, a.number, a.icons)
    wa = a.region
    assert [c.letter for c in wa.cards] == ["A", "B", "C", "D"]  # a region's sites: the printed cards only


def test_a_card_and_its_copy_are_one_site_but_two_cards(two_decks):
    # Ann drafts A, A.2, B, B.2, C, C.2, D: four sites (all of Western Australia: its bonus of 3), and
    # Kangaroos on B, B.2, C and C.2: two pairs of Kangaroos at 3 points a pair
    scores = ScoreKeeper(two_decks, ["Ann", "Bob"])
    ann = [two_decks.card(x) for x in ("A", "A.2", "B", "B.2", "C", "C.2", "D")]
    bob = [two_decks.card(x) for x in ("E", "F", "G", "H", "I", "J", "K")]
    scores.score_round([ann, bob], [{}, {}])
    scores.finish()
    assert [c.letter for c in scores.visited[0]] == ["A", "B", "C", "D"]
    assert scores.rounds[0][0]["regions"] == 3
    assert scores.rounds[0][0]["animals"] == 2 * 3
    assert scores.end_scores[0]["sites"] == 4 and scores.end_scores[1]["sites"] == 7


def test_a_copy_letter_taken_by_another_card_is_an_error(tmp_path):
    clash = tmp_path / "clash.yaml"
    clash.write_text(
        f"extends: {PATH}\nid: clash\nname: Clash\ncards:\n"
        "  - {letter: 'A.2', name: 'Somewhere', region: Western Australia, number: 1, icons: [Leaves, Swimming]}\n"
    )
    _, diagnostics = check_edition(clash)
    errors = [d for d in diagnostics if d.severity == "error"]
    assert [(d.code, d.message) for d in errors] == [
        ("M303", "copy 2 of card 'A' would be lettered 'A.2', a letter already used")
    ]


@pytest.mark.parametrize(("players", "kinds"), [(8, ("greedy",)), (5, ("search", "greedy"))])
def test_bots_play_it_and_the_log_replays(tmp_path, players, kinds):
    log = tmp_path / "g.jsonl"
    arguments = ["run", str(PATH), "-p", str(players), "--seed", "12", "-q", "--log", str(log)]
    arguments += ["--search-rollouts", "8"]
    for kind in kinds:
        arguments += ["--seat", kind]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    replayed = CliRunner().invoke(main, ["replay", str(log), "--verify"])
    assert replayed.exit_code == 0 and "replay identically" in replayed.output, replayed.output
