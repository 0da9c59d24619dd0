"""`boom rules`: the edition as a rules summary a player can read at the table, generated from the YAML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from shipped import shipped_that_load

from cli.main import main
from rulesengine import load_edition
from rulesengine.edition.rules_text import rules_text
from rulesengine.edition.steps import Deal

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = shipped_that_load()  # a broken file fails test_shipped, naming it

MINI = """\
format: 1
id: mini
name: Mini
description: A two-region test game.
players: {min: 2, max: 3}
rounds: 3
hand_size: 2
passing: {directions: [left, left, right], catch: previous}
families:
  animal: {title: Animals, icons: {Emus: 4, Koalas: 7}}
  activity: {title: Activities, icons: [Surfing]}
regions:
  - {name: North, bonus: 3}
  - {name: South}
cards:
  - {letter: 'A', name: Alpha, region: North, number: 1, icons: [Emus, Surfing]}
  - {letter: 'B', name: Bravo, region: North, number: 2, icons: [Koalas]}
  - {letter: 'C', name: Charlie, region: South, number: 3, icons: [Emus]}
  - {letter: 'D', name: Delta, region: South, number: 4, icons: [Koalas]}
  - {letter: 'E', name: Echo, region: South, number: 5, icons: [Emus]}
  - {letter: 'F', name: Foxtrot, region: South, number: 6, icons: [Koalas, Surfing]}
tables:
  surf: {1: 2, 2: 5}
categories:
  - key: pairs
    title: Animal pairs
    description: Each pair of one animal scores its value.
    score: sum([value(k) * (count(k, cards) // 2) for k in kinds(animal)])
  - key: surf
    title: Surfing
    choice: {from: activity, requires: "count(choice, cards) >= 1"}
    score: lookup(surf, count(choice, cards), 0)
  - key: sites
    title: Sites
    when: game_end
    score: len(visited)
races:
  - key: north
    title: Up north
    qualifies: subset(['A', 'B'], visited)
    award: if place == 1 then 3 else 1
tie_breaks: [pairs, north]
"""

MINI_RULES = """\
Mini
====
A two-region test game.

The game
--------
2 to 3 players, 3 rounds. The game is played in rounds, each made of these steps:
  1. Deal: the cards are shuffled and every player is dealt 2 cards; the cards left undealt in
  the round before are dealt first.
  2. Throw: the first card each player keeps is their Throw, face down until the round ends.
  3. Pick and pass: every player keeps a card of their hand at the same time and passes the rest
  on, until one card is left in each hand. Hands are passed left in rounds 1 and 2; right in
  round 3.
  4. Catch: the last card of each hand, passed on alone, is kept: the Catch. The last card of a
  round (the Catch) goes the other way: to the previous player. Then every Throw is turned face
  up.
  5. Choices: every player makes the round's choices (Surfing), all at once; they are told to
  the table once everyone has chosen. Then the round is scored.

Icons
-----
Animals: Emus 4, Koalas 7
Activities: Surfing

Regions
-------
North (bonus 3): A B
South: C D E F

Tables
------
surf: 1 → 2, 2 → 5

Scoring every round
-------------------
  Animal pairs
    Each pair of one animal scores its value.

  Surfing
    The entry of the surf table for the number of the chosen icon on your cards this round (0
    when it has none).
    At the end of the round you may choose one Activities icon (Surfing), each icon once per
    game; without a choice the category scores 0.
    You may choose an icon only when the number of the chosen icon on your cards this round is
    at least 1.

Scoring at the end of the game
------------------------------
  Sites
    The number of the cards you have visited.

Bonuses
-------
Checked at the end of every round. Everyone who qualifies in the same round gets the award of
the same place; each player wins each bonus at most once.

  Up north
    Qualify when all of card A (Alpha) and card B (Bravo) are among the cards you have visited.
    Award: 3 if the place is 1, else 1.

Ties
----
The highest total wins. Between tied players, the most Animal pairs points, then the most Up
north points wins; still tied, they share the victory.
"""


def invoke(*args):
    result = CliRunner().invoke(main, ["rules", *map(str, args)], catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def test_the_whole_summary_of_a_small_edition(tmp_path):
    path = tmp_path / "mini.yaml"
    path.write_text(MINI, encoding="utf-8")
    assert rules_text(path) == MINI_RULES
    result = invoke(path)
    assert result.exit_code == 0
    assert result.output == MINI_RULES


# What only the scoring language writes: operators, brackets, quotes, keywords and function calls.
DSL_SYNTAX = re.compile(
    r"==|!=|>=|<=|//|\[|\]|'[\w@#]+'|\blet\b|\bthen \w+ else\b|"
    r"\b(?:sum|len|count|icons|kinds|value|lookup|subset|intersects|connected|abs)\(|"
    r"\b(?:throw|catch|card|region)\.\w|\b\w+_\w+\b"
)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_edition_prints_its_rules_in_words_only(path):
    edition = load_edition(path)
    text = invoke(path, "-q").output
    assert text.startswith(f"{edition.name}\n{'=' * len(edition.name)}\n")
    assert "The game is played in rounds, each made of these steps:" in " ".join(text.split())
    for number in range(1, len(edition.round.steps) + 1):
        assert f"\n  {number}. " in text
    if edition.round.rounds is not None:
        by_round = edition.round.step(Deal).by_round  # each round's hand: "dealt a hand of 5, 6, 7 and 7 cards"
        dealt = f"{', '.join(map(str, by_round[:-1]))} and {by_round[-1]}" if by_round else str(edition.hand_size)
        assert f"{edition.rounds} rounds" in text and f"dealt {'a hand of ' * bool(by_round)}{dealt} cards" in text
    for category in edition.categories:
        assert f"  {category.title}\n" in text
    for race in edition.races:
        assert f"  {race.title}" in text
    titles = {c.key: c.title for c in edition.categories} | {r.key: r.title for r in edition.races}
    for key in edition.tie_breaks:
        most = "fewest" if key in edition.lowest_first else "most"
        said = f"the most {key} kept" if key in edition.stocks else f"the {most} {titles[key]} points"
        assert said in " ".join(text.split())
    for region in edition.regions:
        assert f"{region.name}" in text
    body = text.split("\nThe game\n", 1)[1]  # the title may quote the edition's name
    assert DSL_SYNTAX.findall(body) == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_formulas_come_only_when_asked(path):
    edition = load_edition(path)
    text = invoke(path, "--formulas").output
    for category in edition.categories:
        for line in (category.score.text if category.score else "").strip().splitlines():  # a majority: none
            assert f"      {line.strip()}\n" in text
    for race in edition.races:
        assert race.award.text.strip().splitlines()[0] in text
    assert "Reading the formulas" in text and "Reading the formulas" not in invoke(path).output


def test_the_dsl_syntax_pattern_finds_formulas():
    formula = "let s = sum([value(i) for i in icons(cards, americana)]); if s > previous then s else 0"
    assert DSL_SYNTAX.findall(formula) == ["let", "sum(", "[", "value(", "icons(", "]", "then s else"]


def test_the_passing_rules_in_words():
    assert "Hands are passed left every round." in invoke(ROOT / "editions" / "australia.yaml").output
    direction = " ".join(invoke(ROOT / "editions" / "variants" / "australia-direction.yaml").output.split())
    assert "Hands are passed left in rounds 1 and 3; right in rounds 2 and 4." in direction
    catch = invoke(ROOT / "editions" / "variants" / "australia-catch-previous.yaml").output
    assert "The last card of a round (the Catch) goes the other way: to the previous player." in " ".join(catch.split())


def test_the_author_s_words_come_with_the_formula():
    first_edition = ROOT / "editions" / "variants" / "australia-first-edition.yaml"
    text = " ".join(invoke(first_edition, "--formulas").output.split())
    assert (
        "Five rounds, and a round's Collections score counts only when it is greater than "
        "your Collections score of the previous round"
        in text
    )
    assert "scores only when greater than your Collections score of the previous round. Score: let total" in text
    assert "previous: your score in this category in the previous round (0 in round 1)" in text


def test_a_broken_edition_gives_its_errors_not_rules():
    broken = ROOT / "tests" / "broken" / "m304-unknown-region.yaml"
    result = invoke(broken)
    assert result.exit_code == 1
    assert result.output.startswith(f"{broken}:5:27: error: unknown region 'Queenslan'")
