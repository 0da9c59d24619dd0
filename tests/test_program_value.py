"""The bots' value of hands, from the edition's compiled program (dsl/program/value.py, order.py), gives
exactly what the reference interpreter (game/reference.py) gives, on every shipped drafting edition and
house rule, and the greedy bot's sampler draws the worlds from_view draws (issue #12: faster, deciding
exactly as before)."""

from __future__ import annotations

import random
from itertools import chain
from pathlib import Path

import pytest

from rulesengine import Game, load_edition
from rulesengine.bots import evaluate
from rulesengine.bots.determinize import from_view, sampled_rounds
from rulesengine.bots.registry import RandomAgent
from rulesengine.dsl.program import names
from rulesengine.dsl.program.order import masked
from rulesengine.game.program import RUNNERS
from rulesengine.game.round_facts import others as round_others
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


def paired(path, players: int, count: int, seed: str):
    """The same random standings of the edition loaded with each runner: (compiled, reference) pairs."""
    editions = [load_edition(path, runner=runner) for runner in RUNNERS]
    return zip(*(standings(edition, players, random.Random(seed), count) for edition in editions), strict=True)


def mine(standing, cards) -> list:
    """The same cards, of the standing's own edition (cards compare by identity)."""
    return [standing.edition.cards[card.index] for card in cards]


@pytest.mark.parametrize("path", DRAFTING, ids=lambda p: p.stem)
def test_the_generated_value_is_the_reference_value(path):
    edition = load_edition(path)
    rng = random.Random(path.stem)
    players = min(4, len(edition.cards) // edition.hand_size)
    compared = 0
    for compiled, reference in paired(path, players, 12, path.stem):
        for _ in range(25):
            seat = rng.randrange(players)
            hand = rng.sample(edition.cards, rng.randrange(1, edition.hand_size + 1))
            fast, slow = (evaluate.own_value(each, seat, mine(each, hand)) for each in (compiled, reference))
            assert (fast, type(fast)) == (slow, type(slow)), [c.letter for c in hand]
            compared += 1
    assert compared == 300


def test_an_expression_that_fails_on_a_hand_counts_its_default(tmp_path):
    """Division by zero on one Leaves card, a missing table row: the category gives 0, as the reference does."""
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
    compiled, reference = (load_edition(path, runner=runner) for runner in RUNNERS)
    leaves = [c for c in compiled.cards if "Leaves" in c.icons]
    plain = [c for c in compiled.cards if "Leaves" not in c.icons]
    values = []
    for edition in (compiled, reference):
        standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a", "b"]))
        values.append([evaluate.own_value(standing, 0, hand) for hand in (plain[:3], leaves[:1] + plain[:2],
                                                                            leaves[:2] + plain[:1])])
    base = load_edition(AUSTRALIA)
    standing = evaluate.standing_from_scores(base, ScoreKeeper(base, ["a", "b"]))
    bases = [evaluate.own_value(standing, 0, [base.card(c.letter) for c in hand])
             for hand in (plain[:3], leaves[:1] + plain[:2], leaves[:2] + plain[:1])]
    assert values[0] == values[1] == [bases[0] + 5 + 12 // -1, bases[1] + 0, bases[2] + 7 + 12]


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
                in_hands = [tuple(chain.from_iterable(world.places.hands)) for world in worlds]
                assert sampled_rounds(australia, view, random.Random(checked), 3) == [
                    (cards, cards + tuple(chain.from_iterable(world.places.drafts)))
                    for cards, world in zip(in_hands, worlds, strict=True)]
                checked += 1
            game.apply(decision.seat, agents[decision.seat].decide(view, decision), decision.category)
    assert checked > 50


@pytest.mark.parametrize("name", ["australia", "europe", "usa", "variants/australia-wombat-majority"])
def test_the_search_bot_values_a_finished_round_as_round_values_does(name):
    """round_gains (seat_value for each seat, races shared) equals round_values, the sheet's rules."""
    path = ROOT / "editions" / f"{name}.yaml"
    edition = load_edition(path)
    rng = random.Random(name)
    for pair in paired(path, 4, 10, name):
        deck = rng.sample(range(len(edition.cards)), 4 * edition.hand_size)
        gains = []
        for standing in pair:   # the same cards, each of its own edition
            cards = standing.edition.cards
            drafts = [[cards[i] for i in deck[seat * edition.hand_size:(seat + 1) * edition.hand_size]]
                      for seat in range(4)]
            gains.append(evaluate.round_gains(standing, drafts))
            assert gains[-1] == evaluate.round_values(standing, drafts)
        assert gains[0] == gains[1]


@pytest.mark.parametrize("name", ["europe", "variants/australia-rivalry",
                                  "variants/australia-follow-the-leader"])
def test_the_categories_that_read_the_other_seats_are_generated_exactly(name):
    """seat_value with the generated shared categories equals the reference's, whether the others come as
    one list (the greedy bot) or seat by seat (a round's Others)."""
    path = ROOT / "editions" / f"{name}.yaml"
    edition = load_edition(path)
    rng = random.Random(name)
    compared = 0
    for compiled, reference in paired(path, 4, 10, name):
        assert compiled.shared and reference.shared
        for _ in range(20):
            deck = rng.sample(edition.cards, 4 * edition.hand_size)
            drafts = [deck[i * edition.hand_size:(i + 1) * edition.hand_size] for i in range(4)]
            seat = rng.randrange(4)
            hand = drafts[seat][: rng.randrange(1, edition.hand_size + 1)]
            for seat_by_seat in (False, True):   # the others as one list (the greedy bot), or a round's Others
                values = []
                for standing in (compiled, reference):
                    own = [mine(standing, cards) for cards in drafts]
                    others = round_others(own, seat) if seat_by_seat else mine(standing, deck[len(hand):])
                    values.append(evaluate.seat_value(standing, seat, mine(standing, hand), others))
                    if standing is compiled:
                        assert values[0] == evaluate.hand_values(compiled, seat).one(mine(compiled, hand), others)
                assert values[0] == values[1]
                compared += 1
    assert compared == 400


@pytest.mark.parametrize("name", ["australia", "usa", "europe", "variants/australia-two-decks",
                                  "variants/australia-five-rounds", "variants/australia-rivalry",
                                  "variants/australia-follow-the-leader"])
def test_the_options_of_one_order_are_valued_as_each_hand_alone(name):
    """HandValues.order (the counts and visited cards of what the hands share, worked out once) gives
    each option what HandValues.one gives its hand, and what the reference gives it, the other seats
    holding the rest of what was dealt: an option not among the first cards of the order (head)
    completed by head[:rest], one among them by the rest of head."""
    compared, in_head = options_compared(ROOT / "editions" / f"{name}.yaml")
    assert compared > 300 and in_head > 150   # both ways of completing a hand, many times


def house(tmp_path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {AUSTRALIA}\nid: house\ncategories:\n" + text, encoding="utf-8")
    return path


def for_world(edition, players: int = 1):
    """A seat's generated function of one sampled world (its names tell which forms it holds)."""
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, [str(i) for i in range(players)]))
    return evaluate.hand_values(standing, 0).order([], list(edition.cards[:3]), 2).__code__.co_varnames


def test_categories_that_read_the_hand_and_the_visited_cards_as_lists_are_valued_by_order_too(tmp_path):
    """The generated values of one order put the hand and the visited cards together as lists when
    a category reads them so (not only their counts, their set or their length)."""
    path = house(tmp_path, "  - key: low\n    title: Low\n    score: sum([c.number for c in cards if c.number < 3])\n"
                           "  - key: far\n    title: Far\n    score: len([c for c in visited if c.number > 5])\n")
    assert names.SET["visited"] in for_world(load_edition(path))   # the visited cards as a set, not a mask
    compared, in_head = options_compared(path)
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
    """The tree decides (reads.Uses): the visited cards as a mask where every statement reads them only as a
    mask answers, else as a frozenset, and the hand as a set or the visited cards counted where read so."""
    path = house(tmp_path, f"  - key: visits\n    title: Visits\n    score: '{score}'\n")
    edition = load_edition(path)
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a"]))
    assert masked(edition, standing.own, standing.shared) is as_mask
    assert (names.MASK["visited"] in for_world(edition)) is as_mask
    compared, in_head = options_compared(path)
    assert compared > 300 and in_head > 150


@pytest.mark.parametrize("name", ["australia", "europe", "usa", "variants/australia-two-decks"])
def test_the_shipped_editions_value_the_orders_with_the_visited_cards_as_a_mask(name):
    """Their races and game-end categories read the visited cards only as a bitmask answers (subset,
    intersects, connected, len), so no set is copied for each hand; the values are compared with the
    reference's in the tests above."""
    held = for_world(load_edition(ROOT / "editions" / f"{name}.yaml"), 2)
    assert names.MASK["visited"] in held and names.SET["visited"] not in held


@pytest.mark.parametrize("name, in_one_function", [("europe", True), ("variants/australia-rivalry", True),
                                                   ("variants/australia-follow-the-leader", False),
                                                   ("variants/australia-koala-majority", False)])
def test_shared_categories_join_the_order_function_when_they_read_the_others_by_their_counts(name, in_one_function):
    """Europe's treasures count an icon on the other seats' cards, and rivalry the collections of the
    right neighbour's, who in a sampled world is the pile of every other seat's cards: the order function
    adds them, from the counts of what was dealt less the hand. A category that reads those cards otherwise
    (the first of them, or seat by seat) is added option by option. Both are compared in the test above."""
    edition = load_edition(ROOT / "editions" / f"{name}.yaml")
    standing = evaluate.standing_from_scores(edition, ScoreKeeper(edition, ["a", "b", "c"]))
    assert standing.shared
    held = evaluate.hand_values(standing, 0).order([], list(edition.cards[:3]), 2).__code__.co_varnames
    assert (names.TALLY["others"] in held) is in_one_function


def options_compared(path) -> tuple[int, int]:
    """HandValues.order against HandValues.one and the reference's seat_value on random orders: (options,
    of them in head)."""
    edition = load_edition(path)
    rng = random.Random(edition.id)
    compared = in_head = 0
    for standing, reference in paired(path, 4, 10, edition.id):
        for _ in range(10):
            seat = rng.randrange(4)
            values = evaluate.hand_values(standing, seat)
            deck = rng.sample(standing.edition.cards, len(edition.cards))
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
            slow = [0] * len(options)
            evaluate.hand_values(reference, seat).order(mine(reference, first), mine(reference, options), rest)(
                slow, [mine(reference, head)], mine(reference, dealt))
            assert sums == slow
            for card, value in zip(options, sums, strict=True):
                last = [c for c in head if c is not card][:rest] if card in head else head[:rest]
                hand = first + [card] + last
                others = [c for c in dealt if c not in hand]
                assert value == values.one(hand, others) == \
                    evaluate.seat_value(reference, seat, mine(reference, hand), mine(reference, others))
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


def test_a_sum_over_the_icons_of_the_cards_is_worked_out_from_their_counts(tmp_path):
    """sum([f(i) for i in icons(cards, family) if c(i)]) generated from the tally (Generator.sum_by_counts)
    gives what the list gives, and fails only where the list fails: on an icon the hand shows."""
    from rulesengine.dsl.program.writer import Writer
    from rulesengine.game import scoring

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
    compiled, reference = (load_edition(path, runner=runner) for runner in RUNNERS)
    writer = Writer(compiled, frozenset({"cards"}), tallies={"cards": names.TALLY["cards"]}, caught=True)
    for category in compiled.categories[-3:]:
        writer.value("p", category.score, 2, "0")
    assert " for " not in "\n".join(writer.lines)
    standings = [evaluate.standing_from_scores(e, ScoreKeeper(e, ["a", "b"])) for e in (compiled, reference)]
    rng = random.Random(3)
    failed = 0
    for _ in range(400):
        hand = rng.sample(compiled.cards, rng.randrange(1, 8))
        assert evaluate.own_value(standings[0], 0, hand) == \
            evaluate.own_value(standings[1], 0, mine(standings[1], hand))
        drafts = [hand, [c for c in compiled.cards if c not in hand][:7]]
        sheets = []
        for edition, standing in zip((compiled, reference), standings, strict=True):
            keeper = ScoreKeeper(edition, ["a", "b"])
            try:
                sheets.append(keeper.score_round([mine(standing, cards) for cards in drafts], [{}, {}]))
            except scoring.ScoringError as error:
                sheets.append(error.diagnostics[0].message)
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
    held = evaluate.hand_values(standing, 0).order([], list(edition.cards[:3]), 2).__code__.co_varnames
    assert names.TALLY["others"] in held   # the shared category in the order function, from the pile's counts
    compared, in_head = options_compared(path)
    assert compared > 300 and in_head > 150
