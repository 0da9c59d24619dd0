"""The greedy and search bots' answer to a mulligan: a simple rule on the hand, no search.

A hand worth keeping holds things to build on: icons shown by two cards or more (sets of animals,
collections, activities) and cards of one region (its race, its sites). The bot counts the cards that
add to such a group beyond its first; with fewer than KEEP_FROM of them it takes the mulligan. The
rule reads the seat's own hand only and draws nothing, so it never varies between runs.
"""

from __future__ import annotations

from collections import Counter

KEEP_FROM = 3


def groups_in(cards) -> int:
    """How many cards add to a group of the hand beyond its first card: shared icons and shared regions."""
    icons = Counter(icon for card in cards for icon in set(card.icons))
    regions = Counter(card.region.name for card in cards if card.region is not None)
    return sum(n - 1 for n in icons.values() if n > 1) + sum(n - 1 for n in regions.values() if n > 1)


def mulligan_answer(edition, view, decision) -> str:
    """'keep' or 'mulligan' for this seat's hand in its view."""
    hand = [edition.card(letter) for letter in view["hand"]]
    return "keep" if groups_in(hand) >= KEEP_FROM else "mulligan"
