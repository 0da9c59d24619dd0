"""The search bot's generated rollout pick (dsl/program/pick.py, SeatValue.pick) against the bots' own parts: the
pick rollout.greedy_pick makes and the value evaluate.seat_value gives the hand (the other seats' cards counted
from their packed tally where a category reads them), for random hands, cards taken and other seats' cards at
real standings of every shipped edition and variant that has it."""

from __future__ import annotations

import random

import pytest
from shipped import shipped_that_load

from rulesengine import Game, load_edition
from rulesengine.bots.evaluate import own_value, seat_value, standing_from_view
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.bots.rollout import RoundPlay, greedy_pick
from rulesengine.dsl.program import every_icon
from rulesengine.dsl.program.counted import icon_bytes
from rulesengine.dsl.program.helpers import packed_icons, site_bits
from rulesengine.game.blocks import round_plan
from rulesengine.game.round_facts import others as round_others

PATHS = shipped_that_load()


def standings(edition, players: int, seed: int) -> list:
    """The standing at the first decision of each round of a game of greedy bots (earlier rounds scored, races
    won, choices used)."""
    game = Game(edition, [f"P{seat}" for seat in range(players)], seed, events=False)
    agents = [make_bot("greedy", edition, agent_seed(seed, seat)) for seat in range(players)]
    found, rounds = [], set()
    while not game.over:
        for decision in game.pending():
            view = game.view(decision.seat, lazy=True)
            if game.round not in rounds and "history" in view and "hand" in view:
                rounds.add(game.round)
                found.append((game.round, standing_from_view(edition, view)))
            game.apply(decision.seat, agents[decision.seat].decide(view, decision), decision.category)
    return found


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_the_generated_pick_is_greedy_picks_card_and_seat_values_worth(path):
    edition = load_edition(path)
    if round_plan(edition).index.get("pick_and_pass") is None:
        pytest.skip("no drafting round")
    players = min(4, edition.players_max)
    ints = packed_icons(every_icon(edition), edition.cards)[1]
    bits = site_bits(edition.cards)
    rng = random.Random(5)
    checked = 0
    for round_index, standing in standings(edition, players, 2):
        for seat in range(players):
            made = standing.values[seat].pick
            if made is None:   # not generated: other seats' cards read seat by seat, steps charged, visited listed...
                assert standing.values[seat].charges or edition.id not in ("australia", "europe", "usa")
                continue
            pick = made()
            for _ in range(40):
                cards = rng.sample(edition.cards, min(len(edition.cards), 2 + rng.randrange(10)))
                hand, taken = cards[:1 + rng.randrange(len(cards) - 1)], cards[len(cards) // 2 + 1:]
                hand = [card for card in hand if card not in taken] or cards[:1]
                first, last = (taken[:-1], taken[-1:]) if len(taken) >= 2 else (taken, [])
                rest = [card for card in edition.cards if card not in cards]
                drafts = [list(taken) if s == seat else rng.sample(rest, rng.randrange(4)) for s in range(players)]
                hands = [list(hand) if s == seat else [] for s in range(players)]
                play = RoundPlay(edition, round_index, hands, drafts)
                others = sum(ints[card] for s in range(players) if s != seat for card in drafts[s])
                table = round_others(drafts, seat)
                known: dict = {}
                top, worth = pick(hand, first, last, known, others)
                assert top is greedy_pick(standing, play, seat, None, 0)
                expected = seat_value(standing, seat, first + [top] + last, table)
                assert worth == expected and type(worth) is type(expected)
                if standing.shared:   # the own part remembered, the other seats' cards counted afresh
                    assert pick.own_known
                    assert known == {card: own_value(standing, seat, first + [card] + last) for card in hand}
                    assert pick(hand, first, last, known, others + 1) == pick(hand, first, last, {}, others + 1)
                else:
                    assert not pick.own_known
                    assert known == {card: seat_value(standing, seat, first + [card] + last, table) for card in hand}
                assert pick(hand[::-1], first, last, known, others) == pick(hand[::-1], first, last, {}, others)
                x, sites = sum(ints[card] for card in taken), 0   # pick.at: first + last's int and mask kept
                for card in taken:
                    sites |= bits[card]
                assert pick.at(hand, first, last, {}, others, x, sites) == (top, worth)
                if len(hand) == 1:   # (a hand of one card: its own bit in the mask or not)
                    assert pick.at(hand, first, last, {}, others, x, sites | bits[hand[0]]) == (top, worth)
                checked += 1
    if edition.id in ("australia", "europe", "usa"):
        assert checked >= 40 * players * 4   # every seat, every round: generated


def test_categories_that_read_only_counts_are_remembered_by_them_across_decisions():
    """counted.py: Australia's collections, animals and activities (a choice) read of the hand only icon counts and
    are remembered by them for the seat's standing; throw_catch reads the Throw and the Catch and is not. A second
    decision of the same standing reads the memo the first filled, and still gets seat_value's worth."""
    edition = load_edition("editions/australia.yaml")
    rng = random.Random(11)
    for _round, standing in standings(edition, 4, 3)[:2]:
        made = standing.values[1].pick
        pick = made()
        remembered = sorted(name for name in pick.at.__code__.co_freevars if name.startswith("Q_memo"))
        assert remembered == ["Q_memo0", "Q_memo1", "Q_memo2"]
        memos = {name: cell.cell_contents for name, cell in zip(pick.at.__code__.co_freevars, pick.at.__closure__,
                                                                 strict=True) if name.startswith("Q_memo")}
        valued = 0
        for decision in range(2):
            if decision:
                pick = made()   # a new decision's memo of races; the counts' memos are the seat's
                assert all(memos.values())
            for _ in range(60):
                cards = rng.sample(edition.cards, 2 + rng.randrange(8))
                hand, taken = cards[:1 + rng.randrange(len(cards) - 1)], cards[len(cards) // 2 + 1:]
                hand = [card for card in hand if card not in taken] or cards[:1]
                first, last = (taken[:-1], taken[-1:]) if len(taken) >= 2 else (taken, [])
                top, worth = pick(hand, first, last, {}, 0)
                valued += len(hand)
                assert worth == seat_value(standing, 1, first + [top] + last, ())
                assert worth == max(seat_value(standing, 1, first + [card] + last, ()) for card in hand)
        assert max(len(memo) for memo in memos.values()) < valued / 2   # far fewer counts than hands valued


def test_a_category_that_counts_the_other_seats_cards_is_remembered_by_both_counts():
    """counted.py: Europe's National Treasures reads of the other seats' cards only the count of the chosen
    treasure, and of the hand only whether it shows it: it is remembered by those bytes of the hand's packed tally
    and of the others' (Q_memo2, beside cuisine's and transport's). pick.others is the mask of the others' bytes the
    pick reads, the treasures the seat may still choose: handed the others masked to it, a pick takes the same card,
    worth what seat_value gives the hand with every other seat's card."""
    edition = load_edition("editions/europe.yaml")
    index, ints = packed_icons(every_icon(edition), edition.cards)
    rng = random.Random(13)
    valued = 0
    for _round, standing in standings(edition, 4, 3)[:2]:
        for seat in range(4):
            pick = standing.values[seat].pick()
            remembered = sorted(name for name in pick.at.__code__.co_freevars if name.startswith("Q_memo"))
            assert remembered == ["Q_memo0", "Q_memo1", "Q_memo2"]
            assert pick.others == icon_bytes(standing.seats[seat].choosable["treasures"], index) != 0
            for _ in range(30):
                cards = rng.sample(edition.cards, 2 + rng.randrange(8))
                hand, taken = cards[:1 + rng.randrange(len(cards) - 1)], cards[len(cards) // 2 + 1:]
                hand = [card for card in hand if card not in taken] or cards[:1]
                first, last = (taken[:-1], taken[-1:]) if len(taken) >= 2 else (taken, [])
                rest = [card for card in edition.cards if card not in cards]
                drafts = [list(taken) if s == seat else rng.sample(rest, rng.randrange(5)) for s in range(4)]
                others = sum(ints[card] for s in range(4) if s != seat for card in drafts[s])
                top, worth = pick(hand, first, last, {}, others & pick.others)
                assert (top, worth) == pick(hand, first, last, {}, others)
                assert worth == seat_value(standing, seat, first + [top] + last, round_others(drafts, seat))
                valued += len(hand)
            memo = next(cell.cell_contents for name, cell in zip(pick.at.__code__.co_freevars, pick.at.__closure__,
                                                                  strict=True) if name == "Q_memo2")
            assert memo and len(memo) < valued
