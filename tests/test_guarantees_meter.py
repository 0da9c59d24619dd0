"""The step budget at run time (#32): both runners count an evaluation's work as it is done (dsl/meter.py),
so an expression whose work budget was wrong stops at RUNTIME_STEPS with a located error, and the greedy
bot stops sampling worlds once a decision has spent its share.

Each expression here validated: the work budget believes `ns` no longer than Australia's deck (28), as it
believed nested lists cost one step a list before #32. The evaluations are then given longer lists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesengine.dsl as dsl
from rulesengine import load_edition
from rulesengine.dsl import NUMBER, ListType, Scope
from rulesengine.dsl.meter import METER, RUNTIME_STEPS, OverBudget
from rulesengine.game.program import RUNNERS

ROOT = Path(__file__).resolve().parent.parent
AUSTRALIA = load_edition(ROOT / "editions" / "australia.yaml")
VARIABLES = {"ns": ListType(NUMBER), "n": NUMBER}


def compiled(text: str, runner: str):
    language = AUSTRALIA.language
    checked = dsl.check(text, Scope(dict(VARIABLES), language.constants), language)
    assert not checked.problems, checked.problems   # within the work budget, as it counts
    return dsl.compile(checked, language, runner)


PAIRS = "sum([len([m for m in ns if m == k]) for k in ns])"   # every item against every item
NESTED = "".join(f"let a{i + 1} = [a{i}, a{i}]; " for i in range(10)).replace("[a0, a0]", "[ns, ns]", 1)


@pytest.mark.parametrize("runner", RUNNERS)
def test_a_comprehension_over_a_longer_list_than_the_budget_knew_stops_at_the_step_budget(runner):
    run = compiled(PAIRS, runner)
    assert run({"ns": list(range(300)), "n": 0}) == 300   # 300 + 300 x 300 = 90,300 steps: within
    with pytest.raises(OverBudget) as error:
        run({"ns": list(range(320)), "n": 0})             # 320 + 320 x 320 = 102,720 steps
    assert error.value.message == (
        f"this evaluation went over {RUNTIME_STEPS:,} steps (the work budget let it through: please report it)"
    )
    node = error.value.node   # the inner comprehension, the one going through its list when the budget ran out
    assert PAIRS[node.start:node.end] == "[m for m in ns if m == k]"


@pytest.mark.parametrize("runner", RUNNERS)
@pytest.mark.parametrize("compare, where, value", [
    ("a10 == a10", "a10 == a10", True),
    ("not (a10 != a10)", "a10 != a10", True),
    ("[a9] in [a10, a10]", "[a9] in [a10, a10]", False),   # 2 x (1 + 1 + 512 x len(ns) + 1,022): as much
])
def test_nested_lists_compared_item_by_item_are_charged_down_to_their_numbers(runner, compare, where, value):
    """a10 holds ns 1,024 times: comparing it goes through 1,024 x len(ns) numbers and 2,046 lists."""
    text = NESTED + compare
    run = compiled(text, runner)
    assert run({"ns": list(range(90)), "n": 0}) is value   # 1,024 x 90 + 2,046 = 94,206 steps
    with pytest.raises(OverBudget) as error:
        run({"ns": list(range(100)), "n": 0})             # 1,024 x 100 + 2,046 = 104,446 steps
    assert text[error.value.node.start:error.value.node.end] == where


@pytest.mark.parametrize("runner", RUNNERS)
def test_each_evaluation_has_its_own_budget_and_the_thread_counts_them_all(runner):
    run = compiled(PAIRS, runner)
    before = METER.spent
    for _ in range(3):   # 90,300 steps each: three are over one budget, but each is one evaluation
        assert run({"ns": list(range(300)), "n": 0}) == 300
    assert METER.spent - before == 3 * 90_300



@pytest.mark.parametrize("runner", RUNNERS)
def test_a_comprehension_over_icons_charges_each_icon_of_the_family_in_both_runners(runner):
    """The reference runner goes through icons(cards, family), a step an icon of the family; the generated
    program walks the cards' icons in place, and charged a step a card instead: 7 for Australia's A to G
    where the reference charged 5 (A and D show no animal), 2 for A and D where it charged none. Both
    charge the icons now, so the compiled program never charges more than the reference (dsl/meter.py)."""
    from rulesengine.dsl import CARDS

    language = AUSTRALIA.language
    checked = dsl.check("len([i for i in icons(cards, animal) if i != 'Emus'])", Scope({"cards": CARDS},
                        language.constants), language)
    assert not checked.problems, checked.problems
    run = dsl.compile(checked, language, runner)
    for letters, animals, not_emus in [("ABCDEFG", 5, 4), ("AD", 0, 0), ("BEE", 3, 1)]:
        before = METER.spent
        assert run({"cards": [AUSTRALIA.card(letter) for letter in letters]}) == not_emus
        assert METER.spent - before == animals

def test_the_greedy_bot_stops_sampling_worlds_when_a_decision_has_spent_its_steps(tmp_path, monkeypatch):
    """Its decision budget (DECISION_WORK) measured as the evaluations go: at 0, one world a decision."""
    from rulesengine import Game
    from rulesengine.bots import greedy
    from rulesengine.bots.greedy import GreedyAgent
    from rulesengine.game.loop import play

    house = tmp_path / "house.yaml"
    house.write_text(
        f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: house\ncategories:\n"
        "  - key: high\n    title: High\n    score: len([c for c in cards if c.number > 3])\n"
    )
    edition = load_edition(house)
    worlds = []
    real = greedy.shuffler
    monkeypatch.setattr(greedy, "shuffler", lambda rng, size: worlds.append(size) or real(rng, size))

    def decisions_and_worlds(budget: int):
        monkeypatch.setattr(greedy, "DECISION_STEPS", budget)
        worlds.clear()
        game = Game(edition, ["Ana", "Ben"], 5)
        play(game, [GreedyAgent(seat + 1, edition) for seat in range(2)])
        return len(game.decisions), len(worlds)

    # 2 seats x 4 rounds x 7 picks; 6 of a round's 7 have a choice (the last card has none)
    assert decisions_and_worlds(greedy.DECISION_STEPS) == (56, 48 * 6)   # six worlds each
    assert decisions_and_worlds(0) == (56, 48)                            # the first world only


def test_a_game_whose_evaluation_goes_over_stops_at_the_comparison_with_its_state_saved(tmp_path, monkeypatch):
    """With the work budget blind (as it was to nested lists before #32), the score sheet's evaluation stops
    at RUNTIME_STEPS: a located error, the game saved, no traceback. a10 holds the deck 1,024 times:
    30,718 steps a comparison, 28 comparisons."""
    from click.testing import CliRunner

    import rulesengine.dsl.checker as checker
    import rulesengine.edition.guarantee as guarantee
    from cli.main import main

    monkeypatch.setattr(checker, "worst_case", lambda *args: (0, None))
    monkeypatch.setattr(guarantee, "worst_case", lambda *args: (0, None))
    monkeypatch.chdir(tmp_path)
    lets = "".join(f"let a{i + 1} = [a{i}, a{i}]; " for i in range(10)).replace("[a0, a0]", "[deck, deck]", 1)
    house = tmp_path / "heavy.yaml"
    house.write_text(
        f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: heavy\ncategories:\n"
        f"  - key: heavy\n    title: Heavy\n    score: {lets}len([c for c in deck if a10 == a10])\n"
    )
    result = CliRunner().invoke(main, ["run", str(house), "-p", "2", "--seed", "1", "-q"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.splitlines()
    assert lines[1] == (
        f"{house}:6:231: error: this evaluation went over 100,000 steps (the work budget let it through: please "
        "report it) (round 1, seat Ana, heavy)"
    )
    assert lines[3].endswith("^~~~~~~~~~")
    assert (tmp_path / "boom-heavy-1.json").exists()


@pytest.mark.parametrize("name", ["australia", "europe", "usa"])
def test_the_meter_costs_the_shipped_editions_nothing_in_their_generated_program(name):
    """The fence on the meter's speed cost: the generated program charges only a list walked or compared in
    full, which the base editions' expressions never do (their counts read tallies), so a greedy game of
    each charges no step; the reference runner, the same games, charges each comprehension a step an item.
    (Of the shipped variants, australia-europe, -koala-majority, -rivalry and -wombat-majority charge.)"""
    from rulesengine import Game
    from rulesengine.bots.greedy import GreedyAgent
    from rulesengine.game.loop import play

    spent = []
    for runner in ("compiled", "reference"):
        played = load_edition(ROOT / "editions" / f"{name}.yaml", runner=runner)
        before = METER.spent
        play(Game(played, ["Ana", "Ben", "Cy", "Dee"], 1), [GreedyAgent(seat + 1, played) for seat in range(4)])
        spent.append(METER.spent - before)
    assert spent[0] == 0 < spent[1]


@pytest.mark.parametrize("path, charges", [
    ("australia.yaml", False), ("europe.yaml", False), ("usa.yaml", False),
    ("variants/australia-koala-majority.yaml", True),   # a comprehension over the other seats' cards, counted
    ("house", True),                                    # a comprehension over the seat's own cards
])
def test_a_seat_value_says_whether_valuing_hands_may_charge_the_meter(path, charges, tmp_path):
    """The greedy bot reads the thread's meter after each world only where the generated order function charges
    (SeatValue.charges, from the statements generated); the reference runner's closures may always charge."""
    from rulesengine.bots.evaluate import hand_values, standing_from_scores
    from rulesengine.game.scoring import ScoreKeeper

    if path == "house":   # the edition of the greedy bot's test above
        (tmp_path / "house.yaml").write_text(
            f"extends: {ROOT / 'editions' / 'australia.yaml'}\nid: house\ncategories:\n"
            "  - key: high\n    title: High\n    score: len([c for c in cards if c.number > 3])\n"
        )
    for runner, expected in (("compiled", charges), ("reference", True)):
        played = load_edition(tmp_path / "house.yaml" if path == "house" else ROOT / "editions" / path, runner=runner)
        standing = standing_from_scores(played, ScoreKeeper(played, ["Ana", "Ben", "Cy", "Dee"]))
        assert [hand_values(standing, seat).charges for seat in range(4)] == [expected] * 4
