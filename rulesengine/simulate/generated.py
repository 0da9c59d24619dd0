"""Random-seat games through the generated whole game (rulesengine/compiled): the figures games.play_games gives.

Where the batch simulator does not play a line-up of random seats (numpy is not installed, or the
edition has a part the batch lacks: the score sheet so far, choices allowed twice, hand sizes by
round...), the generated game often does: it plays the engine's games for the same seeds
(tests/test_compiled_game.py) and gives the engine's record, sheet and the options of every
decision, from which game_figures reads each game's figures as it does from the engine's.
`generated_reason` says why it does not play a line-up, and the engine plays then.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..edition.model import Edition
from .figures import GameFigures, Play, game_figures
from .tally import Layout

GENERATED = "generated"                                  # what play_games is told (see runner.runners)
GENERATED_BY = "the generated game (rulesengine/compiled;"   # how the output says it, with why not the batch


def generated_reason(edition: Edition, kinds: Sequence[str], games: int) -> str | None:
    """None when the generated game plays this many of this edition's games with this line-up; else why not."""
    if any(kind != "random" for kind in kinds):
        return "the generated game plays random seats only"
    from ..compiled import GENERATED_FROM, fallback

    if games < GENERATED_FROM:
        return f"{games} games: the generated game pays for its compiling from {GENERATED_FROM}"

    why = fallback(edition)
    return None if why is None else f"the generated game does not play {why}"


def play_generated(edition: Edition, layout: Layout, deals: Sequence) -> list[GameFigures]:
    """The deals' games, one by one (the caller asked generated_reason first): each game's figures. A game
    whose scoring meets an error is played by the engine, which raises it, located."""
    from ..compiled import play_random

    n = layout.players
    names = [f"P{seat + 1}" for seat in range(n)]
    figures = []
    for deal in deals:
        bots = [(seat + deal.shift) % n for seat in range(n)]   # seat s gets the bot seeded for s + shift
        played = play_random(edition, names, deal.seed, bots, record=True)
        offered = played.offered
        play = Play(len(offered), sum(count > 1 for count in offered), sum(offered), 0, 0.0)
        figures.append(game_figures(played.record, played.scores.sheet(), layout.sheet_keys, layout.race_keys,
                                    play))
    return figures

