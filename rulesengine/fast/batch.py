"""Thousands of random-seat games of a drafting edition at once, in lockstep: the engine's games, as arrays.

Every game of a batch is at the same step at the same time: the deal of round r for all of them,
then pass k of all of them, then their choices and their scoring. Each game's deal comes from its
own `random.Random(seed)` and each seat's decisions from the random bot's splitmix64 (fast/draws.py),
and every category, choice and race is the edition's own expression as array code (fast/arrays.py),
so a seed plays the engine's game: the same drafts, choices and sheet. A part of a game the batch
does not play (plan() says which) leaves the edition to the engine, and a game whose scoring meets an
error is marked in `failed` for the engine to play again (it reports the error where it is).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import cached_property

from . import NUMPY_MISSING

try:
    import numpy as np
except ImportError as exc:   # the base install: say which extra to install, not only numpy's name
    raise ImportError(NUMPY_MISSING) from exc

from .cards import CardRows, DraftCards, Items, MaskCards, SeatRows
from .draws import Stream, picks, seat_keys
from .plan import Plan, plan

THROW, DRAFT, CHOICE = 1, 2, 3      # the kinds of decision as the random bot mixes them in (bots/seeding.py)


@dataclass
class Batch:
    """The games of a batch: every array's first axis is the game (in the order of its seeds)."""

    plan: Plan
    seeds: list
    drafts: np.ndarray       # games x rounds x seats x cards: deck indices, in the order taken
    choices: np.ndarray      # games x rounds x seats x choice categories: the icon's index in its family, -1 none
    offered: np.ndarray      # games x rounds x seats x choice categories: the options of that choice (none too)
    lines: np.ndarray        # games x seats x rounds x line keys: each round line's points
    ends: np.ndarray         # games x seats x game-end categories: their points
    failed: np.ndarray       # games the engine must play again (an expression met an error)
    valued: np.ndarray | None = None   # games: the picks whose options greedy seats valued (None: random seats)
    spread: np.ndarray | None = None   # games: the sum over those picks of the option values' standard deviation

    @cached_property
    def totals(self) -> np.ndarray:
        """games x seats: each seat's total (the lines that count)."""
        plan = self.plan
        counted = [i for i, key in enumerate(plan.line_keys) if key in plan.counting]
        total = self.lines[:, :, :, counted].sum(axis=(2, 3))
        for i, (key, _) in enumerate(plan.ends):
            if key in plan.counting:
                total = total + self.ends[:, :, i]
        return total


RANDOM, GREEDY = "random", "greedy"


def play(edition, players: int, seeds: list[int], bot_seats: np.ndarray | None = None, seats=RANDOM) -> Batch:
    """Play these seeds' games with random seats, or greedy ones (seats=GREEDY: the greedy bot's policy with
    its own random stream, fast/greedy.py; or a class like GreedySeats) (bot_seats[g, s]: whose bot seed
    seat s of game g gets; by default its own). Unsupported when the batch does not play the edition (see
    plan.fallback, and plan.greedy_fallback for greedy seats)."""
    at = plan(edition)
    deck, hand, n, games = at.deck, at.hand, players, len(seeds)
    if bot_seats is None:
        bot_seats = np.broadcast_to(np.arange(n), (games, n))
    keys = seat_keys(list(seeds), np.asarray(bot_seats)).reshape(games * n)
    greedy = None
    if seats == GREEDY:
        from .greedy import GreedySeats

        seats = GreedySeats
    if seats != RANDOM:
        greedy = seats(at, n, games, keys)
    stream = Stream(list(seeds))
    size, dealt = len(deck.cards), n * hand
    rounds = edition.rounds
    choice_keys = [key for key, _, category in at.rounds if category is not None]
    drafts = np.zeros((games, rounds, n, hand), dtype=np.int64)
    choices = np.full((games, rounds, n, len(choice_keys)), -1, dtype=np.int64)
    offered = np.zeros((games, rounds, n, len(choice_keys)), dtype=np.int64)
    lines = np.zeros((games, n, rounds, len(at.line_keys)), dtype=np.int64)
    failed = np.zeros(games * n, dtype=bool)
    visited = np.zeros(games * n, dtype=np.uint64)
    used = {key: np.zeros((games * n, len(category.choice.family.icons)), dtype=bool)
            for key, _, category in at.rounds if category is not None}
    previous = {key: np.zeros(games * n, dtype=np.int64) for key, _, _ in at.rounds}
    winners = [np.zeros(games * n, dtype=bool) for _ in at.races]
    given = [np.zeros(games, dtype=np.int64) for _ in at.races]
    leftover = np.zeros((games, 0), dtype=np.int64)
    table = _Table(n, games, hand)
    for r in range(rounds):
        hands, leftover = _deal(stream, leftover, size, n, hand, dealt)
        if greedy is None:
            drafts[:, r] = _draft(edition, at, hands, keys, r)
        else:
            from .greedy import Past

            before = None
            if r:
                before = np.zeros((games, size), dtype=bool)
                np.put_along_axis(before, drafts[:, r - 1].reshape(games, -1), True, axis=1)
            past = Past(visited, previous, used, winners, _next_awards(at, given, n, r, rounds), before)
            drafts[:, r] = greedy.draft(r, hands, past)
        rows = drafts[:, r].reshape(games * n, hand)
        visited = visited | np.bitwise_or.reduce(deck.bits[deck.site[rows]], axis=1)
        env = {"players": n, "round": r + 1, "rounds": rounds, "_failed": failed, "_drafts": rows, "_visited": visited,
               "cards": DraftCards(deck, rows), "throw": _column(rows, 0), "catch": _column(rows, hand - 1),
               "others": DraftCards(deck, rows.reshape(games, n * hand)[:, table.others].reshape(games * n, -1)),
               "opponents": Items(tuple((None, SeatRows(seat)) for seat in table.opponents)),
               "left": SeatRows(table.opponents[0]), "right": SeatRows(table.opponents[-1]),
               "visited": MaskCards(deck, visited)}
        if greedy is None:
            made, counts = _choose(at, env, keys, used, previous, r)
        else:
            made, counts = greedy.choose(env, r, used, previous)
            env["_failed"] = failed
        for c, key in enumerate(choice_keys):
            choices[:, r, :, c] = made[key].reshape(games, n)
            offered[:, r, :, c] = counts[key].reshape(games, n)
        line = lines[:, :, r].reshape(games * n, len(at.line_keys))
        for k, (key, score, category) in enumerate(at.rounds):
            env["previous"] = previous[key]
            points = _category(score, category, env, made.get(key)) if category is not None else score(env, True)
            line[:, k] = points
        for k, (key, _, _) in enumerate(at.rounds):
            previous[key] = line[:, k].copy()
        _races(at, env, line, winners, given, games, n)
        lines[:, :, r] = line.reshape(games, n, len(at.line_keys))
    ends = _game_end(at, visited, lines, rows, table, games, n, failed)
    return Batch(at, list(seeds), drafts, choices, offered, lines, ends, failed.reshape(games, n).any(axis=1),
                 None if greedy is None else greedy.valued, None if greedy is None else greedy.spread)


def _next_awards(at: Plan, given: list, n: int, r: int, rounds: int) -> list:
    """Each race slot's next place's award, per game (0 where it cannot be worked out, as the bots take it)."""
    awards = []
    for slot, (_, region, _, award) in enumerate(at.races):
        place = given[slot] + 1
        pay = np.zeros(len(place), dtype=np.int64)
        for p in np.unique(place):
            env = {"place": int(p), "players": n, "round": r + 1, "rounds": rounds, "region": region,
                   "_failed": np.zeros(1, dtype=bool)}
            value = award(env, True)
            if not env["_failed"].any():
                pay = np.where(place == p, value, pay)
        awards.append(pay)
    return awards


def _column(rows: np.ndarray, k: int):
    return CardRows(rows[:, k])


class _Table:
    """Where each row's other seats are: its opponents from its left neighbour on (rows of the round's arrays),
    and, per seat, the columns of the other seats' cards in seat order within a game's cards (`others`)."""

    def __init__(self, n: int, games: int, hand: int):
        self.opponents = [(np.arange(games)[:, None] * n + (np.arange(n)[None, :] + step) % n).reshape(-1)
                          for step in range(1, n)]
        self.others = np.array([[other * hand + k for other in range(n) if other != seat for k in range(hand)]
                                for seat in range(n)], dtype=np.int64)


def _deal(stream: Stream, leftover: np.ndarray, size: int, n: int, hand: int, dealt: int):
    """Every game's hands (games x seats x cards) and its cards left undealt, as game/blocks/deal.py deals."""
    games = leftover.shape[0]
    if leftover.shape[1]:
        stream.shuffle(leftover)
        undealt = np.zeros((games, size), dtype=bool)
        np.put_along_axis(undealt, leftover, True, axis=1)
        rest = np.argsort(undealt, axis=1, kind="stable")[:, : size - leftover.shape[1]]
    else:
        rest = np.broadcast_to(np.arange(size), (games, size)).copy()
    stream.shuffle(rest)
    if not leftover.shape[1]:
        hands = rest[:, :dealt].reshape(games, n, hand)
        return hands, rest[:, dealt:]
    first = leftover[:, :dealt]
    rest = np.concatenate([leftover[:, dealt:], rest], axis=1)
    hands, at = [], 0
    for seat in range(n):
        own = first[:, seat::n]
        need = hand - own.shape[1]
        hands.append(np.concatenate([own, rest[:, at: at + need]], axis=1))
        at += need
    return np.stack(hands, axis=1), rest[:, at:]


def _draft(edition, at: Plan, hands: np.ndarray, keys: np.ndarray, r: int) -> np.ndarray:
    """Every seat's cards of round r in the order taken: a pick a pass by each random seat, the hands passed
    in the round's direction (the last card the other way with `catch: previous`), then the Catch. Each hand
    is one uint64 (a card every `bits` bits, in the hand's order) where it fits (_packed_draft), and the hands
    never move: seat s holds hand (s - turned) % n, as the generated game works it out."""
    bits = max(1, (len(at.deck.cards) - 1).bit_length())
    if bits * hands.shape[2] <= 64:
        return _packed_draft(edition, at, hands, keys, r, bits)
    return _rolled_draft(edition, at, hands, keys, r)


def _rolled_draft(edition, at: Plan, hands: np.ndarray, keys: np.ndarray, r: int) -> np.ndarray:
    """_draft with the hands as rows of cards, rolled round the table at each pass (hands too large to pack)."""
    games, n, hand = hands.shape
    taken = np.zeros((games, n, hand), dtype=np.int64)
    direction = edition.passing.direction(r)
    lanes = np.arange(games)[:, None]
    seats = np.arange(n)[None, :]
    for k, count in enumerate(range(hand, 1, -1)):
        kind = THROW if k == 0 and at.throw else DRAFT
        index = picks(keys, kind | (r + 1) << 2, count).reshape(games, n)
        taken[:, :, k] = hands[lanes, seats, index]
        keep = np.arange(count - 1)[None, None, :]
        hands = np.take_along_axis(hands, keep + (keep >= index[:, :, None]), axis=2)
        turn = -direction if count == 2 and edition.passing.catch == "previous" else direction
        hands = np.roll(hands, turn, axis=1)
    taken[:, :, hand - 1] = hands[:, :, 0]
    return taken


def _packed_draft(edition, at: Plan, hands: np.ndarray, keys: np.ndarray, r: int, bits: int) -> np.ndarray:
    """_draft with each hand one uint64: the k-th card at bits k*bits..., a pick of place i the bits below
    kept and those above shifted down (list.pop(i): the order of the rest unchanged)."""
    games, n, hand = hands.shape
    taken = np.zeros((games, n, hand), dtype=np.int64)
    width = np.uint64(bits)
    low = np.uint64((1 << bits) - 1)
    packed = np.zeros((games, n), dtype=np.uint64)
    for k in range(hand):
        packed |= hands[:, :, k].astype(np.uint64) << np.uint64(bits * k)
    direction = edition.passing.direction(r)
    seats = np.arange(n)
    turned = 0
    one = np.uint64(1)
    for k, count in enumerate(range(hand, 1, -1)):
        kind = THROW if k == 0 and at.throw else DRAFT
        index = picks(keys, kind | (r + 1) << 2, count).reshape(games, n)
        held = (seats - turned) % n     # the hand each seat holds
        mine = packed[:, held]
        shift = index.astype(np.uint64) * width
        taken[:, :, k] = ((mine >> shift) & low).astype(np.int64)
        below = mine & ((one << shift) - one)
        packed[:, held] = below | ((mine >> (shift + width)) << shift)
        turn = -direction if count == 2 and edition.passing.catch == "previous" else direction
        turned += turn
    held = (seats - turned) % n
    taken[:, :, hand - 1] = (packed[:, held] & low).astype(np.int64)
    return taken


def _choose(at: Plan, env: dict, keys: np.ndarray, used: dict, previous: dict, r: int) -> tuple[dict, dict]:
    """Each seat's icon for each choice category (its index in the family, -1: none), as the random bot
    answers: the icons it may pick in the family's order, then none; and how many options it had."""
    made, counts = {}, {}
    for key, _, category in at.rounds:
        if category is None:
            continue
        family, requires = category.choice.family, at.requires[key]
        env["previous"] = previous[key]
        allowed = []
        for i, icon in enumerate(family.icons):
            free = ~used[key][:, i] if category.choice.once_per_game else np.ones(len(keys), dtype=bool)
            if requires is not None:
                env["choice"] = icon
                free = free & requires(env, free)
            allowed.append(np.broadcast_to(free, (len(keys),)))
        env.pop("choice", None)
        allowed = np.stack(allowed, axis=1)
        count = allowed.sum(axis=1) + 1
        code = zlib.crc32(key.encode("utf-8"))
        index = picks(keys, CHOICE | (r + 1) << 2 | code << 24, count)
        rank = np.cumsum(allowed, axis=1) - 1
        hit = allowed & (rank == index[:, None])
        icon = np.where(hit.any(axis=1), hit.argmax(axis=1), -1)
        if category.choice.once_per_game:
            chosen = icon >= 0
            used[key][np.flatnonzero(chosen), icon[chosen]] = True
        made[key], counts[key] = icon, count
    return made, counts


def _category(score, category, env: dict, icon: np.ndarray) -> np.ndarray:
    """A choice category's points: its score at each seat's icon, 0 for none."""
    points = np.zeros(len(icon), dtype=np.int64)
    for i, name in enumerate(category.choice.family.icons):
        rows = icon == i
        if rows.any():
            env["choice"] = name
            points = np.where(rows, score(env, rows), points)
    env.pop("choice", None)
    return points


def _races(at: Plan, env: dict, line: np.ndarray, winners: list, given: list, games: int, n: int) -> None:
    """Each race slot: the seats that qualify and have not taken it share the next place; its award added."""
    everywhere = np.ones(games * n, dtype=bool)
    for slot, (key, region, qualifies, award) in enumerate(at.races):
        env["region"] = region
        takers = np.broadcast_to(qualifies(env, everywhere), (games * n,)) & ~winners[slot]
        if not takers.any():
            continue
        winners[slot] |= takers
        lane_takes = takers.reshape(games, n).any(axis=1)
        place = given[slot] + 1
        given[slot] = given[slot] + lane_takes
        pay = np.zeros(games, dtype=np.int64)
        for p in np.unique(place[lane_takes]):
            award_env = {"place": int(p), "players": n, "round": env["round"], "rounds": env["rounds"],
                         "region": region, "_failed": env["_failed"]}
            pay = np.where(place == p, award(award_env, True), pay)
        column = at.line_keys.index(key)
        line[:, column] += np.where(takers, np.repeat(pay, n), 0)
    env.pop("region", None)


class _Lines:
    """`lines` at the game's end: lines.KEY is the seat's points on that round line, round by round."""

    def __init__(self, keys: tuple, lines: np.ndarray):
        for k, key in enumerate(keys):
            setattr(self, key, Items(tuple((None, lines[:, r, k]) for r in range(lines.shape[1]))))


def _game_end(at: Plan, visited: np.ndarray, lines: np.ndarray, last: np.ndarray, table, games: int, n: int,
              failed: np.ndarray) -> np.ndarray:
    ends = np.zeros((games, n, len(at.ends)), dtype=np.int64)
    if not at.ends:
        return ends
    rows = lines.reshape(games * n, lines.shape[2], lines.shape[3])
    counted = [k for k, key in enumerate(at.line_keys) if key in at.counting]
    env = {"visited": MaskCards(at.deck, visited), "players": n, "rounds": lines.shape[2], "_failed": failed,
           "_drafts": last, "_visited": visited,
           "opponents": Items(tuple((None, SeatRows(seat)) for seat in table.opponents)),
           "left": SeatRows(table.opponents[0]), "right": SeatRows(table.opponents[-1]),
           "round_totals": Items(tuple((None, rows[:, r, counted].sum(axis=1)) for r in range(rows.shape[1]))),
           "lines": _Lines(at.line_keys, rows)}
    for e, (_, score) in enumerate(at.ends):
        ends[:, :, e] = np.broadcast_to(score(env, True), (games * n,)).reshape(games, n)
    return ends
