"""The search bot's rollouts as array lanes: every (sampled world x option searched) of a decision in lockstep.

A compiled decision (backend.CompiledRollouts._lean) plays its worlds one after the other, each option's rollout
pass by pass, each pick from its memo or the seat's generated pick. Its rollouts are deterministic greedy picks, so
here every world is dealt first, from the decision's generator in the order the search bot draws them (a world,
then its rollout seed, world by world: search.SearchAgent.searched), and every lane is played at once in numpy: each
seat of each lane values each card of its hand by the edition's value of hands as arrays (fast/lanes.py, generated
from the scoring program), takes the first of the best in its hand's order, the hands move as play_picks moves them
(playouts.Passes), the last card of each hand is caught, and every seat's cards are valued at the round's
end. Each lane's gains are the compiled backend's to the last point (tests/test_search_lanes.py), so the margins,
their means and the decisions are the same.

Played so only where the compiled backend plays a world in place with nothing charged (its `lean` path: greedy
rollouts without completions, every seat with a generated pick, no costs, no discards), worlds dealt by the sampler,
the edition and the standing have an array value (fast/lanes.py: else Unsupported, named) and numpy is installed
(the `fast` extra); and only for a fixed rollout budget (a time budget stops between worlds: the search bot then
plays them one by one). Elsewhere the compiled backend plays, and `by` says so with the reason.
"""

from __future__ import annotations

import random

from .backend import CompiledRollouts

LANES = "lanes"


def lane_value(edition):
    """The edition's value of hands as arrays (fast/lanes.LaneValue), or why it has none (a str), kept with it."""
    return edition.kept("search lanes", lambda: _made(edition))


def _made(edition):
    from ..fast import missing_numpy
    missing = missing_numpy()
    if missing is not None:
        return missing
    from ..fast.cards import Unsupported
    from ..fast.lanes import LaneValue
    try:
        return LaneValue(edition)
    except Unsupported as error:
        return f"the edition's scoring has no array lanes: {error}"


class LaneRollouts(CompiledRollouts):
    """CompiledRollouts whose decision's worlds are played as array lanes where they can be (module docstring)."""

    def __init__(self, edition, view: dict, standing, allowance, policy: str = "greedy", completions: int = 0):
        super().__init__(edition, view, standing, allowance, policy, completions)
        reason = None if self.lean and self.sampler is not None else \
            "the compiled rollouts do not play this decision in place (a policy, completions, costs or discards)"
        made = lane_value(edition) if reason is None else reason
        if isinstance(made, str):
            reason = made
        else:
            from ..fast.cards import Unsupported
            try:
                self.lane_standing = made.standing(standing)
            except Unsupported as error:
                reason = f"the standing has no array lanes: {error}"
        self.all_at_once = reason is None
        self.by = LANES if reason is None else f"compiled ({reason})"

    def play_all(self, rng: random.Random, count: int, seat: int, options: list) -> list:
        """For each of `count` worlds drawn from rng as the search bot draws them, play()'s gains of every option;
        raises Spent where the compiled backend would before the first world's first pick (nothing is charged in
        a lane, so no later check answers otherwise)."""
        world = self.world(rng)
        rng.randrange(2**31)   # the world's rollout seed: a greedy rollout reads none
        if len(world.hands[0]) > 1:
            self.allowance.check()
        worlds = [world]
        for _ in range(count - 1):
            worlds.append(self.world(rng))
            rng.randrange(2**31)
        found = play_lanes(self.lane_standing, worlds, seat, options, self.passes[len(world.drafts[0]),
                                                                                    len(world.hands[0])])
        if found is None:   # hands or cards taken of unequal sizes: world by world, as the compiled backend plays
            return [self.play(one, seat, options, 0) for one in worlds]
        return found


def play_lanes(standing, worlds: list, seat: int, options: list, passes: list) -> list:
    """worlds x options x seats: every seat's gain in each lane (module docstring); standing: fast/lanes' _Standing,
    passes: (how far the hands move, whether the Catch) a pass left (playouts.Passes)."""
    import numpy as np
    lanes, width = standing.lanes, len(options)
    try:   # worlds x seats x cards (a ragged world: None)
        dealt = np.array([[[card.index for card in hand] for hand in one.hands] for one in worlds], np.int64)
        taken = np.array([[[card.index for card in cards] for cards in one.drafts] for one in worlds], np.int64)
    except ValueError:
        return None
    if dealt.ndim != 3 or taken.ndim != 3:
        return None
    count, seats_n = len(worlds) * width, dealt.shape[1]
    taken = taken.reshape(len(worlds), seats_n, -1)
    held = taken.shape[2]
    counts = lanes.counts.take(taken, axis=0).sum(axis=2)
    visited = standing.before[:, :, 0] | np.bitwise_or.reduce(lanes.site.take(taken, axis=0), axis=2, initial=0)
    first, last = (taken[:, :, 0], taken[:, :, -1]) if held else (None, None)
    # the first pass before the lanes part: every seat but the searching one holds the same hand and cards in each
    # option's lane of a world, so their picks are worked out once a world
    hands, best = dealt, _best(standing, dealt, counts, visited, first, last, held) if dealt.shape[2] > 1 else None
    hands, counts, visited = (np.repeat(array, width, 0) for array in (hands, counts, visited))
    first, last = (None, None) if first is None else (np.repeat(first, width, 0), np.repeat(last, width, 0))
    best = np.zeros((count, seats_n), np.int64) if best is None else np.repeat(best, width, 0)
    option = np.tile(np.array([card.index for card in options], np.int64), len(worlds))
    rows, seats = np.arange(count)[:, None], np.arange(seats_n)[None, :]
    for step, (turn, caught) in enumerate(passes):
        size = hands.shape[2]
        if step:
            best = _best(standing, hands, counts, visited, first, last, held) if size > 1 else \
                np.zeros((count, seats_n), np.int64)
        else:   # the searching seat takes the option
            best[:, seat] = np.argmax(hands[:, seat, :] == option[:, None], axis=1)
        pick = hands[rows, seats, best]
        counts, visited = counts + lanes.counts.take(pick, axis=0), visited | lanes.site.take(pick, axis=0)
        first, last, held = (pick if first is None else first), pick, held + 1
        keep = np.arange(size - 1)[None, None, :]
        hands = np.roll(np.take_along_axis(hands, keep + (keep >= best[:, :, None]), axis=2), turn, axis=1)
        if caught:   # the last card of each hand, passed on, caught
            catch = hands[:, :, 0]
            counts, visited = counts + lanes.counts.take(catch, axis=0), visited | lanes.site.take(catch, axis=0)
            last, held = catch, held + 1
            hands = hands[:, :, 1:]
    gains = standing.value(counts[:, :, None, :], visited[:, :, None], first[:, :, None], last[:, :, None])
    return gains.reshape(len(worlds), width, seats_n).tolist()


def _best(standing, hands, counts, visited, first, last, held: int):
    """lanes x seats: where in its hand each seat's pick is, the first of the cards whose hand is worth most (its
    cards taken with the card, judged before the latest of them, as the generated pick judges it)."""
    import numpy as np
    lanes = standing.lanes
    throw = hands if first is None else np.broadcast_to(first[:, :, None], hands.shape)
    catch = hands if held < 2 else np.broadcast_to(last[:, :, None], hands.shape)
    worth = standing.value(counts[:, :, None, :] + lanes.counts.take(hands, axis=0),
                           visited[:, :, None] | lanes.site.take(hands, axis=0), throw, catch)
    return np.argmax(worth, axis=2)   # the first of the best, in the hand's order
