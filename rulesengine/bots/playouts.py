"""The rollout interface of the searching bots: sampled rounds, the modelled seats' picks, what a round is worth.

A searching bot asks four things of a round it cannot see whole: a world consistent with its view
(`sample`), the pick the model of a seat makes in a world (`pick`), the world after every seat has
picked (`step`, on the world), and what each seat gains once the round is over (`gains`). Today
these are answered by the engine's own parts (determinize.from_view for the worlds, rollout.RoundPlay
and rollout.greedy_pick for the play, evaluate.round_gains for the value); a faster implementation
of the same four calls (the compiled-games work, #35) drops in here without touching the search.

The greedy pick of a seat is a function of its hand and of every seat's cards taken so far (with
completions=0 it reads nothing else: rollout.greedy_pick), so one memo serves every world sampled
for one decision: a position met in two worlds is judged once. Where every seat has the edition's
generated pick (dsl/program/pick.py, which charges no step), a pick reads only the seat's hand, its own cards
taken and, where a round category reads the other seats' cards (Europe's National Treasures), their cards as the
packed tally's int that category counts (the sum of card_ints' ints): the memo is keyed by those (a hand met in
many worlds, whatever else the other seats hold) and a new pick is worked out by the generated pick, each card's
worth for the seat's own cards remembered for the seat and its cards taken, as the search bot's compiled rollouts
do (backend.CompiledRollouts._work_out, and _lean for Europe): the same card greedy_pick gives (tested over
many worlds), fewer picks worked out and each cheaper; the memo and the work-out are one helper, shared
with backend._lean (remembered_pick). Where the round discards nothing too, a world is played in place
(LeanPlay), each seat's cards taken kept as their packed int and sites' mask as they are taken, the pass backend._lean
plays its worlds by too: no RoundPlay made a world, no loop over the cards taken a pick. Elsewhere (a category or race
charging steps, an edition without a generated pick) greedy_pick works each out, keyed by every seat's cards.
The first picks of a round, where the hands are full and nothing is remembered yet, cost the ismcts bot 56-60 ms
of CPU at 100 iterations by greedy_pick (2026-11-27); the guided bot in Europe 74.2 ms a pick (mean, 400 games)
before Europe's picks took the generated pick (docs/bots.md).
"""

from __future__ import annotations

import random

from ..dsl.program import every_icon
from ..dsl.program.helpers import packed_icons, site_bits
from ..edition.model import Edition
from ..edition.steps import PickAndPass
from .allowance import Allowance
from .determinize import from_view, round_sampler
from .evaluate import Standing, round_gains
from .rollout import RoundPlay, greedy_pick

MEMO_LIMIT = 200_000  # greedy picks remembered for one decision; past it the memo starts afresh


class RoundPlayouts:
    """The rounds sampled for one decision of one seat, and the greedy model of every seat in them."""

    def __init__(self, edition: Edition, view: dict, standing: Standing, allowance: Allowance | None = None):
        self.edition, self.view, self.standing = edition, view, standing
        self.allowance = allowance or Allowance(None)   # the decision's steps (allowance.py), checked at every pick
        self.memo: dict = {}
        self.sampler = round_sampler(edition, view)
        self.round_index = len(view["history"])
        # seat -> its generated pick for this decision, where every seat has one and none charges steps
        made = [value.pick for value in standing.values]
        self.pickers = {seat: pick() for seat, pick in enumerate(made)} \
            if not standing.costs and all(pick is not None for pick in made) else None
        # each card's int of the packed tally, where a category reads the other seats' cards (their sum: `others`)
        self.icons = card_ints(edition) if self.pickers is not None and standing.shared else None
        self.sites = card_sites(edition) if self.icons is not None else None
        self.known: dict = {}   # (seat, its cards taken) -> {card: the value of its hand with it (its own part)}
        # each card's int of the packed tally and site's bit, where every seat has a generated pick: a seat's cards
        # taken as one int and one mask, as its pick's `at` reads them (no loop over them a pick)
        self.packing = (card_ints(edition), card_sites(edition)) if self.pickers is not None else None
        # where a category reads the other seats' cards (their ints made every pass) and the round discards nothing,
        # a world is played in place (LeanPlay), those ints and masks kept as the cards are taken, as the compiled
        # rollouts play theirs (backend._lean); elsewhere not shown to gain (the guided bot in Australia with them,
        # bench/against.py --rung: 0.93x and 0.96x a pick on 12 and 24 games; docs/bots.md)
        self.lean = self.icons is not None and self.sampler is not None and not discards(edition)
        self.passes = Passes(edition, self.round_index)   # how far the hands move a pass left, for LeanPlay
        # the other seats' picks drawn by rivals.SampledRivals (the searching seat's own stay the generated pick), or
        # None: every seat's the generated pick; set by the bot where every seat has one and none reads the others'
        self.rivals = None

    def sample(self, rng: random.Random) -> RoundPlay:
        """A world consistent with the view, from this moment of the round to its end."""
        if self.sampler is None:
            return RoundPlay.from_game(from_view(self.edition, self.view, rng, scored=False))
        hands, drafts = self.sampler(rng)
        if self.lean:
            return LeanPlay(self, hands, drafts, *packed(drafts, *self.packing))
        return RoundPlay(self.edition, self.round_index, hands, drafts)

    def pick(self, play: RoundPlay, seat: int):
        """The card the greedy model takes from this seat's hand in this world (remembered); raises Spent
        before working one out once the decision has spent its steps."""
        hand = play.hands[seat]
        if len(hand) == 1:
            return hand[0]
        if self.pickers is not None:
            return self._generated(play, (seat,))[seat]
        key = (seat, tuple(hand), tuple(map(tuple, play.drafts)))
        memo = self.memo
        card = memo.get(key)
        if card is None:
            self.allowance.check()
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            card = memo[key] = greedy_pick(self.standing, play, seat, None, 0)
        return card

    def picks(self, play: RoundPlay, me: int, card=None) -> list:
        """Every seat's pick of this pass: `card` for seat me, or where None the model's, worked out first; then
        every other seat's in turn."""
        rest = (*range(me), *range(me + 1, len(play.hands)))
        if self.pickers is not None:
            return self._generated(play, rest if card is not None else (me, *rest), card, me)
        if card is None:
            card = self.pick(play, me)
        return [card if seat == me else self.pick(play, seat) for seat in range(len(play.hands))]

    def _generated(self, play: RoundPlay, seats: tuple, card=None, me: int | None = None) -> list:
        """The picks of `seats`, in that order, by their generated picks (a seat not in `seats`: `card`): each keyed by
        the seat's hand, its own cards taken and the bytes of the others' packed tally it reads (SeatValue.pick's
        `others`), from the decision's memo or worked out (remembered_pick); with `rivals`, every seat but me drawn by
        it from the values the generated pick gives its hand. The packed ints of the cards taken are made once for all
        of them, or kept by the world (LeanPlay)."""
        hands, drafts = play.hands, play.drafts
        if type(play) is LeanPlay:
            ints = xs = play.ints
            masks = play.masks
        else:   # (the pick makes its own seat's int and mask)
            ints = self.ints(play) if self.icons is not None else None
            xs, masks = (None,) * len(hands), (0,) * len(hands)
        pickers, memo, known, check = self.pickers, self.memo, self.known, self.allowance.check
        total = sum(ints) if self.icons is not None else None
        picks = [card] * len(hands)
        rivals = self.rivals
        for seat in seats:
            hand = hands[seat]
            if len(hand) == 1:
                picks[seat] = hand[0]
            elif rivals is not None and seat != me:
                picks[seat] = rivals.pick(seat, hand, drafts[seat], self._valued, xs[seat], masks[seat])
            else:
                picker = pickers[seat]
                others = (total - ints[seat]) & picker.others if total is not None else 0
                picks[seat] = remembered_pick(memo, known, picker, seat, hand, drafts[seat], others, xs[seat],
                                              masks[seat], check)
        return picks

    def _valued(self, seat: int, hand: list, mine: list, x, sites) -> dict:
        """card -> its one-ply value for this seat with its cards taken `mine` (the generated pick's `known`), every
        card of `hand` in it: worked out by the generated pick where one is missing (the step allowance checked
        first)."""
        taken = tuple(mine)
        known = self.known.get((seat, taken))
        if known is None or any(card not in known for card in hand):
            self.allowance.check()
            if known is None:
                if len(self.known) >= MEMO_LIMIT:
                    self.known.clear()
                known = self.known[seat, taken] = {}
            generated_pick(self.pickers[seat], tuple(hand), mine, known, 0, x, sites)
        return known

    def ints(self, play: RoundPlay) -> list:
        """Every seat's cards taken as their packed tally's int (card_ints)."""
        icons = self.icons
        return [sum(map(icons.__getitem__, taken)) for taken in play.drafts]

    def gains(self, play: RoundPlay) -> list:
        """Each seat's gain from the finished round: categories, races, game-end categories (where the other seats'
        cards are read, by the generated picks: table_gains)."""
        if self.icons is None:
            return round_gains(self.standing, play.drafts)
        if type(play) is LeanPlay:
            return table_gains(self.pickers, self.icons, play.drafts, play.ints, play.masks)
        return table_gains(self.pickers, self.icons, play.drafts, *packed(play.drafts, self.icons, self.sites))


class LeanPlay:
    """A sampled round played in place (RoundPlayouts.lean, and the compiled rollouts' worlds: backend._lean): hands
    and cards taken as the sampler dealt them, each seat's cards taken also as their packed tally's int and sites'
    mask, kept as cards are taken, for the generated pick's `at`. The passes are RoundPlay.step's (rollout.play_picks:
    one card a pass, the Catch taken), without a RoundPlay made and copied a world. playouts: the decision's
    RoundPlayouts or CompiledRollouts, for its `packing` (card_ints, card_sites) and `passes` (Passes)."""

    __slots__ = ("playouts", "hands", "drafts", "ints", "masks")

    def __init__(self, playouts, hands: list, drafts: list, ints: list, masks: list):
        self.playouts, self.hands, self.drafts, self.ints, self.masks = playouts, hands, drafts, ints, masks

    @property
    def over(self) -> bool:
        return not self.hands[0]

    def step(self, picks: list, model: tuple | None = None) -> None:
        """Every seat takes its pick, the hands pass on (this pass's direction), the last card of each is caught: the
        one form of a pass played in place, so a new passing rule is written once. The ismcts bot's worlds play one
        pass a call; with `model`, the compiled rollouts (backend._lean) play every pass left in one call (none a
        pass on their hot path), `picks` the first pass's (None: a seat the model picks for), every later pick the
        model's. model: remembered_pick's (the decision's memo of picks, of values, seat -> its generated pick, seat
        -> the bytes of the others' packed int it reads, whether any pick reads them). A pick reads no other seat's
        pick of its pass, so each is taken as soon as it is worked out."""
        hands, drafts, ints, masks = self.hands, self.drafts, self.ints, self.masks
        playouts = self.playouts
        icons, sites = playouts.packing
        shared, total = False, 0
        if model is not None:
            memo, values, pickers, read, shared = model
            later = (None,) * len(hands)
        seats = range(len(hands))
        for turn, caught in playouts.passes[len(drafts[0]), len(hands[0])]:
            if shared:
                total = sum(ints)
            for seat in seats:
                hand, card = hands[seat], picks[seat]
                if card is None:
                    if len(hand) == 1:
                        card = hand[0]
                    else:
                        others = (total - ints[seat]) & read[seat] if shared else 0
                        card = remembered_pick(memo, values, pickers[seat], seat, hand, drafts[seat], others,
                                               ints[seat], masks[seat])
                hand.remove(card)
                drafts[seat].append(card)
                ints[seat] += icons[card]
                masks[seat] |= sites[card]
            hands = hands[-turn:] + hands[:-turn]
            if caught:
                for seat, hand in enumerate(hands):
                    card = hand.pop()
                    drafts[seat].append(card)
                    ints[seat] += icons[card]
                    masks[seat] |= sites[card]
            if model is None:
                break
            picks = later
        self.hands = hands


class Passes(dict):
    """(cards taken, hand size) -> (how far the hands move, whether the Catch) for each pass left of the round, a card
    a pass and the last card of each hand caught (turn_of: play_picks' rule), worked out once a decision: the one
    cache of them for LeanPlay.step (the ismcts bot's next pass, the compiled rollouts' every pass left: backend._lean)
    and the array lanes (lanes.py).
    A dict whose missing key is worked out, so a pass met again costs one lookup."""

    __slots__ = ("edition", "round_index")

    def __init__(self, edition: Edition, round_index: int):
        super().__init__()
        self.edition, self.round_index = edition, round_index

    def __missing__(self, key: tuple) -> list:
        taken, size = key
        edition, index = self.edition, self.round_index
        found = self[key] = [(turn_of(edition, index, taken + step, step == size - 2), step == size - 2)
                             for step in range(size - 1)] if size > 1 else [(turn_of(edition, index, taken, False),
                                                                             False)] * size
        return found


def remembered_pick(picks: dict, values: dict, picker, seat: int, hand: list, mine: list, others: int, x: int,
                    sites: int, check=None):
    """The card of `hand` a seat's generated pick takes (SeatValue.pick's, for the decision), from the decision's memo
    `picks`, keyed by (seat, hand, its cards taken `mine`, others), or worked out and remembered: the memo of the
    compiled rollouts (backend._lean) and of the ismcts bot's worlds (RoundPlayouts.pick) alike. others: the other
    seats' cards as their packed tally's int masked to the bytes the pick reads (picker.others; 0 where no category
    reads them); x, sites: mine's packed int and sites' mask (x None: the pick makes them); values: (seat, its cards
    taken) -> {card: its worth} (pick.py's known); check: called before a pick is worked out (the decision's step
    allowance), if given."""
    held, taken = tuple(hand), tuple(mine)
    pick = picks.get((seat, held, taken, others))
    if pick is None:
        if check is not None:
            check()
        known = values.get((seat, taken))
        if known is None:
            if len(values) >= MEMO_LIMIT:
                values.clear()
            known = values[seat, taken] = {}
        pick = generated_pick(picker, held, mine, known, others, x, sites)
        if len(picks) >= MEMO_LIMIT:
            picks.clear()
        picks[seat, held, taken, others] = pick
    return pick


def discards(edition: Edition) -> bool:
    """Whether the round discards cards on some pass (RoundPlay.step then plays the pass: no world in place)."""
    picking = edition.round.step(PickAndPass)
    return picking is not None and any(picking.discards)


def turn_of(edition: Edition, round_index: int, passed: int, caught: bool) -> int:
    """How far the hands move on a pass after `passed` cards taken (play_picks: its direction, the other way for
    the Catch with `catch: previous`)."""
    direction = edition.passing.direction(round_index, passed)
    return -direction if caught and edition.passing.catch == "previous" else direction


def card_ints(edition: Edition) -> dict:
    """card -> its int of the edition's packed tally (helpers.packed_icons; kept with the edition): a pile of cards
    is the sum of its cards' ints, as the generated pick reads the other seats' cards (`others`)."""
    return edition.kept("packed icons", lambda: packed_icons(every_icon(edition), edition.cards)[1])


def card_sites(edition: Edition) -> dict:
    """card -> its site's bit (helpers.site_bits; kept with the edition): visited sites as one mask."""
    return edition.kept("site bits", lambda: site_bits(edition.cards))


def packed(drafts: list, icons: dict, sites: dict) -> tuple[list, list]:
    """Every seat's cards taken as their packed tally's int (card_ints) and their sites' mask (card_sites)."""
    ints, masks = [], []
    for taken in drafts:
        number = mask = 0
        for card in taken:
            number += icons[card]
            mask |= sites[card]
        ints.append(number)
        masks.append(mask)
    return ints, masks


def table_gains(pickers: dict, icons: dict, drafts: list, ints: list, masks: list) -> list:
    """evaluate.round_gains where a category reads the other seats' cards, by each seat's generated pick (seat_value's
    values, nothing charged): each seat's cards valued as its pick of its card before the latest, the other seats'
    cards counted from their packed tally. ints, masks: each seat's cards as their packed int and sites' mask."""
    total = sum(ints)
    return [(pickers[seat].at(cards[-2:-1], cards[:-2], cards[-1:], {}, total - ints[seat],
                              ints[seat] - icons[cards[-2]], masks[seat]) if len(cards) >= 2
             else pickers[seat](cards, [], [], {}, total - ints[seat]))[1] for seat, cards in enumerate(drafts)]


def generated_pick(picker, held: tuple, drafts: list, known: dict, others: int = 0, x: int | None = None,
                   sites: int = 0):
    """The card of `held` a seat's generated pick (SeatValue.pick's, for the decision) takes with its cards taken
    `drafts`: each card judged before the latest card taken, as rollout.greedy_pick judges it (not as a would-be
    Catch). known: card -> its worth with these cards taken (pick.py); others: the other seats' cards' int; x, sites:
    drafts' packed int and sites' mask, kept by the caller (the pick's `at`), or None: the pick makes them."""
    first, last = (drafts[:-1], drafts[-1:]) if len(drafts) >= 2 else (drafts, [])
    return (picker(held, first, last, known, others) if x is None
            else picker.at(held, first, last, known, others, x, sites))[0]
