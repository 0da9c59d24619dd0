"""A full game state sampled from one seat's view: what search bots play out, never the real game.

Everything the seat knows is kept exactly: its hand and Throw, every face-up card, the earlier
rounds, and the hands it passed on this round (their content now is known: the cards it passed,
less the face-up picks made from them since). Only what the seat cannot know is drawn at random:
the other seats' Throws, the hands that have not passed through it, and the undealt cards, with the
cards undealt last round always among this round's dealt cards.
"""

from __future__ import annotations

import random

from ..edition.model import Edition
from ..game.state import CHOICE, DRAFT, THROW, Decision, Game


def from_view(edition: Edition, view: dict, rng: random.Random) -> Game:
    n = len(view["players"])
    game = Game(edition, view["players"], rng.randrange(2**31), deal=False)
    card = edition.card
    for round_data in view["history"]:
        drafts = [[card(x) for x in round_data["drafts"][name]] for name in view["players"]]
        choices = [dict(round_data["choices"].get(name, {})) for name in view["players"]]
        game.scores.score_round(drafts, choices)
        game.history.append(round_data)
    game.round = len(view["history"])
    phase = view["phase"]
    if phase == "over" or game.round >= edition.rounds:
        game.scores.finish()
        game.over = True
        return game
    me = view["seat"]
    face_up = [[card(x) for x in seat_view["face_up"]] for seat_view in view["table"]]
    if phase == CHOICE:
        game.drafts = face_up
        game.phase = CHOICE
        game._choice_decisions = [
            Decision(seat, CHOICE, game.round + 1, tuple(game.scores.choice_options(seat, category, game.drafts)) + (None,), category.key)
            for seat in range(n) for category in edition.choice_categories]
        game.choices = [{} for _ in range(n)]
        game.seen_hands[me] = [[card(x) for x in hand] for hand in view["seen_hands"]]
        return game

    direction = view["direction"]
    seen = [[card(x) for x in hand] for hand in view["seen_hands"]]
    my_hand = [card(x) for x in view["hand"]]
    my_drafts = ([card(view["throw"])] if view["throw"] else []) + face_up[me]
    step = len(my_drafts)
    drafts = [list(my_drafts) if seat == me else ([None] + face_up[seat] if step else []) for seat in range(n)]

    hands: list = [None] * n
    hands[me] = my_hand
    for j in range(1, min(step, n - 1) + 1):
        passed = [c for c in seen[step - j] if c is not my_drafts[step - j]]
        for i in range(1, j):
            picker = (me + direction * i) % n
            passed = [c for c in passed if c is not drafts[picker][step - j + i]]
        hands[(me + direction * j) % n] = passed

    known = set(my_hand) | {c for hand in hands if hand for c in hand} | {c for d in drafts for c in d if c is not None}
    unknown = [c for c in edition.cards if c not in known]
    must_deal = set()
    if view["history"] and n * edition.hand_size < len(edition.cards):
        last = {x for letters in view["history"][-1]["drafts"].values() for x in letters}
        must_deal = {c for c in unknown if c.letter not in last}
    slots = sum(1 for d in drafts if d and d[0] is None) + sum(len(my_hand) for hand in hands if hand is None)
    first = [c for c in unknown if c in must_deal]
    rest = [c for c in unknown if c not in must_deal]
    rng.shuffle(first)
    rng.shuffle(rest)
    dealt_pool = first + rest[: max(0, slots - len(first))]
    rng.shuffle(dealt_pool)
    leftover = rest[max(0, slots - len(first)):]
    for seat in range(n):
        if drafts[seat] and drafts[seat][0] is None:
            drafts[seat][0] = dealt_pool.pop()
        if hands[seat] is None:
            hands[seat] = [dealt_pool.pop() for _ in range(len(my_hand))]
    game.hands = hands
    game.drafts = drafts
    game.leftover = leftover
    game.seen_hands = [[list(h)] for h in hands]
    game.seen_hands[me] = [list(h) for h in seen]
    game.phase = THROW if step == 0 else DRAFT
    return game
