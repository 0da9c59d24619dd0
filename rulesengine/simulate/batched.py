"""Random-seat games through the batch simulator (rulesengine/fast): the figures games.play_games gives.

The batch plays the engine's games for the same seeds (tests/test_fast_batch.py); this reads each
game's figures from its arrays as game_figures reads them from the engine's record and sheet: the
sheet's lines, the ranking (game/ranking.py, the one place it lives), the round totals and races
for the arc, the Throws, first picks and Catches, and what the seats were asked. It plays a line-up
of random seats only, of an edition the batch covers, with numpy installed; `engine_reason` says
why not otherwise, and the engine plays. tests/test_simulate_batched.py holds a simulation's report
through it to the engine's, figure for figure.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..edition.model import Edition
from ..game.ranking import rank_seats
from .figures import WIN_UNIT, GameFigures, Play, game_arc
from .tally import Layout

BATCH = "the batch simulator (rulesengine/fast, numpy)"


def engine_reason(edition: Edition, kinds: Sequence[str]) -> str | None:
    """None when the batch plays this edition's games with this line-up; else why the engine plays them."""
    if any(kind != "random" for kind in kinds):
        return "the batch plays random seats only, and the line-up has " + ", ".join(
            sorted({kind for kind in kinds if kind != "random"}))
    from ..fast import missing_numpy

    missing = missing_numpy()
    if missing is not None:
        return missing
    from ..fast.batch import fallback

    why = fallback(edition)
    return None if why is None else f"the batch does not play {why}"


def play_batch(edition: Edition, layout: Layout, deals: Sequence) -> list[GameFigures | None]:
    """The deals' games played at once (the caller asked engine_reason first): each game's figures, or
    None for a game whose scoring met an error (the engine plays it again and reports the error)."""
    import numpy as np

    from ..fast.batch import play

    n = layout.players
    bot_seats = np.array([[(seat + deal.shift) % n for seat in range(n)] for deal in deals], dtype=np.int64)
    return figures_of(edition, layout, play(edition, n, [deal.seed for deal in deals], bot_seats))


def figures_of(edition: Edition, layout: Layout, batch) -> list[GameFigures | None]:
    """Each game's figures from the batch's arrays (None where it failed)."""
    import numpy as np

    plan = batch.plan
    games, rounds, n, hand = batch.drafts.shape
    line_at = {key: k for k, key in enumerate(plan.line_keys)}
    end_at = {key: e for e, (key, _) in enumerate(plan.ends)}
    sheet = np.zeros((games, n, len(layout.sheet_keys)), dtype=np.int64)
    for column, key in enumerate(layout.sheet_keys):
        if key in line_at:
            sheet[:, :, column] = batch.lines[:, :, :, line_at[key]].sum(axis=2)
        elif key in end_at:
            sheet[:, :, column] = batch.ends[:, :, end_at[key]]
    round_totals = batch.lines.sum(axis=3).transpose(0, 2, 1)          # games x rounds x seats: every line
    race_won = [batch.lines[:, :, :, line_at[key]] > 0 for key in layout.race_keys]   # games x seats x rounds
    letters = np.array(layout.letters, dtype=object)[batch.drafts]     # games x rounds x seats x cards
    asked_draft = rounds * n * (hand - 1)
    options_draft = rounds * n * (hand * (hand + 1) // 2 - 1)
    offered = batch.offered.reshape(games, -1)
    asked = asked_draft + offered.shape[1]
    options = (options_draft + offered.sum(axis=1)).tolist()
    choices = (asked_draft + (offered >= 2).sum(axis=1)).tolist()
    tie_breaks, lowest = tuple(edition.tie_breaks), edition.lowest_first
    keys = layout.sheet_keys
    out: list[GameFigures | None] = []
    for g, (points, totals, by_round, failed) in enumerate(zip(sheet.tolist(), batch.totals.tolist(),
                                                               round_totals.tolist(), batch.failed.tolist(),
                                                               strict=True)):
        if failed:
            out.append(None)
            continue
        lines = [dict(zip(keys, row, strict=True)) for row in points]
        ranking = rank_seats(totals, lines, tie_breaks, lowest)
        winners = set(ranking.winners)
        best = max(totals)
        tied = totals.count(best) > 1
        ordered = sorted(totals, reverse=True)
        share = WIN_UNIT // len(winners)
        arc = game_arc(by_round, winners)
        dealt = letters[g]
        out.append(GameFigures(
            points=tuple(tuple(row) for row in points),
            totals=tuple(totals),
            wins=tuple(share if seat in winners else 0 for seat in range(n)),
            margin=ordered[0] - ordered[1] if n > 1 else 0,
            tied=tied,
            decided_by=(ranking.decided_by.key if ranking.decided_by else "shared") if tied else None,
            lead_changes=arc.lead_changes,
            late_leader_lost=arc.late_leader_lost,
            race_rounds=tuple(tuple(r + 1 for r in range(rounds) for seat in range(n) if won[g, seat, r])
                              for won in race_won),
            thrown=tuple(tuple(dealt[:, seat, 0]) for seat in range(n)),
            taken_first=tuple(tuple(dealt[:, seat, 1]) if hand > 2 else () for seat in range(n)),
            caught=tuple(tuple(dealt[:, seat, -1]) for seat in range(n)),
            drafted=tuple(frozenset(dealt[:, seat].ravel()) for seat in range(n)),
            drama=arc.drama,
            decisive_round=arc.decisive_round,
            play=Play(asked, choices[g], options[g], 0, 0.0),
        ))
    return out
