"""The rest of one round played out fast, in a sampled world, by bots that see that world.

The search bot tries each of its options in many sampled worlds; a full Game per trial would spend
its time on views, events and score sheets nobody reads. A RoundPlay holds only hands and drafts
and passes them with the game's own rule (game.state.play_picks), less the cards each seat discards
on a pass in a round that discards (`pick_and_pass: {discards: ...}`); at the end every seat
picks its best choice icons and the round is valued by evaluate.round_values.
It only ever sees a world sampled by determinize.from_view, never the real game.
"""

from __future__ import annotations

import random

from ..edition.model import Edition
from ..edition.steps import PickAndPass
from ..game.round_facts import others
from ..game.state import play_picks
from .allowance import Allowance
from .evaluate import Standing, round_gains, seat_value


class RoundPlay:
    """Hands and drafts of every seat, from some point of a round to its end."""

    __slots__ = ("edition", "round_index", "hands", "drafts", "dealt", "picking")

    def __init__(self, edition: Edition, round_index: int, hands: list, drafts: list):
        self.edition = edition
        self.round_index = round_index
        self.hands = [list(h) for h in hands]
        self.drafts = [list(d) for d in drafts]
        self.dealt = [c for h in hands for c in h] + [c for d in drafts for c in d]
        picking = edition.round.step(PickAndPass)
        self.picking = picking if picking is not None and any(picking.discards) else None  # a round that discards

    @classmethod
    def from_game(cls, game) -> RoundPlay:
        return cls(game.edition, game.round, game.places.hands, game.places.drafts)

    def copy(self) -> RoundPlay:
        twin = RoundPlay.__new__(RoundPlay)
        twin.edition, twin.round_index, twin.dealt = self.edition, self.round_index, self.dealt
        twin.picking = self.picking
        twin.hands = [list(h) for h in self.hands]
        twin.drafts = [list(d) for d in self.drafts]
        return twin

    @property
    def over(self) -> bool:
        return not self.hands[0]

    def step(self, picks: list) -> None:
        """Every seat takes its pick; in a round that discards, each then discards this pass's cards from its
        hand (its last ones: a sampled hand's order is random, so as a card drawn at random, without a draw);
        hands pass on; the last card of each hand is caught."""
        at = len(self.drafts[0])  # the pass (one card a pass here)
        if self.picking is not None:
            thrown = self.picking.discards_on(at)
            if thrown:
                for seat, hand in enumerate(self.hands):
                    left = [c for c in hand if c is not picks[seat]]
                    for card in left[len(left) - min(thrown, len(left) - 1):]:
                        hand.remove(card)
        self.hands = play_picks(self.edition.passing, self.round_index, self.hands, self.drafts, picks, pass_index=at)


def greedy_pick(standing: Standing, play: RoundPlay, seat: int, rng: random.Random, completions: int) -> object:
    """The card of this seat's hand that most raises its round gain, over `completions` random endings;
    with 0 (the default, and the better model of a greedy rival: measured), judged on the cards taken
    so far plus that card, which is cheap and the same in every rollout that reaches this hand."""
    hand = play.hands[seat]
    if len(hand) == 1:
        return hand[0]
    drafts = play.drafts[seat]
    orders = []
    if completions:   # (the cards a round keeps are looked up only for them: a lookup costs as much as a pick)
        rest = play.edition.round.kept(play.round_index) - len(drafts) - 1
        pool = [c for h in play.hands for c in h]
        for _ in range(completions):
            rng.shuffle(pool)
            orders.append(pool[: rest + 1])
    best, best_value = hand[0], None
    table = others(play.drafts, seat) if standing.shared and not orders else ()  # read only by shared categories
    for card in hand:
        if orders:
            value = 0.0
            for order in orders:
                cards = drafts + [card] + [c for c in order if c is not card][:rest]
                value += seat_value(standing, seat, cards, _others(play, cards) if standing.shared else ())
        else:
            # the card goes before the latest one: judged for what it adds, not as a would-be Catch
            cards = drafts[:-1] + [card] + drafts[-1:] if len(drafts) >= 2 else drafts + [card]
            value = seat_value(standing, seat, cards, table)
        if best_value is None or value > best_value:
            best, best_value = card, value
    return best


def _others(play: RoundPlay, cards: list) -> list:
    mine = set(cards)
    return [c for c in play.dealt if c not in mine]


def play_out(
    standing: Standing,
    play: RoundPlay,
    first: dict,
    rng: random.Random,
    policy: str,
    completions: int,
    known: dict | None = None,
    allowance: Allowance | None = None,
) -> list:
    """Finish the round: `first` fixes some seats' next pick; then every seat follows the policy.
    Returns each seat's gain from the round; raises Spent before a greedy pick once `allowance` is spent.

    A greedy pick is a function of the seat, its hand and the cards taken so far (its random
    completions are seeded by them), and `known` remembers it, so the options tried in one world
    share every pick they have in common instead of recomputing and re-randomising it."""
    while not play.over:
        picks = []
        for seat, hand in enumerate(play.hands):
            if seat in first:
                picks.append(first[seat])
            elif len(hand) == 1:
                picks.append(hand[0])
            elif policy == "random":
                picks.append(hand[rng.randrange(len(hand))])
            else:
                if completions:  # its text seeds the completions
                    key = (
                        seat,
                        "".join(c.letter for c in hand),
                        "/".join("".join(c.letter for c in d) for d in play.drafts),
                    )
                else:  # the same position, cheaper to make (a card hashes as itself)
                    key = (seat, tuple(hand), tuple(map(tuple, play.drafts)))
                pick = known.get(key) if known is not None else None
                if pick is None:
                    if allowance is not None:
                        allowance.check()
                    seeded = random.Random(f"{key}") if completions else rng
                    pick = greedy_pick(standing, play, seat, seeded, completions)
                    if known is not None:
                        known[key] = pick
                picks.append(pick)
        first = {}
        play.step(picks)
    return round_gains(standing, play.drafts)
