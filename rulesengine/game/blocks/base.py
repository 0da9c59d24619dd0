"""What every drafting block answers by default: a block that asks nothing (see blocks/__init__.py)."""

from __future__ import annotations


class Block:
    quick = False  # True only for a pick block that takes one card a pass (Game.apply's hot path: see blocks/)

    def __init__(self, step):
        self.step = step

    def start(self, game) -> bool:
        return True

    def pending(self, game) -> list:
        return []

    def decision_of(self, game, seat: int, category):
        return None

    def apply(self, game, seat: int, answer, category) -> bool:
        raise AssertionError(f"{type(self).__name__} asks no decision")  # Game.apply refuses first (G604)
