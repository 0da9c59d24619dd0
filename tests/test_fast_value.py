"""The bots' generated seat value (bots/fast_value.py) gives exactly what evaluate's expression-by-expression
value gives, on every shipped drafting edition and house rule, and the greedy bot's sampler draws the
worlds from_view draws (issue #12: faster, deciding exactly as before)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import chain
from pathlib import Path

import pytest

from rulesengine import Game, load_edition
from rulesengine.bots import evaluate
from rulesengine.bots.determinize import from_view, sampled_rounds
from rulesengine.bots.registry import RandomAgent
from rulesengine.game.scoring import ScoreKeeper

ROOT = Path(__file__).resolve().parent.parent
DRAFTING = sorted(p for p in [*ROOT.glob("editions/*.yaml"), *ROOT.glob("editions/variants/*.yaml")]
                  if "2010" not in p.name)
AUSTRALIA = ROOT / "editions" / "australia.yaml"


def standings(edition, players: int, rng: random.Random, count: int):
    """Standings after 0 to rounds-1 random rounds, with a random choice icon where one is allowed."""
    for _ in range(count):
        scores = ScoreKeeper(edition, [str(i) for i in range(players)])
        deck = list(edition.cards)
        for _ in range(rng.randrange(edition.rounds)):
            rng.shuffle(deck)
            drafts = [deck[i * edition.hand_size:(i + 1) * edition.hand_size] for i in range(players)]
            choices = []
            for seat in range(players):
                standing = evaluate.standing_from_scores(edition, scores)
                picked = {}
                for category in edition.choice_categories:
                    points = evaluate.choice_points(standing, seat, category, drafts[seat], [])
                    if points:
                        picked[category.key] = rng.choice(sorted(points))
                choices.append(picked)
            scores.score_round(drafts, choices)
        yield evaluate.standing_from_scores(edition, scores)


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
def test_the_generated_value_is_the_value_of_every_expression(path):
    edition = load_edition(path)
    rng = random.Random(path.stem)
    players = min(4, len(edition.cards) // edition.hand_size)
    compared = 0
    for standing in standings(edition, players, rng, 12):
        assert standing.fast is not None   # every shipped drafting edition's value is generated (`lines.<key>` too)
        by_expression = replace(standing, fast=None, memo={})
        for _ in range(25):
            seat = rng.randrange(players)
            hand = rng.sample(edition.cards, rng.randrange(1, edition.hand_size + 1))
            fast, slow = evaluate._own_value(standing, seat, hand), evaluate._own_value(by_expression, seat, hand)
            assert (fast, type(fast)) == (slow, type(slow)), [c.letter for c in hand]
            compared += 1
    assert compared == 300


def test_an_expression_that_fails_on_a_hand_counts_its_default(tmp_path):
    """Division by zero on one Leaves card, a missing table row: the category gives 0, as evaluate._run does."""
    path = tmp_path / "house.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\n"
        "id: failing\n"
        "tables:\n  leaf_points: {0: 5, 2: 7}\n"
        "categories:\n"
        "  - key: leaves_odd\n    title: Leaves\n    score: 12 // (count('Leaves', cards) - 1)\n"
        "  - key: leaves_row\n    title: Rows\n    score: lookup(leaf_points, count('Leaves', cards))\n",
        encoding="utf-8",
    )
    edition = load_edition(path)
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a", "b"]))
    assert standing.fast is not None
    by_expression = replace(standing, fast=None, memo={})
    leaves = [c for c in edition.cards if "Leaves" in c.icons]
    plain = [c for c in edition.cards if "Leaves" not in c.icons]
    for hand, extra in ((plain[:3], 5 + 12 // -1), (leaves[:1] + plain[:2], 0), (leaves[:2] + plain[:1], 7 + 12)):
        base = evaluate._own_value(replace(by_expression, own=by_expression.own[:-2]), 0, hand)
        assert evaluate._own_value(standing, 0, hand) == evaluate._own_value(by_expression, 0, hand) == base + extra


def test_the_greedy_sampler_draws_the_worlds_of_from_view(australia):
    game = Game(australia, ["Ana", "Ben", "Cy"], 5, events=False)
    agents = [RandomAgent(s) for s in range(3)]
    checked = 0
    while not game.over:
        for decision in game.pending():
            view = game.view(decision.seat)
            if view["phase"] in ("throw", "draft"):
                rng = random.Random(checked)
                worlds = [from_view(australia, view, rng, scored=False) for _ in range(3)]
                in_hands = [tuple(chain.from_iterable(world.hands)) for world in worlds]
                assert sampled_rounds(australia, view, random.Random(checked), 3) == [
                    (cards, cards + tuple(chain.from_iterable(world.drafts)))
                    for cards, world in zip(in_hands, worlds, strict=True)]
                checked += 1
            game.apply(decision.seat, agents[decision.seat].decide(view, decision), decision.category)
    assert checked > 50


@pytest.mark.parametrize("name", ["australia", "europe", "usa", "variants/australia-wombat-majority"])
def test_the_search_bot_values_a_finished_round_as_round_values_does(name):
    """round_gains (seat_value for each seat, races shared) equals round_values, the sheet's rules."""
    edition = load_edition(ROOT / "editions" / f"{name}.yaml")
    rng = random.Random(name)
    for standing in standings(edition, 4, rng, 10):
        deck = rng.sample(edition.cards, 4 * edition.hand_size)
        drafts = [deck[i * edition.hand_size:(i + 1) * edition.hand_size] for i in range(4)]
        assert evaluate.round_gains(standing, drafts) == evaluate.round_values(standing, drafts)


@pytest.mark.parametrize("name", ["europe", "variants/australia-rivalry",
                                  "variants/australia-follow-the-leader"])
def test_the_categories_that_read_the_other_seats_are_generated_exactly(name):
    """seat_value with the generated shared categories equals it expression by expression, whether the
    others come as one list (the greedy bot) or seat by seat (a round's Others)."""
    from rulesengine.game.scoring_rules import others as round_others

    edition = load_edition(ROOT / "editions" / f"{name}.yaml")
    rng = random.Random(name)
    compared = 0
    for standing in standings(edition, 4, rng, 10):
        assert standing.shared and standing.fast_shared is not None
        by_expression = replace(standing, fast=None, fast_shared=None, memo={})
        for _ in range(20):
            deck = rng.sample(edition.cards, 4 * edition.hand_size)
            drafts = [deck[i * edition.hand_size:(i + 1) * edition.hand_size] for i in range(4)]
            seat = rng.randrange(4)
            hand = drafts[seat][: rng.randrange(1, edition.hand_size + 1)]
            for others in (deck[len(hand):], round_others(drafts, seat)):
                fast = evaluate.seat_value(standing, seat, hand, others)
                assert fast == evaluate.seat_value(by_expression, seat, hand, others)
                assert fast == evaluate.hand_values(standing, seat).one(hand, others)
                compared += 1
    assert compared == 400


@pytest.mark.parametrize("name", ["australia", "usa", "europe", "variants/australia-two-decks",
                                  "variants/australia-five-rounds", "variants/australia-rivalry",
                                  "variants/australia-follow-the-leader"])
def test_the_options_of_one_order_are_valued_as_each_hand_alone(name):
    """HandValues.order (the counts and visited cards of what the hands share, worked out once) gives
    each option what HandValues.one gives its hand, and what the score sheet's rules give it
    (seat_value), the other seats holding the rest of what was dealt: an option not among the first
    cards of the order (head) completed by head[:rest], one among them by the rest of head."""
    compared, in_head = options_compared(load_edition(ROOT / "editions" / f"{name}.yaml"))
    assert compared > 300 and in_head > 150   # both ways of completing a hand, many times


def test_categories_that_read_the_hand_and_the_visited_cards_as_lists_are_valued_by_order_too(tmp_path):
    """The generated values of one order put the hand and the visited cards together as lists when
    a category reads them so (not only their counts, their set or their length)."""
    path = tmp_path / "house.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\n"
        "id: lists\n"
        "categories:\n"
        "  - key: low\n    title: Low\n    score: sum([c.number for c in cards if c.number < 3])\n"
        "  - key: far\n    title: Far\n    score: len([c for c in visited if c.number > 5])\n",
        encoding="utf-8",
    )
    edition = load_edition(path)
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a"]))
    assert evaluate.hand_values(standing, 0).order
    assert "S_visited" in standing.fast_order.__code__.co_varnames   # the visited cards as a set, not a mask
    compared, in_head = options_compared(edition)
    assert compared > 300 and in_head > 150


@pytest.mark.parametrize("score, as_mask", [
    ("len(visited) * 2 + (if all([intersects(r.cards, visited) for r in regions]) then 5 else 0)", True),
    ("len([r for r in regions if subset(r.cards, visited)])", False),   # r is not known to be a region
    ("count(\"Kangaroos\", visited)", False),               # an icon count: read from the list
    ("if intersects(cards, visited) then 3 else 0", False),   # the hand is not a mask
    ("len([r for r in regions if subset(r.cards, cards)]) + len(visited)", True),   # the hand as a set
])
def test_a_house_rule_reading_the_visited_cards_keeps_them_as_a_mask_only_where_a_mask_answers(
        tmp_path, score, as_mask):
    """The generated values of one order, with the visited cards as a mask or as a frozenset (dsl.Masks),
    and the hand as a set or the visited cards counted where a category reads them so."""
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {AUSTRALIA}\nid: visits\ncategories:\n"
                    f"  - key: visits\n    title: Visits\n    score: '{score}'\n", encoding="utf-8")
    edition = load_edition(path)
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a"]))
    assert ("M_visited" in standing.fast_order.__code__.co_varnames) is as_mask
    compared, in_head = options_compared(edition)
    assert compared > 300 and in_head > 150


@pytest.mark.parametrize("name", ["australia", "europe", "usa", "variants/australia-two-decks"])
def test_the_shipped_editions_value_the_orders_with_the_visited_cards_as_a_mask(name):
    """dsl.Masks: their races and game-end categories read the visited cards only as a bitmask answers
    (subset, intersects, connected, len), so no set is copied for each hand; the values are compared
    with the score sheet's in the tests above."""
    edition = load_edition(ROOT / "editions" / f"{name}.yaml")
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a", "b"]))
    assert "M_visited" in standing.fast_order.__code__.co_varnames
    assert "S_visited" not in standing.fast_order.__code__.co_varnames


@pytest.mark.parametrize("name, in_one_function", [("europe", True), ("variants/australia-rivalry", True),
                                                   ("variants/australia-follow-the-leader", False),
                                                   ("variants/australia-koala-majority", False)])
def test_shared_categories_join_the_order_function_when_they_read_the_others_by_their_counts(name, in_one_function):
    """Europe's treasures count an icon on the other seats' cards, and rivalry the collections of the
    right neighbour's, who in a sampled world is the pile of every other seat's cards: fast_order adds
    them, from the counts of what was dealt less the hand. A category that reads those cards otherwise
    (the first of them, or seat by seat) is added by evaluate's slower path. Both are compared option
    by option in the test above."""
    edition = load_edition(ROOT / "editions" / f"{name}.yaml")
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a", "b", "c"]))
    assert standing.shared and standing.fast_order is not None
    assert standing.order_shared is in_one_function


def options_compared(edition) -> tuple[int, int]:
    """HandValues.order against HandValues.one and seat_value on random orders: (options, of them in head)."""
    rng = random.Random(edition.id)
    compared = in_head = 0
    for standing in standings(edition, 4, rng, 10):
        for _ in range(10):
            seat = rng.randrange(4)
            values = evaluate.hand_values(standing, seat)
            assert values.order is not None
            slow = replace(standing, fast=None, fast_shared=None, memo={})
            deck = rng.sample(edition.cards, len(edition.cards))
            size = rng.randrange(0, edition.hand_size - 1)
            rest = edition.hand_size - size - 1
            first, options = deck[:size], deck[size:size + rest + 1]
            dealt = deck[: 4 * edition.hand_size]
            # the first rest + 1 cards of an order of the cards in hands: some options, the other seats' cards
            taken = rng.randrange(len(options) + 1)
            head = rng.sample(options, taken) + deck[size + rest + 1:][: rest + 1 - taken]
            rng.shuffle(head)
            sums, by_order = [0] * len(options), values.order(first, options, rest)
            by_order(sums, [head], dealt)
            # the orders of a world added up in one call, as one by one
            other, both, then = rng.sample(head, len(head)), [0.5] * len(options), [0.5] * len(options)
            by_order(both, [head, other], dealt)
            by_order(then, [head], dealt)
            by_order(then, [other], dealt)
            assert both == then
            for card, value in zip(options, sums, strict=True):
                last = [c for c in head if c is not card][:rest] if card in head else head[:rest]
                hand = first + [card] + last
                others = [c for c in dealt if c not in hand]
                assert value == values.one(hand, others) == evaluate.seat_value(slow, seat, hand, others)
                compared += 1
                in_head += card in head
    return compared, in_head


def test_the_bots_shuffle_draws_as_random_shuffle_does():
    """game.shuffling.shuffle: the same order and the same generator state after it as random.Random.shuffle."""
    from rulesengine.game.shuffling import shuffle

    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 24, 28, 56, 100):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, reference = list(range(size)), list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(reference)
            assert mine == reference and ours.getstate() == theirs.getstate()


def test_a_sum_over_the_icons_of_the_cards_is_worked_out_from_their_counts(tmp_path, monkeypatch):
    """sum([f(i) for i in icons(cards, family) if c(i)]) generated from the tally (codegen._sum_by_counts)
    gives what the list gives, and fails only where the list fails: on an icon the hand shows."""
    from rulesengine.game import scoring
    from rulesengine.game.generated import ROUND, Writer

    path = tmp_path / "house.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\n"
        "id: sums\n"
        "tables:\n  rare: {1: 5, 2: 10, 5: 30}\n"
        "categories:\n"
        "  - key: rare\n    title: Rare\n"
        "    score: sum([lookup(rare, value(i)) for i in icons(cards, collection) if i != 'Shells'])\n"
        "  - key: doubled\n    title: Doubled\n    score: sum([value(i) * len(cards) for i in icons(cards, animal)])\n"
        "  - key: risky\n    title: Risky\n"
        "    score: sum([12 // (value(i) - 9) for i in icons(cards, animal) if len(cards) < 3])\n",
        encoding="utf-8",
    )
    edition = load_edition(path)
    writer = Writer()
    for category in edition.categories[-3:]:
        writer.value("p", category.score, ROUND, 2, "0")
    assert " for " not in "\n".join(writer.lines)
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a", "b"]))
    assert standing.fast is not None
    by_expression = replace(standing, fast=None, memo={})
    rng = random.Random(3)
    failed = 0
    for _ in range(400):
        hand = rng.sample(edition.cards, rng.randrange(1, 8))
        assert evaluate._own_value(standing, 0, hand) == evaluate._own_value(by_expression, 0, hand)
        drafts = [hand, [c for c in edition.cards if c not in hand][:7]]
        sheets = []
        for generated in (True, False):
            if not generated:
                monkeypatch.setattr(scoring, "round_function", lambda edition: None)
            keeper = ScoreKeeper(edition, ["a", "b"])
            try:
                sheets.append(keeper.score_round(drafts, [{}, {}]))
            except scoring.ScoringError as error:
                sheets.append(error.diagnostics[0].message)
            monkeypatch.undo()
        assert sheets[0] == sheets[1]
        failed += isinstance(sheets[0], str)
    assert 0 < failed < 400


def test_a_game_end_reading_a_neighbour_is_not_the_pile_of_the_others(tmp_path):
    """In a sampled world a round category's neighbours are the pile of the other seats' cards, counted in
    T_others; a game-end category's are not (the bots' game end knows no other seats): the same house rule
    reads both, and its orders are valued as each hand alone."""
    path = tmp_path / "neighbours.yaml"
    path.write_text(
        f"extends: {AUSTRALIA}\n"
        "id: neighbours\n"
        "categories:\n"
        "  - key: envy\n    title: Envy\n    score: count('Koalas', left.cards) - count('Emus', right.visited)\n"
        "  - key: last_look\n    title: Last look\n    when: game_end\n    score: 2 * count('Koalas', right.cards)\n",
        encoding="utf-8",
    )
    edition = load_edition(path)
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a", "b", "c", "d"]))
    assert standing.order_shared
    compared, in_head = options_compared(edition)
    assert compared > 300 and in_head > 150
