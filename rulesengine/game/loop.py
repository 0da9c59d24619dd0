"""Drives a game to its end with one agent per seat; the same loop serves terminal, bots and simulation."""

from __future__ import annotations

from collections.abc import Callable

from .state import Game


def play(game: Game, agents: list, on_step: Callable[[Game], None] | None = None) -> Game:
    """Ask each pending decision of the seat's agent until the game is over."""
    while not game.over:
        for decision in game.pending():
            answer = agents[decision.seat].decide(game.view(decision.seat), decision)
            game.apply(decision.seat, answer, decision.category)
            if on_step:
                on_step(game)
    return game
