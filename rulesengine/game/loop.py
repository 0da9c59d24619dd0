"""Drives a game to its end with one agent per seat; the same loop serves terminal, bots and simulation."""

from __future__ import annotations

from collections.abc import Callable

from .state import Game


def play(game: Game, agents: list, on_step: Callable[[Game], None] | None = None) -> Game:
    """Ask each pending decision of the seat's agent until the game is over.

    An agent whose class sets lazy_view = True gets a view worked out as it reads it (game.view);
    every other agent (terminals, the network) gets the full dict."""
    while not game.over:
        for decision in game.pending():
            agent = agents[decision.seat]
            answer = agent.decide(game.view(decision.seat, lazy=getattr(agent, "lazy_view", False)), decision)
            game.apply(decision.seat, answer, decision.category)
            if on_step:
                on_step(game)
    return game
