"""One hand-written game: the deal and the draft, written out once for the three editions.

The published rules of all three editions: hands of 7, pass left (the Catch too), cards left
undealt with fewer than 4 players dealt first next round (one at a time around the table), 4 rounds,
random seats. Its draws are the engine's, written out by hand: the deal is `random.Random(seed)`'s
shuffle (getrandbits and its rejection, place by place), and each seat's decision is the random
bot's splitmix64 of its seed and the decision (bots/seeding.py), so a seed plays the engine's game
(tests/test_bench_baseline.py checks the totals seed by seed). Each edition's module scores a whole
round in one call (`score_round`), which also makes the seats' round-end choices; nothing in the
loop calls a Python function, makes a string or runs a generator.
"""

from __future__ import annotations

import random as _random

from .deck import GOLDEN, HAND_SIZE, MIX_1, MIX_2, ROUNDS, M, Sheet

THROW, DRAFT, CHOICE = 1, 2, 3            # the kinds of decision, as the random bot's seed mixes them in
MIXED_ZERO = 0xE220A8397B1DCDAF           # splitmix64 of 0: a seed's high 64 bits, mixed (0 for seeds below 2**64)
BITS = tuple((i + 1).bit_length() for i in range(64))   # the bits random.Random draws for a place below i + 1


def play(edition, players: int, seed: int):
    """Play the engine's game of this seed (>= 0) with random seats: (the totals, and per round the drafts and the
    choices' kinds)."""
    getrandbits = _random.Random(seed).getrandbits
    keys = []
    for seat in range(players):                          # each random seat's key (bots/seeding.py's seed_key
        x = ((seed * 1_000_003 + seat * 7_919 + 1) & M ^ MIXED_ZERO) + GOLDEN & M    # of agent_seed)
        x = (x ^ x >> 30) * MIX_1 & M
        x = (x ^ x >> 27) * MIX_2 & M
        keys.append(x ^ x >> 31)
    sheet = Sheet(players, edition.REGIONS)
    score_round = edition.score_round
    everything = list(range(edition.CARDS))
    seats = range(players)
    dealt = players * HAND_SIZE
    leftover: list[int] = []
    rounds = []
    for number in range(1, ROUNDS + 1):
        if leftover:                                     # last round's undealt cards, shuffled, are dealt first
            taken = 0
            for card in leftover:
                taken |= 1 << card
            rest = []
            for card in everything:
                if not taken >> card & 1:
                    rest.append(card)
            decks = (leftover, rest)
        else:
            rest = everything[:]
            decks = (rest,)
        for deck in decks:                               # random.Random.shuffle: each place from the last
            for i in range(len(deck) - 1, 0, -1):        # swapped with one below it, drawn by rejection
                bits = BITS[i]
                j = getrandbits(bits)
                while j > i:
                    j = getrandbits(bits)
                deck[i], deck[j] = deck[j], deck[i]
        hands = []
        if leftover:
            rest = leftover[dealt:] + rest
            at = 0
            for seat in seats:
                hand = leftover[seat:dealt:players]      # one at a time around the table
                need = HAND_SIZE - len(hand)
                hand += rest[at:at + need]
                at += need
                hands.append(hand)
            leftover = rest[at:]
        else:
            for seat in seats:
                hands.append(rest[seat * HAND_SIZE:(seat + 1) * HAND_SIZE])
            leftover = rest[dealt:]
        drafts = []
        for _ in seats:
            drafts.append([])
        kind = THROW
        for count in range(HAND_SIZE, 1, -1):            # the Throw, then the picks: a card of the hand each
            asked = kind | number << 2 | count << 12
            for seat in seats:
                x = (keys[seat] ^ asked) + GOLDEN & M
                x = (x ^ x >> 30) * MIX_1 & M
                x = (x ^ x >> 27) * MIX_2 & M
                drafts[seat].append(hands[seat].pop((x ^ x >> 31) % count))
            hands.insert(0, hands.pop())                 # each hand goes to the next seat
            kind = DRAFT
        for seat in seats:
            drafts[seat].append(hands[seat][0])          # the Catch
        chosen = [-1] * players
        score_round(sheet, drafts, keys, CHOICE | number << 2 | edition.CHOICE_CODE << 24, chosen)
        rounds.append((drafts, chosen))
    edition.finish(sheet)
    return sheet.totals, rounds


def record(edition, players: list[str], rounds) -> dict:
    """A played game as the record `boom score` reads (letters, choices by category)."""
    letters, names = edition.LETTERS, edition.CHOICES
    return {"players": list(players), "rounds": [
        {"drafts": {name: [letters[c] for c in drafts[seat]] for seat, name in enumerate(players)},
         "choices": {name: {edition.CHOICE: names[chosen[seat]]} for seat, name in enumerate(players)
                     if chosen[seat] >= 0}}
        for drafts, chosen in rounds]}


def score_record(edition, record: dict) -> list[int]:
    """Each seat's total for a record (letters), scored by the hand-written rules."""
    names = record["players"]
    number = {letter: card for card, letter in enumerate(edition.LETTERS)}
    sheet = Sheet(len(names), edition.REGIONS)
    for round_data in record["rounds"]:
        drafts = [[number[x] for x in round_data["drafts"][name]] for name in names]
        picked = round_data.get("choices") or {}
        chosen = [(picked.get(name) or {}).get(edition.CHOICE) for name in names]
        edition.score_round(sheet, drafts, None, 0, [-1 if c is None else edition.CHOICES.index(c) for c in chosen])
    edition.finish(sheet)
    return sheet.totals
