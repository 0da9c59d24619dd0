"""The field's measures against known answers, and the verdict of three known cases read sentence by sentence."""

from __future__ import annotations

import pytest
from conftest import EDITIONS

from rulesengine.simulate import Settings, report_data, run_simulation
from rulesengine.simulate.depth import chance_and_skill, deal_share, skill_depth
from rulesengine.simulate.figures import game_arc
from rulesengine.simulate.statistics import correlation_interval
from rulesengine.simulate.words import p_value

AUSTRALIA = str(EDITIONS / "australia.yaml")


def rule(tmp_path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: {AUSTRALIA}\nid: australia-{name}\nname: 'Boomerang: Australia ({name})'\n{body}")
    return str(path)


def fixed_winner(tmp_path) -> str:
    """Whoever takes The Bungle Bungles (A) in round 1 scores 1000: more than the rest of any game."""
    return rule(
        tmp_path,
        "fixed",
        "categories:\n  - key: throw_catch\n"
        "    score: abs(throw.number - catch.number) + (if round == 1 and 'A' in cards then 1000 else 0)\n",
    )


def no_choice(tmp_path) -> str:
    """Every line scores nothing: no option is worth more than another."""
    lines = "".join(f"  - key: {key}\n    score: '0'\n" for key in ("throw_catch", "collections", "animals", "sites"))
    return rule(tmp_path, "nothing", f"remove: {{categories: [activities], races: [regions]}}\ncategories:\n{lines}")


def test_the_arc_of_a_game_by_hand():
    # Ana leads after every round and wins: no drama, clear from round 1, no lead change
    assert game_arc([[10, 2, 1], [5, 3, 0], [1, 9, 4]], {0}) == game_arc([[10, 2, 1], [5, 3, 0], [0, 0, 0]], {0})
    arc = game_arc([[10, 2, 1], [5, 3, 0], [1, 9, 4]], {0})
    assert (arc.lead_changes, arc.late_leader_lost, arc.drama, arc.decisive_round) == (0, 0, 0, 1)
    # Cy trails Ana by 9 after round 1 and by 12 after round 2, then wins: drama 12, the winner clear only at the end
    arc = game_arc([[10, 2, 1], [5, 3, 2], [0, 0, 20]], {2})
    assert (arc.lead_changes, arc.late_leader_lost, arc.drama, arc.decisive_round) == (1, 1, 12, 3)
    # Ben ties Ana after round 2 and leads alone from round 3 of 4: clear from round 3 (a shared lead is not clear)
    arc = game_arc([[5, 1], [0, 4], [0, 6], [1, 1]], {1})
    assert (arc.drama, arc.decisive_round) == (4, 3)


def test_a_rule_that_fixes_the_winner_in_round_one_is_decided_at_round_one(tmp_path):
    data = report_data(run_simulation(Settings((fixed_winner(tmp_path),), ("random",) * 4, 40, 3)))
    figures = data["figures"][0]
    assert figures["decisiveness"]["mean"] == 1.0 and figures["decisiveness"]["ci95"] == [1.0, 1.0]
    assert figures["drama"]["mean"] == 0.0
    assert figures["leader_before_last_round_loses"]["rate"] == 0.0
    assert figures["lead_changes"]["mean"] == 0.0


def test_when_the_deal_alone_fixes_the_winner_it_explains_all_of_who_wins(tmp_path):
    # greedy bots take The Bungle Bungles at once: the seat dealt it in round 1 wins, whatever the bots' seeds
    chance = chance_and_skill(fixed_winner(tmp_path), "greedy", 4, 6, seed=2)
    assert chance["wins"] == {"share": 1.0, "ci95": [1.0, 1.0]}
    assert chance["games"] == 24


def test_the_share_of_the_deal_by_hand():
    assert deal_share([[1, 1], [0, 0]]) == 1.0  # each (deal, seat) always gets the same result
    assert deal_share([[1, 0], [0, 1]]) == 0.0  # the deal says nothing
    assert deal_share([[0, 0], [0, 0]]) is None  # nothing varies
    # means 0.5, 1, 0: between-groups mean square 2 * 0.5 / 2 = 0.5, within 0.5 / 3; (0.5 - 1/6) / (0.5 + 1/6)
    assert deal_share([[1, 0], [1, 1], [0, 0]]) == pytest.approx(0.5)


def test_a_rule_with_no_choice_has_clarity_zero_and_no_skill_depth(tmp_path):
    nothing = no_choice(tmp_path)
    figures = report_data(run_simulation(Settings((nothing,), ("greedy",) * 4, 8, 1)))["figures"][0]
    assert figures["clarity"]["mean"] == 0.0 and figures["clarity"]["games"] == 8
    depth = skill_depth(nothing, 4, ("random", "greedy"), 20, seed=1)
    assert depth["rungs"][0]["win_rate"]["rate"] == 0.25  # every game a four-way tie: 1/4 each
    assert depth["depth"] == 0 and not depth["rungs"][0]["beats"]
    assert chance_and_skill(nothing, "greedy", 4, 2)["wins"] == {"share": None, "ci95": None}


def test_greedy_bots_see_a_spread_of_card_values_in_australia():
    figures = report_data(run_simulation(Settings((AUSTRALIA,), ("greedy",) * 4, 6, 1)))["figures"][0]
    assert figures["clarity"]["mean"] > 0.5


def test_decisions_and_branching_by_hand(tmp_path):
    # without Activities, each round asks every seat 6 picks, from 7, 6, ... 2 cards (the last card, the
    # Catch, is handed over, not asked): 24 real decisions a game and (7 + 6 + ... + 2) / 6 = 4.5 options each
    plain = rule(tmp_path, "plain", "remove: {categories: [activities]}\n")
    figures = report_data(run_simulation(Settings((plain,), ("random",) * 4, 10, 1)))["figures"][0]
    assert figures["decisions"]["mean"] == 24.0 and figures["branching"]["mean"] == 4.5
    assert figures["clarity"] is None  # random bots value nothing


def test_a_greedy_bot_climbs_the_first_rung_of_the_ladder():
    depth = skill_depth(AUSTRALIA, 4, ("random", "greedy"), 40, seed=1)
    assert depth["rungs"][0]["beats"] and depth["depth"] == 1


def test_intervals_and_p_values_as_a_reader_sees_them():
    low, high = correlation_interval(0.5, 103)  # z = atanh(0.5) = 0.5493, ± 1.96 / 10
    assert (round(low, 4), round(high, 4)) == (0.3393, 0.6323)
    assert p_value(0.0) == "p < 0.001" and p_value(0.0004) == "p < 0.001" and p_value(0.0123) == "p = 0.012"


def _renderings(value) -> list[str]:
    if isinstance(value, bool):
        return []
    if isinstance(value, list):
        return [str(len(value))]
    if isinstance(value, int):
        return [f"{value:,}", f"{value:.1%}"]
    return [f"{value:.1%}", f"{value:.0%}", f"{value:+.2f}", f"{value:.1f}"]


def _check_sentences(data: dict) -> list[str]:
    """Every figure a sentence quotes is the report's own, and appears in its words."""
    texts = [sentence["text"] for sentence in data["verdict"]]
    assert 3 <= len(texts) <= 6
    for sentence in data["verdict"]:
        assert sentence["backing"], sentence["text"]
        for backing in sentence["backing"]:
            found = data
            for step in backing["figure"]:
                found = found[step]
            assert found == backing["value"]
            shown = _renderings(found)
            assert not shown or any(text in sentence["text"] for text in shown), (sentence["text"], found)
        assert "_" not in sentence["text"]  # no raw keys (late_leader_lost, throw_catch)
    return texts


def test_the_verdict_of_a_neutral_rule(tmp_path):
    same = rule(tmp_path, "same", "")
    data = report_data(run_simulation(Settings((AUSTRALIA, same), ("random",) * 4, 300, 4), jobs=2))
    texts = _check_sentences(data)
    assert texts[0].startswith("On the same 300 deals, Boomerang: Australia (same) against Boomerang: Australia:")
    assert "no change a player would notice (the paired test finds none)" in texts[0]
    assert texts[1].startswith("What does not change that a player would notice: every seat's share of the wins")
    assert texts[2].startswith("No sheet line decides the game by itself")
    assert texts[3].startswith("No seat has an edge")
    assert texts[4].startswith("No card dominates")


def test_the_verdict_of_animals_times_three(tmp_path):
    animals = rule(
        tmp_path,
        "x3",
        "categories:\n  - key: animals\n"
        "    score: 3 * sum([value(kind) * (count(kind, cards) // 2) for kind in kinds(animal)])\n",
    )
    data = report_data(run_simulation(Settings((AUSTRALIA, animals), ("random",) * 4, 300, 4), jobs=2))
    texts = _check_sentences(data)
    share = data["comparison"]["measures"]["share.animals"]
    assert share["noticeable"]
    assert f"the share of the points from Animals goes from {share['first']:.1%} to {share['second']:.1%}" in texts[0]
    assert "every seat's share of the wins" in texts[1]
    r = data["figures"][1]["categories"]["animals"]["with_winning"]
    assert r >= 0.5 and texts[2].startswith(
        f"Animals decides the game by itself: its points go with winning at r = {r:+.2f}"
    )
    assert texts[3].startswith("No seat has an edge")


def test_the_verdict_of_a_rule_that_favours_the_first_seat(tmp_path):
    # with three players the 7 cards left undealt open the next round's deal from the first seat on (3 to it, 2 to
    # each other): it more often holds a card nobody visited yet, which this rule rewards as its Throw
    fresh = rule(
        tmp_path,
        "fresh",
        "categories:\n  - key: fresh_throw\n    title: Fresh Throw\n"
        "    score: if round > 1 and all([throw not in s.visited for s in opponents]) then 20 else 0\n",
    )
    data = report_data(run_simulation(Settings((AUSTRALIA, fresh), ("random",) * 3, 2000, 1), jobs=2))
    texts = _check_sentences(data)
    seat = data["comparison"]["measures"]["win.position1"]
    assert seat["noticeable"] and seat["difference"] > 0.015
    first = data["figures"][1]["win_rate_by_position"][0]
    assert f"Seat 1 has an edge: it wins {first['rate']:.1%} of the games" in texts[3]
    assert f"seat 1's share of the wins goes from {seat['first']:.1%} to {seat['second']:.1%}" in texts[0]
    assert "every seat's share of the wins" not in texts[1]
