"""The scopes of the scoring language are declared once (edition/scopes.py): the checker, the docs,
the environments and the scoring core all follow that declaration."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import cards

from rulesengine import check_edition, load_edition
from rulesengine.edition import scopes
from rulesengine.errors import GameRuleError
from rulesengine.game.program import RUNNERS, program
from rulesengine.game.scoring import ScoreKeeper

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {AUSTRALIA}\nid: v\n" + text, encoding="utf-8")
    return path


def test_the_docs_table_of_variables_is_the_declaration():
    assert scopes.variables_table() in (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")


def test_each_scope_is_filled_with_exactly_its_declared_variables(australia):
    at = scopes.moment(australia, 3, 2)
    hand, region = cards(australia, "ABC"), australia.regions[0]
    filled = {
        scopes.ROUND_CATEGORY: {**scopes.round_env(at, hand, [], hand), "choice": None},   # choice: see requires_env
        scopes.GAME_END: scopes.game_end_env(at, hand),
        scopes.REQUIRES: scopes.requires_env(at, hand, [], hand, 0, "Swimming"),
        scopes.QUALIFIES: scopes.qualifies_env(at, hand, hand, region),
        scopes.AWARD: scopes.award_env(at, 1, region),
        scopes.UNTIL: scopes.until_env(hand, 3, 2),
        scopes.FLOW_END: scopes.flow_end_env(hand, 3, {}),     # and each stock by name: see test_flow
    }
    assert set(filled) == set(scopes.SCOPES)
    for scope, env in filled.items():
        assert sorted(env) == sorted(scope.names), scope.key
    assert (filled[scopes.AWARD]["players"], filled[scopes.AWARD]["round"]) == (3, 2)


def test_a_missing_variable_is_explained_from_the_declaration(tmp_path):
    path = write(tmp_path, """categories:
  - key: sites
    score: len(cards) + len(visited)
races:
  - key: regions
    award: if choice == 'Swimming' then 1 else 0
""")
    _, diagnostics = check_edition(path)
    hints = sorted((d.message, d.hint) for d in diagnostics if d.severity == "error")
    known = ("'visited', 'opponents', 'left', 'right', 'round_totals', 'lines', 'totals', 'standing', 'options', "
             "'players' and 'rounds'")
    assert hints == [("'cards' cannot be used here", f"at game end only {known} are known"),
                     ("'choice' cannot be used here", "'choice' exists only in a category with a 'choice:' section")]


ONCE_A_GAME = """categories:
  - key: activities
    choice:
      from: activity
      requires: count(choice, cards) >= 1 and previous == 0
"""


def test_requires_reads_previous_on_the_sheet(tmp_path):
    """`previous` is declared in a choice's `requires`; the sheet now fills it there too."""
    edition = load_edition(write(tmp_path, ONCE_A_GAME))
    activities = next(c for c in edition.categories if c.key == "activities")
    keeper = ScoreKeeper(edition, ["Ana", "Ben"])
    first = [cards(edition, "DKMOTAB"), cards(edition, "CEFGHIJ")]
    assert keeper.score_round(first, [{"activities": "Bushwalking"}, {}])[0]["activities"] == 10   # 5 Bushwalking
    second = [cards(edition, "HLNSWXY"), cards(edition, "ACEFGIJ")]
    assert keeper.choice_options(0, activities, second) == []                  # Ana scored 10 last round
    assert keeper.choice_options(1, activities, second) == ["Indigenous Culture", "Sightseeing"]
    with pytest.raises(GameRuleError, match="your Activities score of the previous round is 0"):
        keeper.score_round(second, [{"activities": "Swimming"}, {}])


@pytest.mark.parametrize("runner", RUNNERS)
def test_the_best_choice_is_no_choice_when_every_icon_loses_points(tmp_path, runner):
    edition = load_edition(write(tmp_path, """categories:
  - key: activities
    score: 0 - count(choice, cards)
"""), runner=runner)
    scoring = program(edition)
    hand = cards(edition, "DKMOTAB")                # Bushwalking 5, Indigenous Culture 1, Sightseeing 1
    seat = {"cards": hand, "visited": hand, "table": ([], [], None, None), "previous": {}, "players": 2, "round": 1,
            "rounds": 4}
    inputs = scopes.SeatInputs(**seat, tally=scoring.tally(hand), seen=frozenset(hand), used=())
    points = scoring.choice_points["activities"](inputs)
    assert points == {"Indigenous Culture": -1, "Sightseeing": -1, "Bushwalking": -5}
    used = {"activities": ()}
    assert scoring.judged_round(**seat, used=used, choices=None)["activities"] == 0
    assert scoring.judged_round(**seat, used=used, choices={"activities": "Sightseeing"})["activities"] == -1


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_race_is_taken_once_and_shared_by_the_seats_of_one_round(runner):
    """Every seat that completes a region takes it, unless it took it before; the first place pays
    the region's bonus (Western Australia: A, B, C, D, bonus 3), later places nothing."""
    australia = load_edition(ROOT / "editions" / "australia.yaml", runner=runner)
    members = cards(australia, "ABCD")
    keeper = ScoreKeeper(australia, ["Ana", "Ben", "Cy"])
    rest = [c for c in australia.cards if c not in members]
    drafts = [members + rest[:3], members + rest[3:6], members[:-1] + rest[6:10]]
    sheet = keeper.score_round(drafts, [{}, {}, {}])
    assert [points["regions"] >= 3 for points in sheet] == [True, True, False]
    assert keeper.races[("regions", australia.regions[0].name)].winners == {0, 1}
    scoring, region = program(australia), australia.regions[0]
    assert scoring.award(australia.races[0], region, place=1, players=3, round=1, rounds=4) == 3
    assert scoring.award(australia.races[0], region, place=2, players=3, round=1, rounds=4) == 0


def test_rounds_is_known_everywhere(tmp_path):
    """Issue #15's "double points in the last round", and a game-end category that reads `rounds`."""
    edition = load_edition(write(tmp_path, """rounds: 1
categories:
  - key: throw_catch
    score: (if round == rounds then 2 else 1) * abs(throw.number - catch.number)
  - key: sites
    score: len(visited) + rounds
races:
  - key: regions
    qualifies: subset(region.cards, visited) and round == rounds
    award: if place == 1 then region.bonus * rounds else 0
"""))
    keeper = ScoreKeeper(edition, ["Ana", "Ben"])
    # Ana: Throw E (4), Catch A (1), Western Australia complete (A B C D, bonus 3); Ben completes no region
    points = keeper.score_round([cards(edition, "EBCDQRA"), cards(edition, "FGHIJKM")], [{}, {}])
    assert (points[0]["throw_catch"], points[0]["regions"], points[1]["regions"]) == (6, 3, 0)
    keeper.finish()
    assert [scores["sites"] for scores in keeper.end_scores] == [8, 8]
