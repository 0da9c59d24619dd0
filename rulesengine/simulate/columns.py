"""A block of batch games tallied at once: the counts and sums EditionTally.add makes game by game, over arrays.

figures_of (batched.py) reads each game's figures into a GameFigures and EditionTally.add counts it: about
130 µs a game in Python, 3x the batch's own games (bench/commands.py, #35). Here the same figures are columns
over the block's games (numpy), and each shard's tally is filled from them directly: the same counters, the
same integer sums, and every floating-point sum added in game order (np.cumsum is sequential, np.sum is not),
so a shard's tally, and so report.json, is the one the game-by-game path gives to the last bit
(tests/test_simulate_columns.py holds the two together). It counts what figures.measures counts; a measure
added there must be added here (that test fails until it is).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..game.ranking import rank_seats
from .figures import WIN_UNIT
from .statistics import Moments
from .tally import EditionTally, Layout, PairedTally


@dataclass(frozen=True)
class Columns:
    """One edition's figures of a block of games, by game (first axis) and seat: GameFigures as arrays."""

    points: np.ndarray           # games x seats x sheet keys
    totals: np.ndarray           # games x seats
    wins: np.ndarray             # games x seats: the share of the victory in WIN_UNITs
    margin: np.ndarray           # games
    tied: np.ndarray             # games: the best total shared before the tie-breaks
    decided_by: dict             # game -> the tie-break that decided its tie ("shared": none), tied games only
    lead_changes: np.ndarray     # games (figures.game_arc)
    late_leader_lost: np.ndarray
    drama: np.ndarray
    decisive_round: np.ndarray
    races: tuple                 # race key -> games x rounds x seats: the seat was awarded points that round
    thrown: np.ndarray           # games x rounds x seats: the letter code of each Throw
    taken_first: np.ndarray | None   # the same of each first pick after the Throw (None: hands of two cards)
    caught: np.ndarray
    drafted: np.ndarray          # games x seats x letter codes: the seat drafted that letter in the game
    asked: int                   # decisions a game, every seat, forced ones included (the same in every game)
    choices: np.ndarray          # games
    options: np.ndarray
    valued: np.ndarray
    spread: np.ndarray


def letter_codes(letters: tuple) -> tuple[list, np.ndarray]:
    """The distinct letters in the tally's order (EditionTally.cards), and each card's index among them."""
    codes: dict = {}
    for letter in letters:
        codes.setdefault(letter, len(codes))
    return list(codes), np.array([codes[letter] for letter in letters], dtype=np.int64)


def sheet_points(layout: Layout, batch, line_at: dict) -> np.ndarray:
    """games x seats x the layout's sheet keys: a round line's points summed over the rounds, a game-end
    category's as scored (line_at: the plan's line key -> its index in batch.lines)."""
    games, rounds, n, hand = batch.drafts.shape
    end_at = {key: e for e, (key, _) in enumerate(batch.plan.ends)}
    points = np.zeros((games, n, len(layout.sheet_keys)), dtype=np.int64)
    for column, key in enumerate(layout.sheet_keys):
        if key in line_at:
            points[:, :, column] = batch.lines[:, :, :, line_at[key]].sum(axis=2)
        elif key in end_at:
            points[:, :, column] = batch.ends[:, :, end_at[key]]
    return points


def columns_of(edition, layout: Layout, batch) -> Columns:
    """The figures of a batch none of whose games failed (batched.figures_of reads the same game by game)."""
    games, rounds, n, hand = batch.drafts.shape
    line_at = {key: k for k, key in enumerate(batch.plan.line_keys)}
    points = sheet_points(layout, batch, line_at)
    totals = np.asarray(batch.totals, dtype=np.int64)
    ordered = -np.sort(-totals, axis=1)
    tied = ordered[:, 0] == ordered[:, 1] if n > 1 else np.zeros(games, dtype=bool)
    margin = ordered[:, 0] - ordered[:, 1] if n > 1 else np.zeros(games, dtype=np.int64)
    winners = np.zeros((games, n), dtype=bool)
    winners[np.arange(games), np.argmax(totals, axis=1)] = True
    decided_by = {}
    for g in np.flatnonzero(tied).tolist():    # the tie-breaks, as the sheet ranks (game/ranking.py)
        rows = [dict(zip(layout.sheet_keys, row, strict=True)) for row in points[g].tolist()]
        ranking = rank_seats(totals[g].tolist(), rows, tuple(edition.tie_breaks), edition.lowest_first)
        winners[g] = [seat in ranking.winners for seat in range(n)]
        decided_by[g] = ranking.decided_by.key if ranking.decided_by else "shared"
    wins = winners * (WIN_UNIT // winners.sum(axis=1))[:, None]
    arc = _arc(batch.lines.sum(axis=3).transpose(0, 2, 1), winners)
    names, code = letter_codes(layout.letters)
    taken = code[batch.drafts]                                         # games x rounds x seats x cards
    drafted = np.zeros((games, n, len(names)), dtype=bool)
    np.put_along_axis(drafted, taken.transpose(0, 2, 1, 3).reshape(games, n, -1), True, axis=2)
    offered = batch.offered.reshape(games, -1)
    asked_draft = rounds * n * (hand - 1)
    return Columns(
        points=points, totals=totals, wins=wins, margin=margin, tied=tied, decided_by=decided_by,
        lead_changes=arc[0], late_leader_lost=arc[1], drama=arc[2], decisive_round=arc[3],
        races=tuple(batch.lines[:, :, :, line_at[key]].transpose(0, 2, 1) > 0 for key in layout.race_keys),
        thrown=taken[..., 0], taken_first=taken[..., 1] if hand > 2 else None, caught=taken[..., -1],
        drafted=drafted,
        asked=asked_draft + offered.shape[1],
        choices=asked_draft + (offered >= 2).sum(axis=1),
        options=rounds * n * (hand * (hand + 1) // 2 - 1) + offered.sum(axis=1),
        valued=np.zeros(games, dtype=np.int64) if batch.valued is None else np.asarray(batch.valued),
        spread=np.zeros(games) if batch.spread is None else np.asarray(batch.spread, dtype=np.float64),
    )


def _arc(round_totals: np.ndarray, winners: np.ndarray) -> tuple:
    """figures.game_arc over games x rounds x seats of each round's points: lead changes, the leader before
    the last round lost, drama, the decisive round (each an array over the games)."""
    games, rounds, _ = round_totals.shape
    standings = np.cumsum(round_totals, axis=1)
    best = standings.max(axis=2)
    leaders = standings == best[:, :, None]
    changes = (~(leaders[:, :-1] & leaders[:, 1:]).any(axis=2)).sum(axis=1)
    if rounds < 2:
        zero = np.zeros(games, dtype=np.int64)
        return changes, zero, zero, np.full(games, rounds, dtype=np.int64)
    late = (~(leaders[:, -2] & winners).any(axis=1)).astype(np.int64)
    behind = (best[:, :-1, None] - standings[:, :-1]).max(axis=1)      # games x seats: the most a seat trailed
    drama = np.where(winners, behind, np.iinfo(np.int64).max).min(axis=1)
    led_by_winners = (~leaders[:, :-1] | winners[:, None, :]).all(axis=2)   # after each round before the last
    decisive = rounds - np.cumprod(led_by_winners[:, ::-1], axis=1).sum(axis=1)
    return changes, late, drama, decisive


def _moments(values: np.ndarray, whole: bool) -> Moments:
    """Moments.add of each value in turn: integers summed exactly, floats in order from 0 (as the tally adds)."""
    if whole:
        return Moments(len(values), int(values.sum()), int((values * values).sum()))
    return Moments(len(values), float(np.cumsum(values)[-1]), float(np.cumsum(values * values)[-1]))


def _measures(layout: Layout, columns: Columns, entry_at: np.ndarray) -> dict:
    """figures.measures of every game: name -> (values, whole numbers?, the games that have it or None)."""
    n = layout.players
    grand = columns.totals.sum(axis=1)
    found = {"total": (grand / n, False, None)}
    for index, key in enumerate(layout.sheet_keys):
        points = columns.points[:, :, index].sum(axis=1)
        found[f"points.{key}"] = (points / n, False, None)
        if key not in layout.uncounted:
            found[f"share.{key}"] = (np.where(grand != 0, points / np.where(grand != 0, grand, 1), 0.0), False, None)
    found["margin"] = (columns.margin, True, None)
    found["tie"] = (columns.tied.astype(np.int64), True, None)
    found["lead_changes"] = (columns.lead_changes, True, None)
    found["late_leader_lost"] = (columns.late_leader_lost, True, None)
    found["drama"] = (columns.drama, True, None)
    found["decisiveness"] = (columns.decisive_round, True, None)
    found["decisions"] = (columns.choices / n, False, None)
    found["branching"] = (columns.options / columns.asked if columns.asked else np.zeros(len(grand)), False, None)
    found["clarity"] = (columns.spread / np.where(columns.valued != 0, columns.valued, 1), False, columns.valued != 0)
    for seat in range(n):
        found[f"win.position{seat + 1}"] = (columns.wins[:, seat] / WIN_UNIT, False, None)
    for entry in range(n):
        found[f"win.entry{entry + 1}"] = ((columns.wins * (entry_at == entry)).sum(axis=1) / WIN_UNIT, False, None)
    return found


def _order(found: dict, entry_at: np.ndarray, at: int) -> list:
    """The measures' names in the order EditionTally.add first meets them in a shard starting at game `at`:
    the shard's first game's own order (its line-up entries seat by seat), then what later games add."""
    entries = [f"win.entry{entry + 1}" for entry in entry_at[at].tolist()]
    first = [name for name, (_, _, has) in found.items() if not name.startswith("win.entry")
             and (has is None or has[at])] + entries
    return first + [name for name, (_, _, has) in found.items() if has is not None and not has[at]]


def add_counts(tally: EditionTally, columns: Columns, entry_at: np.ndarray, start: int, stop: int) -> None:
    """The counts and integer sums EditionTally.add makes of games start..stop-1 (all but the games and the
    measures' moments), at once."""
    layout, part = tally.layout, slice(start, stop)
    points, wins = columns.points[part], columns.wins[part]
    for index, key in enumerate(layout.sheet_keys):
        values = points[:, :, index]
        _count(tally.points[key], values)
        sums = tally.with_winning[key]
        for position, total in enumerate((values.size, values.sum(), wins.sum(), (values * values).sum(),
                                          (wins * wins).sum(), (values * wins).sum())):
            sums[position] += int(total)
    _count(tally.points["total"], columns.totals[part])
    for seat in range(layout.players):
        tally.wins_by_position[seat] += int(wins[:, seat].sum())
        tally.wins_by_entry[seat] += int((wins * (entry_at[part] == seat)).sum())
    _count(tally.margins, columns.margin[part])
    tally.ties += int(columns.tied[part].sum())
    tally.decided_by.update(decider for g, decider in columns.decided_by.items() if start <= g < stop)
    _count(tally.lead_changes, columns.lead_changes[part])
    for key, hits in zip(layout.race_keys, columns.races, strict=True):
        by_round = hits[part].sum(axis=(0, 2)).tolist()
        tally.race_rounds[key].update({r: count for r, count in enumerate(by_round, 1) if count})
        awarded = int(hits[part].any(axis=(1, 2)).sum())
        if awarded:
            tally.race_games[key] += awarded
    names = list(tally.cards)
    counted = [columns.thrown, columns.taken_first, columns.caught]
    for slot, codes in enumerate(counted):
        if codes is not None:
            for code, count in enumerate(np.bincount(codes[part].ravel(), minlength=len(names)).tolist()):
                tally.cards[names[code]][slot] += count
    drafted = columns.drafted[part]
    for code, (count, won) in enumerate(zip(drafted.sum(axis=(0, 1)).tolist(),
                                            (drafted * wins[:, :, None]).sum(axis=(0, 1)).tolist(), strict=True)):
        tally.cards[names[code]][3] += count
        tally.cards[names[code]][4] += won


def add_measures(tally: EditionTally, found: dict, entry_at: np.ndarray, start: int, stop: int) -> None:
    """The games and the measures' moments EditionTally.add makes of games start..stop-1 in turn, at once."""
    part = slice(start, stop)
    tally.games += stop - start
    for name in _order(found, entry_at, start):
        values, whole, has = found[name]
        values = values[part] if has is None else values[part][has[part]]
        if len(values):
            tally.measures[name] = _moments(values, whole)


def add_paired(paired: PairedTally, first: dict, second: dict, entry_at: np.ndarray, start: int, stop: int) -> None:
    """PairedTally.add of games start..stop-1 (second edition minus first), at once."""
    part = slice(start, stop)
    paired.games += stop - start
    for name in _order(second, entry_at, start):
        if name not in first:
            continue
        (mine, whole, has), (theirs, _, had) = second[name], first[name]
        both = np.ones(stop - start, dtype=bool)
        for mask in (has, had):
            if mask is not None:
                both &= mask[part]
        if both.any():
            paired.differences[name] = _moments((mine[part] - theirs[part])[both], whole)


def _count(counter: Counter, values: np.ndarray) -> None:
    """counter[value] += 1 for every value."""
    found, counts = np.unique(values, return_counts=True)
    counter.update(dict(zip(found.tolist(), counts.tolist(), strict=True)))


def tally_columns(layouts: tuple, columns: list, entry_at: np.ndarray, bounds: list) -> list:
    """Each shard's tallies (and paired tally, for two editions) from the block's columns; bounds: each shard's
    (index, first game, end) within the block, in order.

    The whole block's counts and integer sums ride on its first shard's tally, and the others carry their
    games and moments alone: the shards are merged in order (runner.merge_in_order), whole numbers add up
    alike in any grouping, and a float sum still meets each shard's in turn. A worker then sends, and the
    driver merges, one shard's counters a block, not forty (the driver's share of --jobs 2, bench/commands.py)."""
    from .shards import ShardResult

    found = [_measures(layout, block, entry_at) for layout, block in zip(layouts, columns, strict=True)]
    results = []
    for position, (index, start, stop) in enumerate(bounds):
        tallies = tuple(EditionTally(layout) for layout in layouts)
        for tally, block, measured in zip(tallies, columns, found, strict=True):
            if position == 0:
                add_counts(tally, block, entry_at, start, bounds[-1][2])
            else:
                _counted_on_the_first(tally)
            add_measures(tally, measured, entry_at, start, stop)
        paired = None
        if len(layouts) == 2:
            paired = PairedTally()
            add_paired(paired, found[0], found[1], entry_at, start, stop)
        results.append(ShardResult(index, tallies, paired))
    return results


def _counted_on_the_first(tally: EditionTally) -> None:
    """A later shard of a block: its counts are on the block's first shard; what a merge reads of it is empty."""
    tally.points, tally.with_winning, tally.race_rounds, tally.cards, tally.kept = {}, {}, {}, {}, {}
