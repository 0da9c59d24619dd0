"""Random-seat games through the batch simulator (rulesengine/fast): the figures games.play_games gives.

The batch plays the engine's games for the same seeds (tests/test_fast_batch.py); this reads each
game's figures from its arrays as game_figures reads them from the engine's record and sheet: the
sheet's lines, the ranking (game/ranking.py, the one place it lives), the round totals and races
for the arc, the Throws, first picks and Catches, and what the seats were asked. It plays a line-up
of random seats, or of greedy seats (the greedy bot's policy with a random stream of its own:
rulesengine/fast/greedy.py), of an edition the batch covers, with numpy installed; `engine_reason`
says why not otherwise, and the engine plays. tests/test_simulate_batched.py holds a simulation's report
through it to the engine's, figure for figure.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..edition.model import Edition
from ..game.ranking import rank_seats
from .figures import WIN_UNIT, GameFigures, Play, game_arc
from .tally import Layout

BATCH = "the batch simulator (rulesengine/fast, numpy)"
GREEDY_BATCH = ("the batch simulator's greedy seats (rulesengine/fast, numpy): the greedy bot's policy with a random "
                "stream of its own, not the engine's games")
BATCHES = (BATCH, GREEDY_BATCH)
# what report.json declares of the greedy batch's random numbers (editions[i].random_stream)
GREEDY_STREAM = ("the deal is the engine's (each game's random.Random(seed)); each greedy seat's sampled worlds and "
                 "completions draw from splitmix64 of its bot's key and a counter (rulesengine/fast/greedy.py), not "
                 "from the engine's Mersenne Twister: the same policy, checked against the engine's greedy games by "
                 "a statistical equivalence test (tests/test_fast_greedy.py)")
BATCH_FROM = 200    # games: fewer are played by the engine sooner than numpy is imported (~0.1 s, ~150 games)
GREEDY_FROM = 10    # greedy games: the engine plays ~30 a second, numpy's start is worth it from a few


def batch_seats(kinds: Sequence[str]) -> str | None:
    """The seats the batch plays this line-up with: "random" or "greedy" (every seat alike), else None."""
    found = set(kinds)
    return found.pop() if len(found) == 1 and found <= {"random", "greedy"} else None


def who_plays(edition: Edition, kinds: Sequence[str], games: int) -> str:
    """Who plays this many of this edition's games with this line-up: the batch (BATCH, GREEDY_BATCH), or
    the engine, saying why."""
    why = engine_reason(edition, kinds, games)
    if why is not None:
        return f"the engine ({why})"
    return GREEDY_BATCH if batch_seats(kinds) == "greedy" else BATCH


def engine_reason(edition: Edition, kinds: Sequence[str], games: int = BATCH_FROM) -> str | None:
    """None when the batch plays this many of this edition's games with this line-up; else why the engine
    plays them."""
    seats = batch_seats(kinds)
    if seats is None:
        return "the batch plays a line-up of random seats or of greedy seats only, and this one has " + ", ".join(
            sorted(set(kinds)))
    least = GREEDY_FROM if seats == "greedy" else BATCH_FROM
    if games < least:    # before numpy is imported
        return f"{games} games: the batch pays for numpy's start from {least}"
    from ..fast import missing_numpy

    missing = missing_numpy()
    if missing is not None:
        return missing
    from ..fast.plan import fallback, greedy_fallback

    why = fallback(edition)
    if why is None and seats == "greedy":
        why = greedy_fallback(edition)
    return None if why is None else f"the batch does not play {why}"


def play_batch(edition: Edition, layout: Layout, deals: Sequence) -> list[GameFigures | None]:
    """The deals' games played at once (the caller asked engine_reason first): each game's figures, or
    None for a game whose scoring met an error (the engine plays it again and reports the error)."""
    return figures_of(edition, layout, play_block(edition, layout, deals))


def play_block(edition: Edition, layout: Layout, deals: Sequence):
    """The deals' games played at once (the caller asked engine_reason first): the batch's arrays
    (rulesengine/fast/batch.Batch; its `failed` games the engine must play again)."""
    import numpy as np

    from ..fast.batch import play

    n = layout.players
    bot_seats = np.array([[(seat + deal.shift) % n for seat in range(n)] for deal in deals], dtype=np.int64)
    seats = batch_seats(layout.kinds)
    return play(edition, n, [deal.seed for deal in deals], bot_seats, seats)


def figures_of(edition: Edition, layout: Layout, batch) -> list[GameFigures | None]:
    """Each game's figures from the batch's arrays (None where it failed)."""
    import numpy as np

    from .columns import sheet_points

    games, rounds, n, hand = batch.drafts.shape
    line_at = {key: k for k, key in enumerate(batch.plan.line_keys)}
    sheet = sheet_points(layout, batch, line_at)
    round_totals = batch.lines.sum(axis=3).transpose(0, 2, 1)          # games x rounds x seats: every line
    races = [(batch.lines[:, :, :, line_at[key]] > 0).transpose(0, 2, 1).tolist()   # games x rounds x seats
             for key in layout.race_keys]
    taken = np.array(layout.letters, dtype=object)[batch.drafts.transpose(0, 2, 1, 3)]  # games x seats x rounds x cards
    thrown, caught = taken[:, :, :, 0].tolist(), taken[:, :, :, -1].tolist()
    first = taken[:, :, :, 1].tolist() if hand > 2 else [[[]] * n] * games
    drafted = taken.reshape(games, n, -1).tolist()
    asked_draft = rounds * n * (hand - 1)
    options_draft = rounds * n * (hand * (hand + 1) // 2 - 1)
    offered = batch.offered.reshape(games, -1)
    asked = asked_draft + offered.shape[1]
    options = (options_draft + offered.sum(axis=1)).tolist()
    choices = (asked_draft + (offered >= 2).sum(axis=1)).tolist()
    valued = batch.valued.tolist() if batch.valued is not None else [0] * games
    spread = batch.spread.tolist() if batch.spread is not None else [0.0] * games
    tie_breaks, lowest = tuple(edition.tie_breaks), edition.lowest_first
    keys, seats = layout.sheet_keys, range(n)
    out: list[GameFigures | None] = []
    for g, (points, totals, by_round, failed) in enumerate(zip(sheet.tolist(), batch.totals.tolist(),
                                                               round_totals.tolist(), batch.failed.tolist(),
                                                               strict=True)):
        if failed:
            out.append(None)
            continue
        ordered = sorted(totals, reverse=True)
        tied = n > 1 and ordered[0] == ordered[1]
        decided_by = None
        if tied:      # the tie-breaks, as the sheet ranks (with no tie, the best total wins and nothing decides)
            ranking = rank_seats(totals, [dict(zip(keys, row, strict=True)) for row in points], tie_breaks, lowest)
            winners = set(ranking.winners)
            decided_by = ranking.decided_by.key if ranking.decided_by else "shared"
        else:
            winners = {totals.index(ordered[0])}
        share = WIN_UNIT // len(winners)
        arc = game_arc(by_round, winners)
        out.append(GameFigures(
            points=tuple(map(tuple, points)),
            totals=tuple(totals),
            wins=tuple(share if seat in winners else 0 for seat in seats),
            margin=ordered[0] - ordered[1] if n > 1 else 0,
            tied=tied,
            decided_by=decided_by,
            lead_changes=arc.lead_changes,
            late_leader_lost=arc.late_leader_lost,
            race_rounds=tuple(tuple(r for r, row in enumerate(won[g], 1) for hit in row if hit) for won in races),
            thrown=tuple(map(tuple, thrown[g])),
            taken_first=tuple(map(tuple, first[g])),
            caught=tuple(map(tuple, caught[g])),
            drafted=tuple(map(frozenset, drafted[g])),
            drama=arc.drama,
            decisive_round=arc.decisive_round,
            play=Play(asked, choices[g], options[g], valued[g], spread[g]),
        ))
    return out
