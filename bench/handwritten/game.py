"""One hand-written game: the deal, the draft and the scoring calls, shared by the three editions.

The published rules of all three editions: hands of 7, pass left (the Catch too), cards left
undealt with fewer than 4 players dealt first next round (one at a time around the table), 4 rounds;
every decision at random.
"""

from __future__ import annotations

import random

from .deck import HAND_SIZE, ROUNDS


def play(rules_class, players: int, rng: random.Random):
    """Play one game with random decisions: (the Rules with its totals, drafts and choices per round)."""
    rules = rules_class(players)
    size = rules.CARDS
    leftover: list[int] = []
    rounds = []
    for _ in range(ROUNDS):
        rng.shuffle(leftover)
        undealt = set(leftover)
        rest = [card for card in range(size) if card not in undealt]
        rng.shuffle(rest)
        hands = [[] for _ in range(players)]
        for index, card in enumerate(leftover):                          # last round's undealt cards first,
            hands[index % players].append(card)                          # one at a time around the table
        for hand in hands:
            need = HAND_SIZE - len(hand)
            hand.extend(rest[:need])
            rest = rest[need:]
        leftover = rest
        drafts = [[] for _ in range(players)]
        while len(hands[0]) > 1:
            for seat in range(players):
                hand = hands[seat]
                drafts[seat].append(hand.pop(rng.randrange(len(hand))))
            hands = [hands[seat - 1] for seat in range(players)]       # each hand goes to the next seat
        for seat in range(players):
            drafts[seat].append(hands[seat][0])                          # the Catch
        choices = [None] * players
        if rules.CHOICE is not None:
            for seat in range(players):
                options = rules.choice_options(seat, drafts[seat])
                pick = rng.randrange(len(options) + 1)                   # the last one: no choice
                choices[seat] = options[pick] if pick < len(options) else None
        rules.score_round(drafts, choices)
        rounds.append((drafts, choices))
    rules.finish()
    return rules, rounds


def record(rules_class, players: list[str], rounds) -> dict:
    """A played game as the record `boom score` reads (letters, choices by category)."""
    letters = rules_class.LETTERS
    return {"players": list(players), "rounds": [
        {"drafts": {name: [letters[c] for c in drafts[seat]] for seat, name in enumerate(players)},
         "choices": {name: {rules_class.CHOICE: choices[seat]} for seat, name in enumerate(players) if choices[seat]}}
        for drafts, choices in rounds]}


def score_record(rules_class, record: dict) -> list[int]:
    """Each seat's total for a record (letters), scored by the hand-written rules."""
    names = record["players"]
    number = {letter: card for card, letter in enumerate(rules_class.LETTERS)}
    rules = rules_class(len(names))
    for round_data in record["rounds"]:
        drafts = [[number[x] for x in round_data["drafts"][name]] for name in names]
        picked = round_data.get("choices") or {}
        choices = [(picked.get(name) or {}).get(rules_class.CHOICE) for name in names]
        rules.score_round(drafts, choices)
    rules.finish()
    return rules.totals
