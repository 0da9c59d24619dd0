"""Helpers for the hand-traced round tests: one way to name a hand and one way to play "everyone takes their
first option", so each test's docstring and its trace read the same letters."""

from __future__ import annotations


def letters(cards) -> str:
    """A hand or draft as its cards' letters, in order: "GZWYB"."""
    return "".join(c.letter for c in cards)


def first_options(game) -> None:
    """Every pending seat answers with its first option (one pass of a drafting round)."""
    for decision in game.pending():
        game.apply(decision.seat, decision.options[0])


def first_options_until(game, phase: str) -> list:
    """First options until the game reaches `phase`; the decisions pending there."""
    while game.phase != phase:
        first_options(game)
    return game.pending()
