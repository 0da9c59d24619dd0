"""A full game state sampled from one seat's view: what search bots play out, never the real game.

Everything the seat knows is kept exactly: its hand and Throw, every face-up card, the earlier
rounds, and the hands it passed on this round (their content now is known: the cards it passed,
less the face-up picks and the discards made from them since, however many cards each pass takes: the
edition's picks and discards per pass), every hand with open hands, the cards discarded (face up), and
the cards it has chosen so far on a pass of several (view["picked"]). Only
what the seat cannot know is drawn at random: the other seats' Throws, the hands that have not
passed through it, the undealt cards, the other seats' choices declared in secret (among the icons
each may still declare), with the cards undealt last round always among this
round's dealt cards. The game itself is built by
Game.at_position: this module decides what the position is, never how a Game holds it.
"""

from __future__ import annotations

import random

from ..edition.model import Edition
from ..edition.steps import Deal, PickAndPass, SecretChoice, Throw
from ..game.shuffling import shuffler
from ..game.state import CHOICE, DRAFT, THROW, Game
from .evaluate import standing_from_view


def from_view(edition: Edition, view: dict, rng: random.Random, *, scored: bool = True) -> Game:
    """A game consistent with the view. scored=False: the finished rounds are not scored again (its sheet
    starts at this round), for the bots, which read only the sampled hands and cards taken of a world."""
    n = len(view["players"])
    seed = rng.randrange(2**31)
    card = edition.card
    history = view["history"]
    phase = view["phase"]
    table = {"seat_options": view.get("seat_options"),   # as the table set them (public)
             "goals": [goal["id"] for goal in view["goals"]] if "goals" in view else None}   # public goals drawn
    if phase == "over" or len(history) >= edition.rounds:
        return Game.at_position(edition, view["players"], seed, history, **table)
    me = view["seat"]
    face_up = [[card(x) for x in seat_view["face_up"]] for seat_view in view["table"]]
    if phase == CHOICE:
        seen_hands = [[] for _ in range(n)]
        seen_hands[me] = [[card(x) for x in hand] for hand in view["seen_hands"]]
        return Game.at_position(edition, view["players"], seed, history, at="choices", phase=CHOICE, drafts=face_up,
                                seen_hands=seen_hands, **table, **_secrets(edition, view, rng))
    position = _Known(edition, view).position(rng)
    return Game.at_position(edition, view["players"], seed, history, at="pick_and_pass", scored=scored,
                            **table, **position, **_secrets(edition, view, rng))


def _secrets(edition: Edition, view: dict, rng: random.Random) -> dict:
    """The secret choices of a round that declares one (a `secret_choice` before its choices): this seat's
    own, and for each other seat an icon drawn at random among those it may still declare (none when it
    may declare none); no keyword in a round without one (and no draw)."""
    secret = edition.round.step(SecretChoice)
    if secret is None or not secret.declares:
        return {}
    choosable = [past.choosable[secret.key] for past in standing_from_view(edition, view).seats]
    me = view["seat"]
    return {"secrets": {seat: view["secret"] if seat == me else rng.choice(icons) if icons else None
                        for seat, icons in enumerate(choosable)}}


def sampled_rounds(edition: Edition, view: dict, rng: random.Random, count: int) -> list[tuple[tuple, tuple]]:
    """The cards of `count` worlds from_view would sample one after the other in the Throw or the draft,
    drawing the same numbers from rng, without building their games (the greedy bot reads only these):
    for each, the cards in hands (seat by seat) and those followed by the cards taken (seat by seat);
    what the view fixes is worked out once for all of them."""
    known = _Known(edition, view)
    worlds = []
    draw = rng.getrandbits if type(rng) is random.Random else None
    for _ in range(count):
        if draw is None:
            rng.randrange(2**31)  # the world's seed, drawn as from_view draws it
        else:   # the same draws, as random.Random.randrange(2**31) makes them, without its two Python calls
            while draw(32) >> 31:
                pass
        worlds.append(known.in_play(rng))
    return worlds


def round_sampler(edition: Edition, view: dict):
    """For a view in the Throw or the draft: rng -> (hands, cards taken), seat by seat, of a world consistent
    with it, the cards drawn as from_view draws them, without building a game (what the view fixes is
    worked out once, here). A view with cards picked on a pass of several has none (None): from_view then."""
    if view["phase"] not in (THROW, DRAFT) or view.get("picked"):
        return None
    known = _Known(edition, view)
    return lambda rng: known.deal(rng)[:2]


def world_sampler(edition: Edition, view: dict):
    """round_sampler's worlds, drawing every number from_view draws for its game: the game's seed before the
    deal, the other seats' secret choices after it (unread by a rollout), so that what the caller draws next
    is what it draws after from_view. None where round_sampler has none."""
    if view["phase"] not in (THROW, DRAFT) or view.get("picked"):
        return None
    known = _Known(edition, view)

    def sample(rng: random.Random) -> tuple[list, list]:
        rng.randrange(2**31)   # the world's game seed
        hands, drafts, _ = known.deal(rng)
        _secrets(edition, view, rng)
        return hands, drafts
    return sample


class _Known:
    """What a view in the Throw or the draft fixes of every world sampled from it."""

    def __init__(self, edition: Edition, view: dict):
        n = len(view["players"])
        card = edition.by_letter.get  # edition.card, without a Python call a letter
        history = view["history"]
        me = view["seat"]
        face_up = [list(map(card, seat_view["face_up"])) for seat_view in view["table"]]
        turns = edition.passing.turns(len(history), len(view["seen_hands"]))
        seen = [list(map(card, hand)) for hand in view["seen_hands"]]
        picked = list(map(card, view.get("picked", ())))  # chosen on this pass of several, still in the hand
        my_hand = list(map(card, view["hand"])) + picked
        throw = view.get("throw")
        my_drafts = ([card(throw)] if throw else []) + face_up[me]
        step = len(seen) - 1  # passes made this round
        down = [seat_view["throw_down"] for seat_view in view["table"]]  # a Throw face down: its card unknown
        drafts = [list(my_drafts) if seat == me else ([None] if down[seat] else []) + face_up[seat]
                  for seat in range(n)]
        taken, thrown, throws = edition.kept(("passes seen", step), _passes_seen, edition, step)
        discarded = [list(map(card, seat_view.get("discarded", ()))) for seat_view in view["table"]]

        hands: list = [None] * n
        hands[me] = my_hand
        for j in range(1, step + 1):  # the hand this seat passed j passes ago, followed pass by pass
            if None not in hands:   # every hand known
                break
            if hands[(me + sum(turns[step - j:step])) % n] is not None:
                continue   # (a hand that came back, or went round, is known from its latest pass)
            gone = taken(my_drafts, step - j) + thrown(discarded[me], step - j)
            passed = [c for c in seen[step - j] if c not in gone]   # cards are told apart by identity
            at = (me + turns[step - j]) % n
            for i in range(1, j):
                gone = taken(drafts[at], step - j + i) + thrown(discarded[at], step - j + i)
                passed = [c for c in passed if c not in gone]
                at = (at + turns[step - j + i]) % n
            hands[at] = passed
        if "hand" in view["table"][me]:  # open hands: every hand is on the table
            hands = [my_hand if seat == me else list(map(card, seat_view["hand"]))
                     for seat, seat_view in enumerate(view["table"])]

        known = set(my_hand) | {c for hand in hands if hand for c in hand}
        known |= {c for d in drafts for c in d if c is not None} | {c for d in discarded for c in d}
        unknown = [c for c in edition.cards if c not in known]
        must_deal = set()
        if history and n * edition.round.step(Deal).cards_in(len(history) - 1) < len(edition.cards):
            last = {x for letters in history[-1]["drafts"].values() for x in letters}
            must_deal = {c for c in unknown if c.letter not in last}
        slots = sum(1 for d in drafts if d and d[0] is None) + sum(len(my_hand) for hand in hands if hand is None)
        self.first = [c for c in unknown if c in must_deal]
        self.rest = [c for c in unknown if c not in must_deal]
        self.take = max(0, slots - len(self.first))   # how many of the rest are dealt
        self.me, self.step, self.seen, self.picked, self.size = me, step, seen, picked, len(my_hand)
        self.throws = throws
        self.hands, self.drafts, self.discarded = hands, drafts, discarded
        self.shufflers: tuple = (None,)   # (the generator, then deal's three shuffles with it)
        # for in_play, seat by seat: whether its Throw is unknown, its other cards taken, its hand if known
        self.plan = [(bool(d) and d[0] is None, d[1:] if d and d[0] is None else d, hand)
                     for d, hand in zip(drafts, hands, strict=True)]

    def _pool(self, rng: random.Random) -> tuple[list, list]:
        """The unknown cards to deal, in the order they are dealt from the end, and the others shuffled, of
        which rest[self.take:] are left undealt: the draws of three shuffles, as random.shuffle makes them."""
        if self.shufflers[0] is not rng:   # the same lengths in every world of a view: looked up once
            pool = len(self.first) + min(len(self.rest), self.take)
            self.shufflers = (rng, shuffler(rng, len(self.first)), shuffler(rng, len(self.rest)), shuffler(rng, pool))
        _, shuffle_first, shuffle_rest, shuffle_pool = self.shufflers
        rest = list(self.rest)
        if self.first:
            first = list(self.first)
            shuffle_first(first)
            shuffle_rest(rest)
            pool = first + rest[: self.take]
        else:   # an empty list draws nothing; all the rest dealt (every card is, with four players), no copy
            shuffle_rest(rest)
            pool = rest[: self.take] if self.take < len(rest) else rest
        shuffle_pool(pool)
        return pool, rest

    def deal(self, rng: random.Random) -> tuple[list, list, list]:
        """One world's hands, cards taken and undealt cards: the unknown cards dealt at random."""
        dealt_pool, rest = self._pool(rng)
        leftover = rest[self.take:]
        hands = [None if hand is None else list(hand) for hand in self.hands]
        drafts = [list(d) for d in self.drafts]
        for seat in range(len(drafts)):
            if drafts[seat] and drafts[seat][0] is None:
                drafts[seat][0] = dealt_pool.pop()
            if hands[seat] is None:
                hands[seat] = [dealt_pool.pop() for _ in range(self.size)]
        return hands, drafts, leftover

    def in_play(self, rng: random.Random) -> tuple[tuple, tuple]:
        """deal(rng)'s hands one after the other, and those followed by its cards taken one seat after the
        other, without a list for each seat: the same cards drawn the same way."""
        order = self._pool(rng)[0]
        order.reverse()   # deal pops the pool: its last card first
        at, size = 0, self.size
        hands: list = []
        taken: list = []
        for unknown_throw, face_up, hand in self.plan:
            if unknown_throw:
                taken.append(order[at])
                at += 1
            taken += face_up
            if hand is None:
                hands += order[at:at + size]
                at += size
            else:
                hands += hand
        in_hands = tuple(hands)
        return in_hands, in_hands + tuple(taken)

    def position(self, rng: random.Random) -> dict:
        """Game.at_position's keywords for one world consistent with the view."""
        hands, drafts, leftover = self.deal(rng)
        seen_hands = [[list(h)] for h in hands]
        seen_hands[self.me] = [list(h) for h in self.seen]
        partial = {self.me: list(self.picked)} if self.picked else None
        return {"phase": THROW if self.step == 0 and self.throws else DRAFT, "hands": hands, "drafts": drafts,
                "leftover": leftover,
                "seen_hands": seen_hands, "partial": partial, "discarded": [list(d) for d in self.discarded]}


def _passes_seen(edition: Edition, passes: int) -> tuple:
    """What a view `passes` passes into a round reads of the edition's round, made once per edition and pass
    (Edition.kept: every decision asks): the cards taken and discarded on each pass, and whether the round
    has a Throw (a round may leave it out: its first pick a draft)."""
    return (_taken_by_pass(edition, passes), _discarded_by_pass(edition, passes),
            edition.round.step(Throw) is not None)


def _taken_by_pass(edition: Edition, passes: int):
    """(cards a seat took this round, pass) -> the cards it took on that pass, by the edition's picks per pass."""
    block = edition.round.step(PickAndPass)
    picks = block.picks if block is not None else ()
    if not picks:
        return lambda cards, at: cards[at : at + 1]
    starts = [0]
    for at in range(passes + 1):
        starts.append(starts[-1] + (picks[at] if at < len(picks) else 1))
    return lambda cards, at: cards[starts[at] : starts[at + 1]]


def _discarded_by_pass(edition: Edition, passes: int):
    """(cards a seat discarded this round, pass) -> those it discarded on that pass, by the edition's discards."""
    block = edition.round.step(PickAndPass)
    if block is None or not block.discards:
        return lambda cards, at: []
    starts = [0]
    for at in range(passes + 1):
        starts.append(starts[-1] + block.discards_on(at))
    return lambda cards, at: cards[starts[at] : starts[at + 1]]
