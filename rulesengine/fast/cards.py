"""The values of the array code (fast/arrays.py): the edition's cards as arrays, and what a row holds.

A value is a number or boolean (a Python value, or an int64/bool array with one row per seat of every
game in the batch); an icon, family, table, region or card constant; CardRows (a card per row: its
index in the deck); DraftCards (each row's cards of a round, in the order taken); MaskCards (a set
of cards per row, as a bitmask of deck indices, in deck order: visited); ConstCards; SeatRows
(another seat of each row's game); Items (a list: its items, each with the rows where it is present,
or how many times). Nothing here evaluates an expression.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class Unsupported(Exception):
    """An expression (or a part of a game) the batch does not play: the engine plays the edition instead."""


@dataclass(frozen=True)
class Deck:
    """The edition's cards as arrays: what the array code reads of a card by its index."""

    cards: tuple
    number: np.ndarray        # card -> its number
    region: np.ndarray        # card -> its region's index (-1: none)
    bonus: np.ndarray         # region -> its bonus
    region_cards: tuple       # region -> its cards
    icons: tuple              # every icon of every family, in order
    counts: np.ndarray        # card -> how many of each icon it shows (cards x icons)
    by_icon: np.ndarray       # icon -> how many times each card shows it (icons x cards, small ints)
    site: np.ndarray          # card -> the card it is a copy of (its site), or itself
    bits: np.ndarray          # card -> 1 << its index (uint64)
    neighbours: np.ndarray    # card -> the bitmask of the cards one path away on the map
    packed: np.ndarray        # word -> each card's icon counts, a byte an icon (8 icons a uint64 word: words x cards)


def deck_arrays(edition) -> Deck:
    cards = edition.cards
    if len(cards) > 64:
        raise Unsupported(f"a deck of {len(cards)} cards (the batch holds sets of up to 64 as bitmasks)")
    regions = list(edition.regions)
    icons = tuple(icon for family in edition.families.values() for icon in family.icons)
    where = {icon: i for i, icon in enumerate(icons)}
    counts = np.zeros((len(cards), len(icons)), dtype=np.int64)
    for card in cards:
        for icon in card.icons:
            counts[card.index, where[icon]] += 1
    neighbours = np.zeros(len(cards), dtype=np.uint64)
    for card, ends in edition.paths.items():
        for end in ends:
            neighbours[card.index] |= np.uint64(1 << end.index)
    region_of = {id(region): i for i, region in enumerate(regions)}
    return Deck(
        cards,
        np.array([card.number for card in cards], dtype=np.int64),
        np.array([region_of.get(id(card.region), -1) for card in cards], dtype=np.int64),
        np.array([region.bonus for region in regions], dtype=np.int64),
        tuple(tuple(region.cards) for region in regions),
        icons,
        counts,
        np.ascontiguousarray(counts.T.astype(np.int8)),
        np.array([card.site.index for card in cards], dtype=np.int64),
        np.array([1 << card.index for card in cards], dtype=np.uint64),
        neighbours,
        _packed(counts),
    )


def _packed(counts: np.ndarray) -> np.ndarray:
    """Each card's icon counts packed a byte an icon, 8 icons a uint64 word (icon i: word i // 8, byte i % 8):
    the cards of a row added give every icon's count at once (DraftCards.count), while no count passes 255."""
    cards, icons = counts.shape
    packed = np.zeros(((icons + 7) // 8, cards), dtype=np.uint64)
    for i in range(icons):
        packed[i // 8] |= counts[:, i].astype(np.uint64) << np.uint64(8 * (i % 8))
    return packed


def neighbour_tables(neighbours: np.ndarray) -> list:
    """For each byte of a card mask, byte value -> the mask of the cards one path away from its cards: a step
    of connected() is then one lookup a byte (4 for a 28-card map), not one array operation a card (USA: the
    random batch 26% faster, bench/compiled.py)."""
    tables = []
    for start in range(0, len(neighbours), 8):
        table = np.zeros(256, dtype=np.uint64)
        for value in range(256):
            for bit in range(8):
                if value >> bit & 1 and start + bit < len(neighbours):
                    table[value] |= neighbours[start + bit]
        tables.append(table)
    return tables


def card_mask(cards) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << card.index
    return bits


# -- the values ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardRows:
    index: np.ndarray         # a card of each row, by its index in the deck


@dataclass(frozen=True)
class RegionRows:
    index: np.ndarray


class DraftCards:
    """Each row's cards of a round, in the order taken (rows x cards, deck indices)."""

    ordered = True

    def __init__(self, deck: Deck, cards: np.ndarray):
        self.deck, self.cards = deck, cards
        self._counts = self._mask = None
        self._by_icon: dict = {}
        self._words: dict = {}

    def counts(self) -> np.ndarray:
        if self._counts is None:
            self._counts = self.deck.counts[self.cards].sum(axis=1)
        return self._counts

    def count(self, icon: int) -> np.ndarray:
        """How many times this icon shows on each row's cards (one icon's column only: most are read once)."""
        found = self._by_icon.get(icon)
        if found is None:
            deck = self.deck
            if not 0 < int(deck.counts.max(initial=0)) * self.cards.shape[1] <= 255:   # no card, or a byte too small
                found = deck.by_icon[icon][self.cards].sum(axis=1, dtype=np.int64)
            else:   # the row's cards' packed words added (each word once), the icon's byte read
                word = self._words.get(icon // 8)
                if word is None:
                    packed = deck.packed[icon // 8]
                    word = packed[self.cards[:, 0]]
                    for k in range(1, self.cards.shape[1]):
                        word = word + packed[self.cards[:, k]]
                    self._words[icon // 8] = word
                found = ((word >> np.uint64(8 * (icon % 8))) & np.uint64(255)).astype(np.int64)
            self._by_icon[icon] = found
        return found

    def mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = np.bitwise_or.reduce(self.deck.bits[self.cards], axis=1)
        return self._mask

    def length(self):
        return self.cards.shape[1]

    def items(self) -> list:
        return [(None, CardRows(self.cards[:, k])) for k in range(self.cards.shape[1])]


class MaskCards:
    """A set of cards per row, as a bitmask of deck indices; as a list, in deck order."""

    ordered = True

    def __init__(self, deck: Deck, mask: np.ndarray):
        self.deck, self._mask = deck, mask
        self._counts = None

    def present(self) -> np.ndarray:
        """rows x cards: whether each card is in the row's set."""
        return (self._mask[:, None] >> np.arange(len(self.deck.cards), dtype=np.uint64)[None, :]) & np.uint64(1) == 1

    def counts(self) -> np.ndarray:
        if self._counts is None:
            self._counts = self.present().astype(np.int64) @ self.deck.counts
        return self._counts

    def count(self, icon: int) -> np.ndarray:
        return self.counts()[:, icon]

    def mask(self) -> np.ndarray:
        return self._mask

    def length(self):
        return bit_count(self._mask)

    def items(self) -> list:
        present = self.present()
        return [(present[:, card.index], card) for card in self.deck.cards]


class ConstCards:
    ordered = True

    def __init__(self, deck: Deck, cards):
        self.deck, self.cards = deck, tuple(cards)

    def counts(self) -> np.ndarray:
        found = np.zeros(len(self.deck.icons), dtype=np.int64)
        for card in self.cards:
            found += self.deck.counts[card.index]
        return found

    def count(self, icon: int):
        return int(self.counts()[icon])

    def mask(self):
        return np.uint64(card_mask(self.cards))

    def length(self):
        return len(self.cards)

    def items(self) -> list:
        return [(None, card) for card in self.cards]


CARD_SETS = (DraftCards, MaskCards, ConstCards)


@dataclass(frozen=True)
class SeatRows:
    """Another seat of each row's game: its row in the round's arrays."""

    rows: np.ndarray


@dataclass(frozen=True)
class Items:
    """A list: each item with the rows where it is present (None: in every row; a bool array), or how many
    times (an int array: a list made of icons on cards, where only the count of each icon matters)."""

    items: tuple
    ordered: bool = True


def bit_count(mask) -> np.ndarray:
    if isinstance(mask, np.ndarray):
        return np.bitwise_count(mask).astype(np.int64)
    return int(mask).bit_count()
