"""Greedy seats in the batch: the greedy bot's policy (bots/greedy.py) for thousands of seats at once.

At every pick the greedy bot deals the cards it cannot see at random (six worlds consistent with
what it has seen: bots/determinize.py), completes its round three times in each from the cards in
hands at random, and takes the card whose completions add most to its total on average (the same
completions for every option); at a choice it takes the icon that scores most now, net of what
keeping it is worth (bots/greedy.best_choice). This plays that policy with the edition's own
scoring as array code (fast/arrays.py), every seat of every game in lockstep, step by step.

Its random numbers are its own (splitmix64 of the seat's key and a counter, fast/draws.py; report.json
says so: simulate/batched.GREEDY_STREAM), not the engine's Mersenne Twister draws, so a seed plays a
game of the same policy, not the engine's game: tests/test_fast_greedy.py checks every valuation and
choice against the engine's exactly and the games' figures against the engine's greedy games
statistically. The deal is the engine's.
Every number of a game is fixed by its seed alone, whichever batch it is played in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..bots.greedy import typical_points
from ..dsl.program import reads_of
from ..dsl.program.value import counted_only
from .cards import CardRows, MaskCards, Unsupported
from .draws import GOLDEN, mix
from .hands import HandCards, PileCards, judged, parts_mask

SALT = np.uint64(0x67726565647900A1)   # the greedy stream's keys differ from the random bot's
WORLDS, COMPLETIONS = 6, 3              # the greedy bot's samples and completions (bots/greedy.GreedyAgent)
_BY_SEAT = frozenset({"opponents", "left", "right"})
_ROUND_READS = frozenset({"cards", "throw", "catch", "visited", "previous", "choice", "players", "round", "rounds",
                          "others"})
_RACE_READS = frozenset({"cards", "visited", "region", "players", "round", "rounds"})
_END_READS = frozenset({"visited", "players", "rounds"})
CHUNK_ROWS = 32_768     # hands valued at once: arrays of this many rows stay in the cache (2.5x faster a row)


@dataclass(frozen=True)
class GreedyPlan:
    """What a greedy seat values: the counting round categories (own: its cards alone; shared: the other
    seats' cards by their counts, as one pile), the races and the counting game-end categories."""

    own: tuple        # (key, score, category or None, requires or None)
    shared: tuple
    ends: tuple       # compiled scores


def greedy_plan(plan) -> GreedyPlan:
    """The plan's greedy values; Unsupported (saying what) where the batch's greedy seats would not value
    a hand as the greedy bot does."""
    edition = plan.edition
    own, shared = [], []
    for key, score, category in plan.rounds:
        found = next(c for c in edition.categories if c.key == key)
        reads = _reads(found)
        if reads & _BY_SEAT:
            raise Unsupported(f"greedy seats valuing '{key}', which reads the other seats one by one")
        if reads - _ROUND_READS:
            raise Unsupported(f"greedy seats valuing '{key}', which reads {', '.join(sorted(reads - _ROUND_READS))}")
        if "others" in reads and not counted_only((found,)):
            raise Unsupported(f"greedy seats valuing '{key}', which reads the other seats' cards beyond counts")
        if not found.counts:
            continue
        entry = (key, score, category, plan.requires.get(key))
        (shared if "others" in reads else own).append(entry)
    for race in edition.races:
        extra = _variables(race.qualifies) - _RACE_READS
        if extra:
            raise Unsupported(f"greedy seats valuing the race '{race.key}', which reads {', '.join(sorted(extra))}")
    ends = []
    for (key, score), category in zip(plan.ends, [c for c in edition.categories if c.when == "game_end"],
                                      strict=True):
        extra = _variables(category.score) - _END_READS
        if extra:
            raise Unsupported(f"greedy seats valuing '{key}' at game end, which reads {', '.join(sorted(extra))}")
        if category.counts:
            ends.append(score)
    return GreedyPlan(tuple(own), tuple(shared), tuple(ends))


def _variables(expression) -> frozenset:
    return reads_of(expression).variables()


def _reads(category) -> frozenset:
    found = _variables(category.score)
    if category.choice is not None and category.choice.requires is not None:
        found |= _variables(category.choice.requires)
    return found


def greedy_keys(keys: np.ndarray) -> np.ndarray:
    """Each seat's key of the greedy stream, from its random bot's key (draws.seat_keys)."""
    return mix(keys ^ SALT)


def draws(base: np.ndarray, count: int) -> np.ndarray:
    """count numbers of each row's stream (base: a row's key mixed with what is drawn for): uint64."""
    return mix(base[..., None] + np.arange(count, dtype=np.uint64) * GOLDEN)


def below(numbers: np.ndarray, bound) -> np.ndarray:
    """Each number as an integer in [0, bound): the high 32 bits scaled (bias below bound / 2**32)."""
    return ((numbers >> np.uint64(32)) * np.asarray(bound, dtype=np.uint64) >> np.uint64(32)).astype(np.int64)


@dataclass
class Past:
    """What the sheet holds before a round, per seat row (game * players + seat) or per game."""

    visited: np.ndarray        # rows: the sites visited, as a bitmask
    previous: dict             # key -> rows: the last round's points
    used: dict                 # choice key -> rows x icons: used up
    winners: list              # race slot -> rows: has taken it
    awards: list               # race slot -> games: what its next place pays (0: nothing)
    drafted_before: np.ndarray | None   # games x deck: the cards drafted last round (None in the first round)


@dataclass(frozen=True)
class _Seats:
    """What one pick's valuation reads of every seat (lanes first): its cards so far, its hand (the options),
    the completions' heads, which options are in each head, the counts dealt in each world (None when no
    category reads them), its visited sites, last round's points, choices used and what each race pays it."""

    first: np.ndarray
    mine: np.ndarray
    head: np.ndarray
    inside: np.ndarray
    dealt: np.ndarray | None
    visited: np.ndarray
    previous: dict
    used: dict
    pays: list
    start: int = 0                       # the first lane's index in the batch
    round_cards: np.ndarray | None = None   # lanes x worlds x cards: each world's cards of the round (kept on ask)

    def part(self, rows: slice) -> _Seats:
        """These seats only (a slice of lanes)."""
        return _Seats(self.first[rows], self.mine[rows], self.head[rows], self.inside[rows],
                      None if self.dealt is None else self.dealt[rows], self.visited[rows],
                      {key: v[rows] for key, v in self.previous.items()},
                      {key: v[rows] for key, v in self.used.items()}, [pays[rows] for pays in self.pays],
                      self.start + rows.start, None if self.round_cards is None else self.round_cards[rows])


class GreedySeats:
    """The greedy seats of a batch's games: their picks and choices, and the spread of their valuations."""

    keep_round_cards = False    # True: each world's cards of the round are kept for _values (a test reads them)

    def __init__(self, plan, players: int, games: int, keys: np.ndarray):
        self.plan, self.greedy = plan, greedy_plan(plan)
        self.deck, self.n, self.games = plan.deck, players, games
        self.keys = greedy_keys(keys)
        self.valued = np.zeros(games, dtype=np.int64)
        self.spread = np.zeros(games, dtype=np.float64)
        self.lanes = games * players
        seat = np.arange(self.lanes) % players
        self.seat_at = [np.arange(self.lanes) - seat + (seat + off) % players for off in range(players)]
        self.sites = self.deck.bits[self.deck.site]                # card -> its site's bit

    # -- the picks -------------------------------------------------------------------------------------
    def draft(self, r: int, hands: np.ndarray, past: Past) -> np.ndarray:
        """Every seat's cards of round r in the order taken (games x seats x cards), picks by value."""
        edition, (games, n, hand) = self.plan.edition, hands.shape
        taken = np.zeros((games, n, hand), dtype=np.int64)
        lanes, seats = np.arange(games)[:, None], np.arange(n)[None, :]
        turns = []
        for k, count in enumerate(range(hand, 1, -1)):
            index = self._pick(r, k, hands, taken, past, turns)
            taken[:, :, k] = hands[lanes, seats, index]
            keep = np.arange(count - 1)[None, None, :]
            hands = np.take_along_axis(hands, keep + (keep >= index[:, :, None]), axis=2)
            direction = edition.passing.direction(r, k)
            turns.append(direction)
            turn = -direction if count == 2 and edition.passing.catch == "previous" else direction
            hands = np.roll(hands, turn, axis=1)
        taken[:, :, hand - 1] = hands[:, :, 0]
        return taken

    def _pick(self, r: int, k: int, hands, taken, past: Past, turns: list) -> np.ndarray:
        games, n, c = hands.shape
        lanes, deck, rest = self.lanes, self.deck, c - 1
        mine = hands.reshape(lanes, c)
        first = taken[:, :, :k].reshape(lanes, k)
        code = np.uint64((r + 1) << 8 | k)
        known = np.zeros((lanes, len(deck.cards)), dtype=bool)
        rows = np.arange(lanes)[:, None]
        known[rows, mine] = True
        known[rows, first] = True
        shown = taken[:, :, 1:k].reshape(lanes, k - 1) if k > 1 else None   # the Throws stay face down
        seen_hands = [mine]
        offsets = _known_offsets(turns, n)
        for off in range(1, n):
            other = self.seat_at[off]
            if shown is not None:
                known[rows, shown[other]] = True
            if off in offsets:
                seen_hands.append(mine[other])
                known[rows, mine[other]] = True
        throws = (n - 1) if k >= 1 else 0
        slots = throws + (n - len(seen_hands)) * c
        sampled = self._worlds(known, past, slots, throws, code) if slots else None
        held = np.concatenate(seen_hands, axis=1)
        in_hands = np.broadcast_to(held[:, None, :], (lanes, WORLDS, held.shape[1]))
        if sampled is not None and sampled[0].shape[2]:
            in_hands = np.concatenate([in_hands, sampled[0]], axis=2)
        head = self._heads(in_hands, rest, code)
        inside = (head[:, :, None, :] == mine[:, None, :, None]).any(axis=3)
        dealt = None
        if self.greedy.shared:
            dealt = (known.astype(np.int64) @ deck.counts)[:, None, :] + (sampled[1] if sampled else 0)
        round_cards = None
        if self.keep_round_cards:   # the known cards, then each world's unknown cards dealt
            known_cards = np.argsort(~known, axis=1, kind="stable")[:, : int(known[0].sum())]
            round_cards = np.repeat(known_cards[:, None, :], WORLDS, axis=1)
            if sampled:
                round_cards = np.concatenate([round_cards, sampled[2]], axis=2)
        seats = _Seats(first, mine, head, inside, dealt, past.visited, past.previous, past.used,
                       [np.where(won, 0, np.repeat(awards, n)) for won, awards in zip(past.winners, past.awards,
                                                                                       strict=True)],
                       0, round_cards)
        sums = np.empty((lanes, c), dtype=np.int64)
        step = max(1, CHUNK_ROWS // (WORLDS * COMPLETIONS * c))
        for start in range(0, lanes, step):
            part = seats.part(slice(start, start + step))
            sums[start: start + step] = self._values(r, k, part).reshape(-1, WORLDS * COMPLETIONS, c).sum(axis=1)
        means = sums / (WORLDS * COMPLETIONS)
        self.valued += n
        self.spread += means.std(axis=1).reshape(games, n).sum(axis=1)
        return np.argmax(sums, axis=1).reshape(games, n)

    def _worlds(self, known, past: Past, slots: int, throws: int, code) -> tuple:
        """Each seat's six worlds: the cards in the hands it has not seen (lanes x worlds x cards), and the
        counts of every card dealt this round in each (lanes x worlds x icons), the unknown cards dealt at
        random (those left undealt last round always among them, as the deal deals them first)."""
        lanes, size = known.shape
        must = np.zeros_like(known)
        if past.drafted_before is not None and self.n * self.plan.hand < size:
            must = ~known & ~np.repeat(past.drafted_before, self.n, axis=0)
        forced = bool(must.any())
        drawn = size + slots if forced else size
        numbers = draws(mix(self.keys ^ code), WORLDS * drawn).reshape(lanes, WORLDS, drawn)
        order = (numbers[:, :, :size] >> np.uint64(2)) | np.where(must, 0, np.uint64(1) << np.uint64(62))[:, None, :]
        order = np.where(known[:, None, :], np.uint64(1) << np.uint64(63), order)
        dealt = np.argsort(order, axis=2)[:, :, :slots]                    # the unknown cards dealt, must first
        if forced:   # then shared out at random (without cards dealt first, their order is random already)
            dealt = np.take_along_axis(dealt, np.argsort(numbers[:, :, size:], axis=2), axis=2)
        counts = None
        if self.greedy.shared:
            counts = self.deck.counts[dealt].sum(axis=2)
        return dealt[:, :, throws:], counts, dealt

    def _heads(self, in_hands: np.ndarray, rest: int, code) -> np.ndarray:
        """Each world's three completions: the first rest + 1 cards of a shuffle of the cards in hands."""
        lanes, worlds, size = in_hands.shape
        order = np.repeat(in_hands, COMPLETIONS, axis=1).reshape(-1)         # lanes x 18 x cards, flat
        heads = worlds * COMPLETIONS
        numbers = draws(mix(self.keys ^ code ^ np.uint64(1 << 40)), heads * (rest + 1)).reshape(lanes * heads, rest + 1)
        starts = np.arange(lanes * heads) * size
        for i in range(rest + 1):     # Fisher-Yates from the front: place i takes one of the places from i on
            j = starts + i + below(numbers[:, i], size - i)
            held = order[starts + i]
            order[starts + i] = order[j]
            order[j] = held
        return order.reshape(lanes, heads, size)[:, :, : rest + 1]

    def _values(self, r: int, k: int, seats: _Seats) -> np.ndarray:
        """Each hand's value to its seat (bots/evaluate.seat_value): its categories (a choice at its best icon),
        the races still open to it as if it alone qualified, and the game end's gain."""
        plan, deck, greedy = self.plan, self.deck, self.greedy
        first, mine, head, inside = seats.first, seats.mine, seats.head, seats.inside
        cards = HandCards(deck, first, mine, head, inside)
        lanes, heads, options = cards.shape
        rows = lanes * heads * options
        per = heads * options
        throw = mine if k == 0 else np.broadcast_to(first[:, :1], mine.shape)
        last, before_last = head[:, :, -1:], head[:, :, -2:-1]
        catch = np.where(inside, np.where(mine[:, None, :] == last, before_last, last), before_last)
        visited = (np.repeat(seats.visited, per) | parts_mask(self.sites, first, mine, head, inside))
        env = {"players": self.n, "round": r + 1, "rounds": plan.edition.rounds, "cards": cards,
               "throw": CardRows(np.broadcast_to(throw[:, None, :], (lanes, heads, options)).reshape(-1)),
               "catch": CardRows(catch.reshape(-1)), "visited": MaskCards(deck, visited)}
        if seats.dealt is not None:
            env["others"] = PileCards(deck, seats.dealt, cards, COMPLETIONS)
        value = np.zeros(rows, dtype=np.int64)
        everywhere = np.ones(rows, dtype=bool)
        for key, score, category, requires in (*greedy.own, *greedy.shared):
            env["previous"] = np.repeat(seats.previous[key], per)
            if category is None:
                value += judged(score, env, everywhere, 0, rows)
                continue
            best = np.zeros(rows, dtype=np.int64)
            for i, icon in enumerate(category.choice.family.icons):
                free = np.repeat(~seats.used[key][:, i], per) if category.choice.once_per_game else everywhere
                if not free.any():
                    continue
                env["choice"] = icon
                if requires is not None:
                    free = free & judged(requires, env, free, False, rows)
                points = judged(score, env, free, 0, rows)
                best = np.maximum(best, np.where(free, points, 0))
            env.pop("choice", None)
            value += best
        env.pop("previous", None)
        for slot, (_, region, qualifies, _) in enumerate(plan.races):
            if not seats.pays[slot].any():
                continue
            pays = np.repeat(seats.pays[slot], per)
            env["region"] = region
            value += np.where(judged(qualifies, env, pays != 0, False, rows), pays, 0)
        env.pop("region", None)
        if greedy.ends:
            end = {"players": self.n, "rounds": plan.edition.rounds}
            before = self._end(end, MaskCards(deck, seats.visited), lanes)
            after = self._end(end, env["visited"], rows)
            value += after - np.repeat(before, per)
        return value

    def _end(self, env: dict, visited, rows: int) -> np.ndarray:
        env = {**env, "visited": visited}
        total = np.zeros(rows, dtype=np.int64)
        for score in self.greedy.ends:
            total += judged(score, env, True, 0, rows)
        return total

    # -- the choices ------------------------------------------------------------------------------------
    def choose(self, env: dict, r: int, used: dict, previous: dict) -> tuple[dict, dict]:
        """Each seat's icon for each choice category (its index in the family, -1: none) as the greedy bot
        takes it (bots/greedy.best_choice), and how many options it had (the icons it may take, and none)."""
        made, counts = {}, {}
        rows = self.lanes
        everywhere = np.ones(rows, dtype=bool)
        edition = self.plan.edition
        for key, score, category in self.plan.rounds:
            if category is None:
                continue
            choice, requires = category.choice, self.plan.requires[key]
            env["previous"] = previous[key]
            best = np.full(rows, -1, dtype=np.int64)
            best_points = np.zeros(rows, dtype=np.int64)
            count = np.ones(rows, dtype=np.int64)
            for i, icon in enumerate(choice.family.icons):
                free = ~used[key][:, i] if choice.once_per_game else everywhere
                env["choice"] = icon
                if requires is not None:
                    free = free & judged(requires, env, free, False, rows)
                count += free
                points = np.where(free, judged(score, env, free, 0, rows), 0)
                better = points > best_points
                best = np.where(better, i, best)
                best_points = np.where(better, points, best_points)
            env.pop("choice", None)
            reserve = 0.0
            if choice.once_per_game and r + 1 < edition.rounds:
                reserve = typical_points(edition, category, self.n)
            best = np.where(best_points - reserve >= 0, best, -1)
            if choice.once_per_game:
                chosen = best >= 0
                used[key][np.flatnonzero(chosen), best[chosen]] = True
            made[key], counts[key] = best, count
        return made, counts


def _known_offsets(turns: list, n: int) -> set:
    """The seats (as offsets from the seat) whose hands a seat has seen pass by, after these passes
    (bots/determinize._Known: the hand it passed j passes ago has gone on j passes since)."""
    found, step = set(), len(turns)
    for j in range(1, step + 1):
        offset = sum(turns[step - j:]) % n
        if offset:
            found.add(offset)
    return found
