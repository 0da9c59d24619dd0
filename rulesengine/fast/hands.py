"""The hands a greedy seat values at a pick, as array values of the scoring language (fast/cards.py).

At every pick a greedy seat values each option in many completions of its round: one row per (seat,
world and completion, option), its cards so far, the option, then the completion's cards. HandCards
counts those hands' icons from the parts they share, without listing every hand's cards unless an
expression reads them as a list; PileCards is the other seats' cards of a sampled world, read by
their counts only, as the greedy bot reads them (bots/evaluate). fast/greedy.py deals the worlds
and completions and takes the decisions.
"""

from __future__ import annotations

import numpy as np

from .cards import DraftCards, Unsupported


def judged(score, env: dict, live, default, rows: int):
    """An expression's value on these rows, its default where it fails (as the bots judge: bots/evaluate)."""
    env["_failed"] = failed = np.zeros(rows, dtype=bool)
    value = np.broadcast_to(np.asarray(score(env, live)), (rows,))
    return np.where(failed, default, value) if failed.any() else value


class HandCards(DraftCards):
    """The hands a seat values at one pick, one row per (seat, world and completion, option): its cards so
    far, the option, then the completion's cards (the head of a shuffled order, less the option, up to
    the round's end). Counted from the parts, without listing every hand's cards unless read as a list."""

    def __init__(self, deck, first, options, head, inside):
        self.deck, self.first, self.options, self.head, self.inside = deck, first, options, head, inside
        self._by_icon, self._cards, self._mask, self._shared_counts = {}, None, None, None
        self._counts = self._added_cards = None
        self.shape = (head.shape[0], head.shape[1], options.shape[1])

    def _shared(self) -> np.ndarray:
        """Every icon's count in what a seat's hands share, made once: the cards so far and the head less its
        last card (lanes x heads x icons). Added card by card, each a gather of lanes x heads x icons: a gather
        of them all and its sum over the cards made a temporary as many times larger, and numpy sums a middle
        axis slowly (not a float matrix product either: BLAS's threads cost 4x on a busy machine)."""
        if self._shared_counts is None:
            counts, head = self.deck.counts, self.head
            shared = np.repeat(counts[self.first].sum(axis=1)[:, None, :], head.shape[1], axis=1)
            for i in range(head.shape[2] - 1):
                shared += counts[head[:, :, i]]
            self._shared_counts = shared
        return self._shared_counts

    def count(self, icon: int) -> np.ndarray:
        found = self._by_icon.get(icon)
        if found is None:
            shared = self._shared()[:, :, icon]
            found = self.deck.counts[:, icon].take(self._added())   # the card each hand adds to what it shares
            found += shared[:, :, None]
            found = self._by_icon[icon] = found.reshape(-1)
        return found

    def _added(self) -> np.ndarray:
        """lanes x heads x options: the card a hand holds beyond the cards so far and the head less its last card
        (the option, or the head's last card where the option is in the head), made once for every icon."""
        if self._added_cards is None:
            self._added_cards = np.where(self.inside, self.head[:, :, -1:], self.options[:, None, :])
        return self._added_cards

    def counts(self) -> np.ndarray:
        if self._counts is None:
            self._counts = np.stack([self.count(i) for i in range(len(self.deck.icons))], axis=1)
        return self._counts

    def mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = parts_mask(self.deck.bits, self.first, self.options, self.head, self.inside)
        return self._mask

    def length(self):
        return self.first.shape[1] + self.head.shape[2]

    @property
    def cards(self) -> np.ndarray:
        """rows x cards: each hand's cards in order (its cards so far, the option, the completion's)."""
        if self._cards is None:
            lanes, heads, options = self.shape
            rest = self.head.shape[2] - 1
            head = np.broadcast_to(self.head[:, :, None, :], (lanes, heads, options, rest + 1))
            option = np.broadcast_to(self.options[:, None, :, None], head.shape)
            keep = head != option
            keep[..., -1] &= self.inside           # the last card of the head only where the option was in it
            ending = head[keep].reshape(lanes, heads, options, rest)
            first = np.broadcast_to(self.first[:, None, None, :], (lanes, heads, options, self.first.shape[1]))
            self._cards = np.concatenate([first, option[..., :1], ending], axis=3).reshape(lanes * heads * options, -1)
        return self._cards

    @cards.setter
    def cards(self, value) -> None:   # DraftCards.__init__ sets it; a hand's cards are made when read
        self._cards = value


def parts_mask(bits, first, options, head, inside) -> np.ndarray:
    lane = np.bitwise_or.reduce(bits[first], axis=1) if first.shape[1] else np.zeros(first.shape[0], np.uint64)
    held = np.zeros(head.shape[:2], dtype=bits.dtype)   # card by card, as HandCards._shared adds their counts
    for i in range(head.shape[2] - 1):
        held |= bits[head[:, :, i]]
    held = held[:, :, None]
    last = np.where(inside, bits[head[:, :, -1:]], bits[options][:, None, :])
    return (lane[:, None, None] | held | last).reshape(-1)


class PileCards(DraftCards):
    """The other seats' cards of a sampled world as one pile (the round's cards less the hand): read by
    their counts only (greedy_plan refuses any other read), as the greedy bot reads them."""

    ordered = False

    def __init__(self, deck, dealt_counts: np.ndarray, hand: HandCards, per_world: int):
        self.deck, self.dealt, self.hand, self.per_world = deck, dealt_counts, hand, per_world

    def _not_counted(self, *args):
        raise Unsupported("the other seats' cards of a sampled world read beyond their counts")

    counts = mask = length = items = _not_counted

    def count(self, icon: int) -> np.ndarray:
        lanes, heads, options = self.hand.shape
        dealt = np.repeat(self.dealt[:, :, icon], self.per_world, axis=1)[:, :, None]   # world -> its completions
        return (dealt - self.hand.count(icon).reshape(lanes, heads, options)).reshape(-1)
