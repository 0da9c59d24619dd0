"""The score sheet's generated round (game/fast_round.py) scores every game as the expression-by-expression
round does, on every shipped drafting edition and house rule, and an expression that fails is still
reported at its line and column (issue #12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesengine import Game, load_edition
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.game import scoring
from rulesengine.game.fast_round import round_function
from rulesengine.game.loop import play
from rulesengine.game.scoring import ScoreKeeper, ScoringError

ROOT = Path(__file__).resolve().parent.parent
DRAFTING = sorted(p for p in [*ROOT.glob("editions/*.yaml"), *ROOT.glob("editions/variants/*.yaml")]
                  if "2010" not in p.name)
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def rescore(edition, record) -> tuple[dict, list]:
    """The sheet of a record scored again, and the icons each seat could choose in each round."""
    keeper = ScoreKeeper(edition, record["players"])
    options = []
    for round_data in record["rounds"]:
        drafts = [[edition.card(x) for x in round_data["drafts"][name]] for name in record["players"]]
        options += [keeper.choice_options(seat, category, drafts)
                    for seat in range(len(drafts)) for category in edition.choice_categories]
        keeper.score_round(drafts, [dict(round_data["choices"].get(name, {})) for name in record["players"]])
    keeper.finish()
    return keeper.sheet(), options


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
def test_the_generated_round_scores_as_every_expression_does(path, monkeypatch):
    edition = load_edition(path)
    assert round_function(edition) is not None
    players = min(4, edition.players_max)
    records = []
    for seed in range(12):
        game = Game(edition, NAMES[:players], seed, events=False)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        records.append((game.record(), game.scores.sheet()))
    generated = [rescore(edition, record) for record, _ in records]
    assert any(icons for _, options in generated for icons in options) == bool(edition.choice_categories)
    monkeypatch.setattr(scoring, "round_function", lambda edition: None)
    for (record, sheet), (generated_sheet, generated_options) in zip(records, generated, strict=True):
        assert generated_sheet == sheet
        assert rescore(edition, record) == (sheet, generated_options)


def test_a_failing_expression_is_located_as_before(tmp_path, monkeypatch):
    path = tmp_path / "broken.yaml"
    path.write_text(f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: broken\ncategories:\n"
                    "  - key: collections\n    score: 12 // count('Souvenirs', cards)\n", encoding="utf-8")
    edition = load_edition(path)
    assert round_function(edition) is not None
    souvenirs = [c for c in edition.cards if "Souvenirs" in c.icons]
    plain = [c for c in edition.cards if "Souvenirs" not in c.icons]
    drafts = [souvenirs[:1] + plain[:6], plain[6:13]]   # Ben has no Souvenirs: 12 // 0
    messages = []
    for generated in (True, False):
        if not generated:
            monkeypatch.setattr(scoring, "round_function", lambda edition: None)
        keeper = ScoreKeeper(edition, ["Ana", "Ben"])
        with pytest.raises(ScoringError) as error:
            keeper.score_round(drafts, [{}, {}])
        diagnostic = error.value.diagnostics[0]
        messages.append((diagnostic.message, diagnostic.span.line, diagnostic.span.col, keeper.round_index))
    assert messages[0] == messages[1] == ("division by zero (round 1, seat Ben, collections)", 5, 12, 0)


def test_the_game_end_is_generated_and_a_failure_there_is_located_as_before(tmp_path, monkeypatch):
    path = tmp_path / "ending.yaml"
    path.write_text(f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: ending\n"
                    "tables:\n  bonus: {0: 0, 7: 5}\ncategories:\n"
                    "  - key: seven\n    title: Seven sites\n    when: game_end\n"
                    "    score: lookup(bonus, len(visited))\n",
                    encoding="utf-8")
    edition = load_edition(path)
    assert round_function(edition).end is not None
    cards = list(edition.cards)
    outcomes = []
    for generated in (True, False):
        if not generated:
            monkeypatch.setattr(scoring, "round_function", lambda edition: None)
        keeper = ScoreKeeper(edition, ["Ana", "Ben"])
        keeper.score_round([cards[:7], cards[7:14]], [{}, {}])
        keeper.finish()
        finished = keeper.sheet()["players"][0]["categories"]["seven"]
        keeper.score_round([cards[14:21], cards[21:26] + cards[:2]], [{}, {}])
        with pytest.raises(ScoringError) as error:   # Ana has visited 14 sites: no row 14
            keeper.finish()
        diagnostic = error.value.diagnostics[0]
        outcomes.append((finished, diagnostic.message, diagnostic.span.line, diagnostic.span.col))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][:2] == (5, "table 'bonus' has no row 14 (rows: 0, 7) (game end, seat Ana, seven)")


def test_a_round_that_reads_the_visited_cards_in_order_is_handed_them_in_order(tmp_path, monkeypatch):
    """The sheet hands the generated round and game end each seat's visited cards as a set unless a
    statement reads them as a list (reads_visited, end_reads_visited); a house rule that does gets them
    in deck order, as the slow round."""
    path = tmp_path / "wanderer.yaml"
    path.write_text(f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: wanderer\ncategories:\n"
                    "  - key: wanderer\n    title: Wanderer\n    when: round\n"
                    "    score: sum([c.number for c in visited if c.number > 3]) - len(visited)\n"
                    "  - key: activities\n    choice:\n      from: activity\n      once_per_game: true\n"
                    "      requires: count(choice, cards) >= 1 and len([c for c in visited if c.number > 5]) > 1\n"
                    "  - key: far\n    title: Far\n    when: game_end\n"
                    "    score: sum([c.number for c in visited if c.number > 4])\n",
                    encoding="utf-8")
    edition = load_edition(path)
    made, shipped = round_function(edition), round_function(load_edition(DRAFTING[0]))
    assert made.end is not None and made.reads_visited and made.end_reads_visited
    assert not shipped.reads_visited and not shipped.end_reads_visited   # len(visited) is read from the set
    records = []
    for seed in range(8):
        game = Game(edition, NAMES, seed, events=False)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(4)])
        records.append((game.record(), game.scores.sheet()))
    assert {p["categories"]["wanderer"] for _, sheet in records for p in sheet["players"]} != {0}
    assert {p["categories"]["far"] for _, sheet in records for p in sheet["players"]} != {0}
    generated = [rescore(edition, record) for record, _ in records]
    monkeypatch.setattr(scoring, "round_function", lambda edition: None)
    for (record, sheet), again in zip(records, generated, strict=True):
        assert again[0] == sheet
        assert rescore(edition, record) == again


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
def test_a_shipped_edition_never_falls_back_to_the_slow_round(path, monkeypatch):
    """The generated round, choices and game end run every game to its end: a generated function that
    raised (a name it lacks, say) would be scored again the slow way, with the same points, unseen."""
    edition = load_edition(path)
    made = round_function(edition)

    def slow(*args, **kwargs):
        raise AssertionError("scored the slow way")

    monkeypatch.setattr(scoring.rules, "seat_round", slow)
    monkeypatch.setattr(scoring.rules, "race_winners", slow)
    if set(made.allowed) == {c.key for c in edition.choice_categories}:
        monkeypatch.setattr(scoring.rules, "allowed_icons", slow)
    if made.end is not None:
        monkeypatch.setattr(scoring.rules, "game_end_points", slow)
    players = min(4, edition.players_max)
    for seed in range(3):
        game = Game(edition, NAMES[:players], seed, events=False)
        play(game, [RandomAgent(agent_seed(seed, s)) for s in range(players)])
        assert game.over
