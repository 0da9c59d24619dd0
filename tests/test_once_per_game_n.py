"""`once_per_game: N` on a choice (issue #30): each icon may be chosen in N rounds of a game.

The shipped house rule australia-activities-twice.yaml lets each activity score twice a game. The
game below is dealt by seed 3 to two players who always take the first card of their hand and
choose Swimming whenever it is offered; the activity points are counted by hand from the rulebook's
table (1 card 0, 2 cards 2, 3 cards 4).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from round_support import first_options_until
from shipped import EDITIONS

from cli.main import main
from rulesengine import load_edition
from rulesengine.bots.registry import make_bot
from rulesengine.game.loop import play
from rulesengine.game.state import Game

PATH = EDITIONS / "variants" / "australia-activities-twice.yaml"


def to_the_choices(game) -> list:
    return first_options_until(game, "choice")


def swim_when_offered(game) -> list:
    options = to_the_choices(game)
    for decision in options:
        game.apply(decision.seat, "Swimming" if "Swimming" in decision.options else None, "activities")
    return [d.options for d in options]


def test_swimming_scores_twice_then_is_used_up():
    """Ana swims in round 1 (W, # and N: 3 cards, 4 points) and round 3 (N and #: 2 cards, 2 points); Ben in
    round 2 (L, S and H: 4 points) and round 3 (W alone: 0). Round 3 still offers it to both (used once); under
    Australia's once a game it is gone by then. In round 4 it is used up for both."""
    twice = load_edition(PATH)
    game = Game(twice, ["Ana", "Ben"], 3)
    offered = [swim_when_offered(game) for _ in range(3)]
    assert ["Swimming" in options for options in offered[2]] == [True, True]
    assert [[r["activities"] for r in p["rounds"]] for p in game.scores.sheet()["players"]] == [[4, 0, 2], [0, 4, 0]]
    assert [game.view(seat)["used_choices"] for seat in game.seats] == [{"activities": ["Swimming"]}] * 2
    assert all("Swimming" not in d.options for d in to_the_choices(game))

    once = Game(load_edition(EDITIONS / "australia.yaml"), ["Ana", "Ben"], 3)
    offered = [swim_when_offered(once) for _ in range(3)]
    assert ["Swimming" in options for options in offered[2]] == [False, False]


def test_a_record_choosing_an_icon_a_third_time_is_refused(tmp_path):
    twice = load_edition(PATH)
    game = Game(twice, ["Ana", "Ben"], 3)
    for _ in range(3):
        swim_when_offered(game)
    with pytest.raises(Exception, match="Swimming"):
        to_the_choices(game)
        game.apply(0, "Swimming", "activities")


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_bots_play_whole_games(kind):
    twice = load_edition(PATH)
    game = play(Game(twice, ["a", "b", "c"], 2), [make_bot(kind, twice, s) for s in range(3)])
    assert game.over
    for name in game.players:
        chosen = [entry["choices"].get(name, {}).get("activities") for entry in game.history]
        assert all(chosen.count(icon) <= 2 for icon in set(chosen) - {None})


def test_boom_rules_says_twice():
    text = " ".join(CliRunner().invoke(main, ["rules", str(PATH)]).output.split())
    assert "and each activity in two rounds of the game at most; choosing none is always allowed" in text


def test_without_its_own_words_a_choice_says_n_times(tmp_path):
    path = tmp_path / "thrice.yaml"
    path.write_text(f"extends: {PATH}\nid: thrice\ncategories:\n  - key: swims\n    title: Swims\n"
                    "    description: A point a card of the activity you choose.\n"
                    "    choice: {from: activity, once_per_game: 3}\n    score: count(choice, cards)\n")
    text = " ".join(CliRunner().invoke(main, ["rules", str(path)]).output.split())
    assert "each icon in at most 3 rounds of the game" in text
