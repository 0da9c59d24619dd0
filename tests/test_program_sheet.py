"""The score sheet's program (dsl/program/sheet.py, run by game/scoring.py) scores every game as the
reference interpreter does (game/reference.py), on every shipped drafting edition and house rule: the
same sheets, the same choices offered, and an expression that fails reported at the same line and
column by both (R501), never scored again another way."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.dsl.program import analyse, reads_of
from rulesengine.game.loop import play
from rulesengine.game.program import RUNNERS, program
from rulesengine.game.scoring import ScoreKeeper, ScoringError

ROOT = Path(__file__).resolve().parent.parent
DRAFTING = sorted(p for p in [*ROOT.glob("editions/*.yaml"), *ROOT.glob("editions/variants/*.yaml")]
                  if "2010" not in p.name)
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def rescore(edition, record) -> tuple[dict, list]:
    """The sheet of a record scored again, and the icons each seat could choose in each round."""
    keeper = ScoreKeeper(edition, record["players"])
    if record.get("goals"):   # the public goals the game drew (game/records.py hands them to the sheet too)
        keeper.set_goals(record["goals"])
    options = []
    for round_data in record["rounds"]:
        drafts = [[edition.card(x) for x in round_data["drafts"][name]] for name in record["players"]]
        options += [keeper.choice_options(seat, category, drafts)
                    for seat in range(len(drafts)) for category in edition.choice_categories]
        keeper.score_round(drafts, [dict(round_data["choices"].get(name, {})) for name in record["players"]])
    keeper.finish()
    return keeper.sheet(), options


def both(path) -> dict:
    return {runner: load_edition(path, runner=runner) for runner in RUNNERS}


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
def test_the_compiled_program_scores_as_the_reference(path):
    editions = both(path)
    edition = editions["compiled"]
    players = min(4, edition.players_max)
    records = []
    for seed in range(12):
        game = Game(edition, NAMES[:players], seed, events=False)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        records.append((game.record(), game.scores.sheet()))
    for record, sheet in records:
        compiled, reference = (rescore(editions[runner], record) for runner in RUNNERS)
        assert compiled[0] == sheet
        assert compiled == reference
    assert any(icons for record, _ in records for icons in rescore(edition, record)[1]) == \
        bool(edition.choice_categories)


def failing(tmp_path, text: str, runner: str):
    path = tmp_path / "broken.yaml"
    path.write_text(f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: broken\n" + text, encoding="utf-8")
    return load_edition(path, runner=runner)


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_failing_expression_is_located(tmp_path, runner):
    edition = failing(tmp_path, "categories:\n  - key: collections\n    score: 12 // count('Souvenirs', cards)\n",
                      runner)
    souvenirs = [c for c in edition.cards if "Souvenirs" in c.icons]
    plain = [c for c in edition.cards if "Souvenirs" not in c.icons]
    drafts = [souvenirs[:1] + plain[:6], plain[6:13]]   # Ben has no Souvenirs: 12 // 0
    keeper = ScoreKeeper(edition, ["Ana", "Ben"])
    with pytest.raises(ScoringError) as error:
        keeper.score_round(drafts, [{}, {}])
    diagnostic = error.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.message, diagnostic.span.line, diagnostic.span.col, keeper.round_index) == (
        "R501", "division by zero (round 1, seat Ben, collections)", 5, 12, 0)
    assert diagnostic.quote == "    score: 12 // count('Souvenirs', cards)"   # the line quoted


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_failing_requires_and_award_are_located(tmp_path, runner):
    edition = failing(tmp_path, "tables:\n  few: {2: 1}\ncategories:\n  - key: activities\n    choice:\n"
                      "      from: activity\n      requires: lookup(few, len(cards)) > 0\n"
                      "races:\n  - key: regions\n    award: 10 // (place - 1)\n", runner)
    cards = list(edition.cards)
    keeper = ScoreKeeper(edition, ["Ana", "Ben"])
    with pytest.raises(ScoringError) as error:
        keeper.round_choice_options([cards[:7], cards[7:14]])
    assert error.value.diagnostics[0].message == \
        "table 'few' has no row 7 (rows: 2) (round 1, seat Ana, activities requires)"
    assert (error.value.diagnostics[0].span.line, error.value.diagnostics[0].span.col) == (9, 17)
    region = edition.regions[0]
    keeper = ScoreKeeper(edition, ["Ana", "Ben"])
    with pytest.raises(ScoringError) as error:   # Ana completes a region in round 1: its place 1 divides by 0
        keeper.score_round([list(region.cards) + cards[20:27 - len(region.cards)], cards[7:14]], [{}, {}])
    assert error.value.diagnostics[0].message == "division by zero (round 1, regions)"
    assert (error.value.diagnostics[0].span.line, error.value.diagnostics[0].span.col) == (12, 12)


@pytest.mark.parametrize("runner", RUNNERS)
def test_the_game_end_and_a_failure_there_are_located(tmp_path, runner):
    edition = failing(tmp_path, "tables:\n  bonus: {0: 0, 7: 5}\ncategories:\n"
                      "  - key: seven\n    title: Seven sites\n    when: game_end\n"
                      "    score: lookup(bonus, len(visited))\n", runner)
    cards = list(edition.cards)
    keeper = ScoreKeeper(edition, ["Ana", "Ben"])
    keeper.score_round([cards[:7], cards[7:14]], [{}, {}])
    keeper.finish()
    assert keeper.sheet()["players"][0]["categories"]["seven"] == 5
    keeper.score_round([cards[14:21], cards[21:26] + cards[:2]], [{}, {}])
    with pytest.raises(ScoringError) as error:   # Ana has visited 14 sites: no row 14
        keeper.finish()
    diagnostic = error.value.diagnostics[0]
    assert (diagnostic.message, diagnostic.span.line, diagnostic.span.col) == (
        "table 'bonus' has no row 14 (rows: 0, 7) (game end, seat Ana, seven)", 9, 12)


def test_a_round_that_reads_the_visited_cards_in_order_is_handed_them_in_order(tmp_path):
    """The sheet hands the program each seat's visited cards as a set unless a statement reads them as a
    list (its needs, from the trees); a house rule that does gets them in deck order, as the reference."""
    path = tmp_path / "wanderer.yaml"
    path.write_text(f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: wanderer\ncategories:\n"
                    "  - key: wanderer\n    title: Wanderer\n    when: round\n"
                    "    score: sum([c.number for c in visited if c.number > 3]) - len(visited)\n"
                    "  - key: activities\n    choice:\n      from: activity\n      once_per_game: true\n"
                    "      requires: count(choice, cards) >= 1 and len([c for c in visited if c.number > 5]) > 1\n"
                    "  - key: far\n    title: Far\n    when: game_end\n"
                    "    score: sum([c.number for c in visited if c.number > 4])\n",
                    encoding="utf-8")
    editions = both(path)
    needs, shipped = program(editions["compiled"]).needs, program(load_edition(DRAFTING[0])).needs
    assert needs.visited and needs.end_visited
    assert not shipped.visited and not shipped.end_visited   # len(visited) is read from the set
    for seed in range(8):
        game = Game(editions["compiled"], NAMES, seed, events=False)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(4)])
        record, sheet = game.record(), game.scores.sheet()
        assert {p["categories"]["far"] for p in sheet["players"]} != {0}
        assert rescore(editions["compiled"], record) == rescore(editions["reference"], record)
        assert rescore(editions["compiled"], record)[0] == sheet


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
def test_every_shipped_drafting_edition_plays_to_its_end_with_each_runner(path):
    """Each runner plays every game to the end, and the two play the same games."""
    editions = both(path)
    players = min(4, editions["compiled"].players_max)
    for seed in range(2):
        games = [Game(editions[runner], NAMES[:players], seed, events=False) for runner in RUNNERS]
        for game in games:
            play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
            assert game.over
        assert games[0].scores.sheet() == games[1].scores.sheet()


def test_each_expression_is_analysed_once_and_the_analysis_kept_with_it():
    """Building the program asks what each expression reads two or three times (dsl/program/reads.py: reads_of):
    the analysis is made at the first ask, kept on the expression, and is what analysing its tree again gives."""
    edition = load_edition(ROOT / "editions" / "australia.yaml")
    expressions = [c.score for c in edition.categories] + [r.qualifies for r in edition.races]
    assert all("reads" not in e.kept for e in expressions)
    program(edition)
    for expression in expressions:
        kept = expression.kept["reads"]
        assert reads_of(expression) is kept
        assert kept == analyse(*expression.tree[:2])
    assert [sorted(e.kept["reads"].variables()) for e in expressions] == [
        ["catch", "throw"], ["cards"], ["cards"], ["cards", "choice"], ["visited"], ["region", "visited"]]
