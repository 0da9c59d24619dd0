"""The floor of #35's array lanes for the search rollouts: Australia's, hand-written, against the compiled backend.

Not a test and not a backend: a measurement for the design of vectorised search rollouts (docs/bots.md). A search
decision's rollouts are deterministic greedy picks, so its lanes (sampled world x option searched) can be played in
lockstep, pass by pass, in numpy: every lane's every seat values each card of its hand, takes the first of the best,
the hands pass, and at the round's end every seat's cards are valued. With the edition's array code (fast/arrays.py)
a batch of hands costs about 250 numpy calls however few its rows, more than the compiled rollouts spend on the
whole decision. Here Australia's scoring is written by hand as about 35 numpy calls a pass (each category on the
icon counts of every lane's hands, the races as mask tests, the game end as a bit count), the floor a generated lean
array valuation could reach. For the seat-0 draft decisions of --games games (the search bot in seat 0 against
three greedy bots), each decision's worlds are dealt once (CompiledRollouts.world, as the search bot deals them: 160
rollouts over its first four options) and played by the compiled backend (CompiledRollouts.play, its memos fresh)
and by the lanes, which goes first alternating; every seat's gain of every lane must be the compiled backend's
exactly (it stops with an error otherwise). It prints the CPU ms of a decision's rollouts each way, their ratio
and the load. The lanes built on it, their valuation generated from the scoring program, are bots/lanes.py and
fast/lanes.py (the search bot's default; bench/search_rollouts.py times them a pick).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine.fast import NUMPY_MISSING  # noqa: E402

try:
    import numpy as np
except ImportError:   # the `fast` extra
    raise SystemExit(NUMPY_MISSING) from None

from rulesengine import Game, load_edition  # noqa: E402
from rulesengine.bots.allowance import Allowance  # noqa: E402
from rulesengine.bots.backend import CompiledRollouts  # noqa: E402
from rulesengine.bots.evaluate import card_list, standing_from_view  # noqa: E402
from rulesengine.bots.registry import DEFAULT_ROLLOUTS, agent_seed, make_bot  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee"]
WIDTH = 4   # the options searched (the search bot's width)


class Scoring:
    """Australia's round value of hands as arrays (the rules of editions/australia.yaml, hand-written): every
    array's first two axes are lanes and seats; the standing's per-seat inputs are set by standing()."""

    def __init__(self, edition):
        families = {family.key: family for family in edition.families.values()}
        icons = [icon for family in edition.families.values() for icon in family.icons]
        at = {icon: i for i, icon in enumerate(icons)}
        self.edition, self.icons, self.size = edition, len(icons), len(edition.cards)
        self.counts = np.zeros((self.size + 1, len(icons)), np.int16)   # card -> its icons' counts
        for card in edition.cards:
            for icon in card.icons:
                self.counts[card.index, at[icon]] += 1
        self.number = np.array([card.number for card in edition.cards], np.int64)
        self.site = np.array([1 << card.site.index for card in edition.cards], np.int64)
        self.collection = (np.array([at[i] for i in families["collection"].icons]),
                           np.array(list(families["collection"].values.values()), np.int64))
        self.animal = (np.array([at[i] for i in families["animal"].icons]),
                       np.array(list(families["animal"].values.values()), np.int64))
        self.activities = families["activity"].icons
        self.activity = np.array([at[i] for i in self.activities])
        self.table = np.zeros(64, np.int64)   # count -> points (a count without a row: 0, as a failed lookup)
        for count, points in edition.tables["activity_points"].rows.items():
            self.table[count] = points
        self.regions = np.array([sum(1 << card.site.index for card in region.cards) for region in edition.regions],
                                np.int64)

    def standing(self, standing) -> None:
        seats = standing.seats
        self.before = np.array([sum(1 << card.site.index for card in past.visited) for past in seats], np.int64)
        self.visited = np.array([len(past.visited) for past in seats], np.int64)
        self.end_points = np.array([past.end_points for past in seats], np.int64)
        self.choosable = np.array([[icon in past.choosable["activities"] for icon in self.activities]
                                   for past in seats])
        self.awards = np.zeros((len(self.regions), len(seats)), np.int64)   # region x seat: what it pays the seat
        where = {id(region): i for i, region in enumerate(self.edition.regions)}
        for seat, races in enumerate(standing.open_races):
            for region, award in races[0]:
                self.awards[where[id(region)], seat] += award

    def value(self, counts, visited, throw, catch):
        """Each hand's value (seat_value): its categories, an activity at its best, the regions it completes as if
        alone, the sites' game-end gain. counts: lanes x seats [x options] x icons; the rest without the icons."""
        extra = (1,) * (visited.ndim - 2)
        value = np.abs(self.number[throw] - self.number[catch])
        index, weight = self.collection
        total = counts[..., index].astype(np.int64) @ weight
        value += np.where(total <= 7, 2 * total, total)
        index, weight = self.animal
        value += (counts[..., index] // 2).astype(np.int64) @ weight
        points = self.table[counts[..., self.activity]]
        value += np.where(self.choosable.reshape((1, -1) + extra + (len(self.activities),)), points, 0).max(axis=-1)
        for region, awards in zip(self.regions, self.awards, strict=True):
            value += np.where(visited & region == region, awards.reshape((1, -1) + extra), 0)
        sites = np.bitwise_count(visited.astype(np.uint64)).astype(np.int64)
        before = self.visited.reshape((1, -1) + extra)
        return value + np.where(sites != before, sites - self.end_points.reshape(before.shape), 0)


def lanes(scoring: Scoring, worlds: list, options: list, seat: int, direction: int, back: bool) -> np.ndarray:
    """worlds x options x seats (worlds: CompiledRollouts.world's, their hands and cards taken): every seat's gain
    from the round in each lane, the seat taking the option now and every seat then the first of its best cards
    (the hands passed on, the last card of each hand caught)."""
    count = len(options)
    hands = np.repeat(np.array([[[card.index for card in hand] for hand in world.hands] for world in worlds]), count,
                      0)
    taken = np.repeat(np.array([[[card.index for card in cards] for cards in world.drafts] for world in worlds],
                               np.int64).reshape(len(worlds), hands.shape[1], -1), count, 0)
    option = np.tile(np.array([card.index for card in options]), len(worlds))
    held = taken.shape[2]
    counts = scoring.counts[taken].sum(axis=2, dtype=np.int16)
    visited = scoring.before[None, :] | np.bitwise_or.reduce(scoring.site[taken], axis=2, initial=0)
    first, last = (taken[:, :, 0], taken[:, :, -1]) if held else (None, None)
    rows, seats = np.arange(len(hands))[:, None], np.arange(hands.shape[1])[None, :]
    dealt = hands.shape[2]
    for size in range(dealt, 0, -1):
        if size > 1:
            throw = hands if first is None else np.broadcast_to(first[:, :, None], hands.shape)
            catch = hands if last is None or held < 2 else np.broadcast_to(last[:, :, None], hands.shape)
            worth = scoring.value(counts[:, :, None, :] + scoring.counts[hands], visited[:, :, None] |
                                  scoring.site[hands], throw, catch)
            best = np.argmax(worth, axis=2)
        else:
            best = np.zeros(hands.shape[:2], np.int64)
        if size == dealt:
            best[:, seat] = np.argmax(hands[:, seat, :] == option[:, None], axis=1)
        pick = hands[rows, seats, best]
        counts, visited = counts + scoring.counts[pick], visited | scoring.site[pick]
        first, last, held = (pick if first is None else first), pick, held + 1
        keep = np.arange(size - 1)[None, None, :]
        hands = np.take_along_axis(hands, keep + (keep >= best[:, :, None]), axis=2)
        if size == 2:   # the Catch: the last card of each hand passed on and caught
            hands = np.roll(hands, -direction if back else direction, axis=1)
            caught = hands[:, :, 0]
            counts, visited = counts + scoring.counts[caught], visited | scoring.site[caught]
            last = caught
            break
        if size > 1:
            hands = np.roll(hands, direction, axis=1)
    return scoring.value(counts, visited, first, last).reshape(len(worlds), count, -1)


def decisions(edition, games: int) -> list:
    """(view, decision) of seat 0's draft picks of several cards, the search bot in seat 0 against three greedy."""
    found = []
    for seed in range(games):
        game = Game(edition, NAMES, seed, events=False)
        agents = [make_bot("search", edition, agent_seed(seed, 0))]
        agents += [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(1, 4)]
        while not game.over:
            for decision in game.pending():
                view = game.view(decision.seat, lazy=True)
                if decision.seat == 0 and decision.kind == "draft" and len(decision.options) > 2:
                    found.append((game.view(0, lazy=False), decision))
                game.apply(decision.seat, agents[decision.seat].decide(view, decision), decision.category)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    edition = load_edition(ROOT / "editions" / "australia.yaml")
    scoring = Scoring(edition)
    found = decisions(edition, args.games)
    print(f"australia, the seat-0 draft decisions of {args.games} games ({len(found)}), {DEFAULT_ROLLOUTS} rollouts "
          f"over the first {WIDTH} options; load {os.getloadavg()[0]:.1f}")
    spent = {"compiled": 0.0, "lanes": 0.0}
    for number, (view, decision) in enumerate(found):
        standing = standing_from_view(edition, view)
        options = card_list(edition, decision.options)[:WIDTH]
        backend = CompiledRollouts(edition, view, standing, Allowance(None))   # its memos fresh: played once
        rng = random.Random(number)
        worlds = [backend.world(rng) for _ in range(DEFAULT_ROLLOUTS // len(options))]
        direction = edition.passing.direction(len(view["history"]))
        back = edition.passing.catch == "previous"
        scoring.standing(standing)
        for side in (("compiled", "lanes") if number % 2 else ("lanes", "compiled")):
            start = time.process_time()
            if side == "lanes":
                gains = lanes(scoring, worlds, options, view["seat"], direction, back)
            else:
                with backend.playing():
                    expected = [backend.play(world, view["seat"], options, 0) for world in worlds]
            spent[side] += time.process_time() - start
        if not np.array_equal(gains, np.array(expected, dtype=np.int64)):
            raise SystemExit(f"decision {number}: the lanes' gains differ from the compiled backend's")
    compiled, lanes_ms = (1000 * spent[side] / len(found) for side in ("compiled", "lanes"))
    print(f"CPU ms of a decision's rollouts: compiled {compiled:.2f}, lanes {lanes_ms:.2f}, "
          f"compiled/lanes {spent['compiled'] / spent['lanes']:.2f}x (the same gains, every lane)")
    print(f"load afterwards {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
