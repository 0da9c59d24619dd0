"""The search bot's rollout backends: its sampled worlds and their rollouts, by the engine or compiled, alike.

The search bot (search.py) samples a world consistent with its view for each of its rollouts and plays every
option it searches out to the end of the round in it. EngineRollouts does it with the engine's parts: a world
is a full Game (determinize.from_view, then rollout.RoundPlay.from_game: a fifth of a pick) and a rollout works
out every greedy pick its own world has not met yet, card by card through evaluate.seat_value
(rollout.play_out: three quarters of a pick). It is the oracle. CompiledRollouts gives the same numbers faster:
- a world is dealt straight into hands and cards taken (determinize.world_sampler: what the view fixes worked
  out once a decision), drawing the same numbers from the decision's generator as from_view draws for its game,
  so every later draw and every world are the same;
- with greedy rollouts without completions and no round category reading the other seats' cards, a seat's
  pick is a function of its hand and the cards it has taken alone (rollout.greedy_pick reads nothing else), so
  a pick worked out in one world serves every world of the decision that meets the same hand and cards; and
  the options of a pick are valued by the edition's generated pick (program.SeatValue.pick, dsl/program/pick.py:
  the tally packed, one frame a pick), or where it has none by its order function (SeatValue.order, the greedy
  bot's inner loop): either way each card's hand gets exactly what own_value gives it.
Where every seat has a generated pick and the round discards nothing (Australia, Europe, USA, most variants: Europe's
National Treasures too, the other seats' cards counted from a packed tally, a pick keyed by the bytes of it its
pick reads: SeatValue.pick's `others`), a world is played in place (_lean): dealt into lists, no RoundPlay made,
copied or stepped, each seat's cards taken kept as their packed int and sites mask too (the generated pick's
`at`), each pick from the decision's memo or the generated pick, the round's end valued by it. A decision's worlds
are played with the cyclic garbage collector paused (playing(): its memos hold no cycle).
A world whose rollouts charge no evaluation step (dsl/meter.py: the shipped editions charge none) takes every
pick from the decision's memo and checks the decision's step allowance (allowance.py) once, before its first
pick: with nothing charged, every check play_out makes in it answers as that one does. A world where something
was charged is played again from the steps it started at as play_out plays it (its own memo of every seat's
cards, the allowance checked where play_out checks it; a pick from the decision's memo charging the steps it
charged when worked out; where an evaluation charges steps, the picks worked out by greedy_pick as play_out
works them out), so the allowance runs out at the same pick. A seed thus gives the same
worlds, rollouts, margins and decisions by either backend (tests/test_search_backend.py checks them).
A random rollout policy, greedy completions, and a view with cards picked on a pass of several are played by
the engine's parts in both. bots/lanes.py ("lanes", the search bot's default) plays a lean decision's worlds at once
as array lanes with the compiled numbers, and this backend where it cannot.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from .. import collector
from ..dsl.meter import METER
from ..edition.model import Edition
from .allowance import Allowance
from .determinize import from_view, world_sampler
from .evaluate import MEMO_LIMIT as STANDING_MEMO_LIMIT
from .evaluate import Standing, round_gains
from .playouts import LeanPlay, Passes, card_ints, card_sites, discards, generated_pick, packed, table_gains
from .rollout import RoundPlay, greedy_pick, play_out

MEMO_LIMIT = 200_000   # greedy picks remembered for one decision; past it the memo starts afresh


class EngineRollouts:
    """The worlds and rollouts of one decision of one seat by the engine's parts (the oracle)."""

    by = "engine"   # what played the decision's rollouts (the search bot's rollouts_used)
    all_at_once = False   # whether play_all plays a decision's worlds at once (lanes.py)

    def __init__(self, edition: Edition, view: dict, standing: Standing, allowance: Allowance, policy: str = "greedy",
                 completions: int = 0):
        self.edition, self.view, self.standing, self.allowance = edition, view, standing, allowance
        self.policy, self.completions = policy, completions
        self.memo: dict = {}       # the world's greedy picks: play_out's `known`, every seat's cards in its key

    def playing(self):
        """The context the decision's worlds are played in (search.py): the engine's as they always were."""
        return nullcontext()

    def world(self, rng: random.Random) -> RoundPlay:
        """A world consistent with the view, from this moment of the round to its end."""
        self.memo = {}
        return RoundPlay.from_game(from_view(self.edition, self.view, rng, scored=False))

    def play(self, world: RoundPlay, seat: int, options: list, rollout_seed: int) -> list:
        """For each option, each seat's gain from the round once `seat` takes it now and every seat then follows
        the policy; raises Spent before a pick once the decision's allowance is spent."""
        return [self.gains(world, seat, card, rollout_seed) for card in options]

    def gains(self, world: RoundPlay, seat: int, card, rollout_seed: int) -> list:
        """play()'s gains of one option."""
        return play_out(self.standing, world.copy(), {seat: card}, random.Random(rollout_seed), self.policy,
                        self.completions, self.memo, self.allowance)


class CompiledRollouts(EngineRollouts):
    """EngineRollouts' numbers without a Game a world, each pick worked out once a decision (module docstring)."""

    by = "compiled"

    def __init__(self, edition: Edition, view: dict, standing: Standing, allowance: Allowance, policy: str = "greedy",
                 completions: int = 0):
        super().__init__(edition, view, standing, allowance, policy, completions)
        self.round_index = len(view["history"])
        self.sampler = world_sampler(edition, view)   # None: a view with cards picked on a pass of several
        self.fast = policy == "greedy" and not completions   # a pick from the decision's memo
        self.own = self.fast and not standing.shared   # ... keyed by the seat's own cards, valued by the order function
        # (seat, hand, its cards taken, or every seat's; in _lean, and the others' packed tally) -> (its pick, the
        # steps it charged)
        self.picks: dict = {}
        # (seat, its cards taken) -> {card: the value of its hand with it; where categories read the other seats'
        # cards, that value without them (SeatValue.pick's own_known: the same for any others)}
        self.values: dict = {}
        self.pickers: dict = {}    # seat -> its generated pick for this decision (SeatValue.pick), or None
        # every seat's picks and its round's end by its generated pick, the passes played in place (_lean): where
        # every seat has one (none charges steps) and the round discards nothing
        self.lean = self.fast and all(value.pick is not None for value in standing.values) and not standing.costs \
            and not discards(edition)
        if self.lean:
            self.pickers = {seat: value.pick() for seat, value in enumerate(standing.values)}
            self.lean_picks: dict = {}   # (seat, hand, its cards taken, the others' packed int) -> its pick
            self.passes = Passes(edition, self.round_index)   # how far the hands move each pass left (playouts.py)
            # each card's int of a packed tally and its site's bit: every seat's cards taken kept as one int and
            # one mask as they are taken (SeatValue.pick's `at`), its categories that read the other seats' cards
            # counting them from the others' ints
            self.icons = card_ints(edition)
            self.sites = card_sites(edition)
            self.shared = bool(standing.shared)
            # each seat's bytes of the others' packed int its pick reads (SeatValue.pick's `others`): its picks are
            # keyed by them alone, the others' cards that differ only in icons it does not count meeting one pick
            self.others_read = [self.pickers[seat].others for seat in range(len(standing.values))]
            self.packing = self.icons, self.sites   # what LeanPlay.step reads
            # what LeanPlay.step works the model's picks out by (remembered_pick's memos and picks)
            self.model = self.lean_picks, self.values, self.pickers, self.others_read, self.shared

    @contextmanager
    def playing(self) -> Iterator[None]:
        """The decision's worlds played with the cyclic garbage collector paused (collector.paused), its memos
        emptied before the collector runs again (else its first pass walks them all, just before they are freed)."""
        with collector.paused():
            try:
                yield
            finally:
                for memo in (self.picks, self.values, self.memo, getattr(self, "lean_picks", {})):
                    memo.clear()

    def world(self, rng: random.Random) -> RoundPlay | _Dealt:
        if self.sampler is None:
            return super().world(rng)
        self.memo = {}
        if self.lean:   # its hands and cards taken as dealt: _lean copies what it changes (a RoundPlay if needed)
            return _Dealt(*self.sampler(rng))
        return RoundPlay(self.edition, self.round_index, *self.sampler(rng))

    def play(self, world: RoundPlay, seat: int, options: list, rollout_seed: int) -> list:
        """By the decision's memo alone where that charges nothing (with the allowance checked once, before the
        world's first pick: nothing charged, every check of the world answers alike); where something was charged,
        the world is played again from the steps it started at as play_out plays it, checking where play_out does."""
        if self.own or self.lean:
            start = METER.spent
            if self.lean:
                if len(world.hands[0]) > 1:   # (hands of one card: no pick worked out, none checked)
                    self.allowance.check()
                ints, masks = packed(world.drafts, self.icons, self.sites)
                gains = [self._lean(world, seat, card, ints, masks) for card in options]
            else:
                self.checked = False
                gains = [self._unchecked(world, seat, card) for card in options]
            if METER.spent == start:
                return gains
            METER.spent = start
        if isinstance(world, _Dealt):
            world = RoundPlay(self.edition, self.round_index, world.hands, world.drafts)
        return super().play(world, seat, options, rollout_seed)

    def _unchecked(self, world: RoundPlay, seat: int, card) -> list:
        """gains() without the world's memo: every pick from the decision's."""
        play, picks, first = world.copy(), self.picks, seat
        while play.hands[0]:
            chosen = []
            for at, hand in enumerate(play.hands):
                if at == first:
                    chosen.append(card)
                elif len(hand) == 1:
                    chosen.append(hand[0])
                else:
                    if not self.checked:
                        self.allowance.check()
                        self.checked = True
                    held, taken = tuple(hand), tuple(play.drafts[at])
                    found = picks.get((at, held, taken))
                    if found is None:
                        chosen.append(self._work_out(play, at, held, taken))
                    else:
                        chosen.append(found[0])
                        if found[1]:
                            METER.spent += found[1]
            first = None
            play.step(chosen)
        return round_gains(self.standing, play.drafts)

    def _lean(self, world: RoundPlay, seat: int, card, ints: list, masks: list) -> list:
        """_unchecked where every seat has a generated pick (charging nothing) and the round discards nothing: the
        passes played in place as play_picks plays them (playouts.LeanPlay.step, the ismcts bot's passes too), a
        pick not in the decision's memo worked out by the seat's generated pick (each card's worth remembered for
        its cards taken), the round's end valued by it too (round_gains). Each seat's cards taken are kept as their
        packed tally's int and their sites' mask too (ints, masks: the world's), as its pick reads them. Where a
        category reads the other seats' cards, a pick is keyed by them as the packed tally's int its categories
        count (the sum of their ints, masked to the bytes its pick reads: SeatValue.pick's `others`), not by every
        seat's cards: a pick reads nothing else of them."""
        hands, drafts = [list(hand) for hand in world.hands], [list(taken) for taken in world.drafts]
        play = LeanPlay(self, hands, drafts, list(ints), list(masks))
        first = [None] * len(hands)   # the first pass's picks: the option, every other seat's the model's
        first[seat] = card
        play.step(first, self.model)
        return self._round_gains(drafts, play.ints, play.masks)

    def _round_gains(self, drafts: list, ints: list, masks: list) -> list:
        """round_gains by the generated picks (seat_value's values: nothing charged), each hand valued as its seat's
        pick of its card before the latest (ints, masks: the hands' packed ints and sites). Without categories that
        read the other seats' cards, through the standing's memo of hands (seat_value's); with them, each hand
        valued by its pick, their cards counted from their packed tally."""
        standing, pickers, icons = self.standing, self.pickers, self.icons
        if self.shared:
            return table_gains(pickers, icons, drafts, ints, masks)
        memo, gains = standing.memo, []
        for seat, cards in enumerate(drafts):
            key = (seat, tuple(cards))
            value = memo.get(key)
            if value is None:
                if len(memo) >= STANDING_MEMO_LIMIT:
                    memo.clear()
                    standing.costs.clear()
                value = memo[key] = (pickers[seat].at(cards[-2:-1], cards[:-2], cards[-1:], {}, 0,
                                                      ints[seat] - icons[cards[-2]], masks[seat]) if len(cards) >= 2
                                     else pickers[seat](cards, [], [], {}, 0))[1]
            gains.append(value)
        return gains

    def gains(self, world: RoundPlay, seat: int, card, rollout_seed: int) -> list:
        if not self.fast:
            return super().gains(world, seat, card, rollout_seed)
        play, memo, check, first = world.copy(), self.memo, self.allowance.check, seat
        while play.hands[0]:
            picks = []
            every = None   # every seat's cards taken, as play_out keys its memo: made once a pass
            for at, hand in enumerate(play.hands):
                if at == first:
                    picks.append(card)
                elif len(hand) == 1:
                    picks.append(hand[0])
                else:
                    if every is None:
                        every = tuple(map(tuple, play.drafts))
                    held = tuple(hand)
                    key = (at, held, every)
                    pick = memo.get(key)
                    if pick is None:   # where play_out works one out: the allowance checked there
                        check()
                        pick = memo[key] = self._pick(play, at, held, every)
                    picks.append(pick)
            first = None
            play.step(picks)
        return round_gains(self.standing, play.drafts)

    def _pick(self, play: RoundPlay, seat: int, held: tuple, every: tuple):
        """The greedy pick of a seat (rollout.greedy_pick), from the decision's memo where another world met it,
        charging the steps it charged then."""
        taken = every[seat] if self.own else every
        found = self.picks.get((seat, held, taken))
        if found is not None:
            if found[1]:
                METER.spent += found[1]
            return found[0]
        return self._work_out(play, seat, held, taken)

    def _work_out(self, play: RoundPlay, seat: int, held: tuple, taken: tuple):
        """A greedy pick not in the decision's memo, remembered with the steps it charged."""
        if len(self.picks) >= MEMO_LIMIT:
            self.picks.clear()
        before = METER.spent
        pick = None
        if self.own:
            picker = self.pickers.get(seat, False)
            if picker is False:
                made = self.standing.values[seat].pick
                picker = self.pickers[seat] = made() if made is not None else None
            drafts = play.drafts[seat]
            if picker is not None:   # the generated pick: it charges nothing (SeatValue.pick)
                known = self.values.get((seat, taken))
                if known is None:
                    if len(self.values) >= MEMO_LIMIT:
                        self.values.clear()
                    known = self.values[seat, taken] = {}
                pick = generated_pick(picker, held, drafts, known)
            else:
                pick = self._ordered_pick(seat, held, taken, drafts)
        if pick is None:
            pick = greedy_pick(self.standing, play, seat, None, 0)
        self.picks[seat, held, taken] = pick, METER.spent - before
        return pick

    def _ordered_pick(self, seat: int, hand: tuple, taken: tuple, drafts: list):
        """rollout.greedy_pick by the order function: the card whose hand (the cards taken, the card before the
        latest of them) is worth most, the first of equals. Each card's value is remembered for the seat and its
        cards taken (another hand of the decision with the same cards taken shares most of its cards); those not
        yet valued are valued in one call. None, having charged nothing, where an evaluation charges steps:
        greedy_pick then, for the rest of the decision."""
        known = self.values.get((seat, taken))
        if known is None:
            if len(self.values) >= MEMO_LIMIT:
                self.values.clear()
            known = self.values[seat, taken] = {}
        missing = [card for card in hand if card not in known]
        if missing:
            if len(drafts) >= 2:   # its hands are first + [card] + head[:rest]
                first, head, rest = drafts[:-1], drafts[-1:], 1
            else:
                first, head, rest = drafts, [], 0
            sums = [0] * len(missing)
            before = METER.spent
            self.standing.values[seat].order(first, missing, rest)(sums, (head,), [])
            if METER.spent != before:   # a metered evaluation: its steps charged to nothing, greedy_pick charges them
                METER.spent = before
                self.own = False
                return None
            known.update(zip(missing, sums, strict=True))
        best, best_value = hand[0], None
        for card in hand:
            value = known[card]
            if best_value is None or value > best_value:
                best, best_value = card, value
        return best


class _Dealt:
    """A world of the lean path (CompiledRollouts.world): the sampler's hands and cards taken, no RoundPlay."""

    __slots__ = ("hands", "drafts")

    def __init__(self, hands: list, drafts: list):
        self.hands, self.drafts = hands, drafts


def _lanes(*args) -> CompiledRollouts:
    """lanes.LaneRollouts (imported on first use: it imports this module)."""
    from .lanes import LaneRollouts
    return LaneRollouts(*args)


# the search bot's `rollouts_by`; "lanes": the compiled numbers as array lanes where numpy and the edition allow
BACKENDS = {"compiled": CompiledRollouts, "engine": EngineRollouts, "lanes": _lanes}
