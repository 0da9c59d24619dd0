"""Drives a game to its end with one agent per seat; the same loop serves terminal, bots and simulation."""

from __future__ import annotations

from collections.abc import Callable

from .state import Game


def play(game: Game, agents: list, on_step: Callable[[Game], None] | None = None) -> Game:
    """Ask each pending decision of the seat's agent until the game is over.

    An agent whose class sets lazy_view = True gets a view worked out as it reads it (game.view);
    one that sets reads_view = False (a random bot drawing from integer seeds) gets None, as it never
    looks; every other agent (terminals, the network) gets the full dict."""
    reads = [getattr(agent, "reads_view", True) for agent in agents]
    lazy = [getattr(agent, "lazy_view", False) for agent in agents]
    view, apply, pending = game.view, game.apply, game.pending
    while not game.over:
        for decision in pending():
            seat = decision.seat
            answer = agents[seat].decide(view(seat, lazy[seat]) if reads[seat] else None, decision)
            apply(seat, answer, decision.category)
            if on_step:
                on_step(game)
    return game
