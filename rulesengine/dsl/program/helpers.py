"""The functions and forms generated scoring code calls: what it cannot write as one Python expression.

Every name here reaches a generated function through HELPERS (the only globals it has: no Python
builtin is reachable from it but those listed) or as a constant. They evaluate as the closures of
compiler.py do: products capped, division by zero and missing table rows raised as DslRuntimeError
carrying the node an error points at.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter

from ..budget import MAX_NUMBER
from ..builtins import DslRuntimeError
from ..compiler import _equal
from ..meter import begin, icon_steps, steps, within


class Unsupported(Exception):
    """A node the generator does not translate (a game variable the function is not handed)."""


def _multiply(a, b, node):
    product = a * b
    if -MAX_NUMBER <= product <= MAX_NUMBER:
        return product
    _too_large(node)


def _too_large(node):
    message = f"a product larger than {MAX_NUMBER:,} (is something multiplied by itself over and over?)"
    raise DslRuntimeError(message, node)


def _floordiv(a, b, node):
    if b == 0:
        raise DslRuntimeError("division by zero", node)
    return a // b


def _mod(a, b, node):
    if b == 0:
        raise DslRuntimeError("division by zero", node)
    return a % b


def _no_row(table, key, node):
    """A lookup of a row the table lacks, without a default: the error lookup itself raises, at its call."""
    rows = ", ".join(map(str, table.rows))
    raise DslRuntimeError(f"table '{table.name}' has no row {key} (rows: {rows})", node)


def tally(cards) -> dict:
    """icon -> how many times it is printed on the cards: every count(icon, cards) of one evaluation
    over the same cards reads this instead of walking the cards again."""
    counts: dict = {}
    for card in cards:
        for icon in card.icons:
            counts[icon] = counts.get(icon, 0) + 1
    return counts


def _count(icon, cards) -> int:
    """count(icon, cards) where no other count reads the same cards."""
    found = 0
    for card in cards:
        if icon in card.icons:
            found += card.icons.count(icon)
    return found


def _subset(a, b) -> bool:
    """subset(a, b) with the loop in C: every item of a is in b."""
    return set(b).issuperset(a)


def _intersects(a, b) -> bool:
    """intersects(a, b) with the loop in C: some item of a is in b."""
    return not set(b).isdisjoint(a)


def located(function, node):
    """A builtin whose errors point at its call (first and last of an empty list, lookup's missing rows)."""
    def run(*values):
        try:
            return function(*values)
        except DslRuntimeError as exc:
            exc.node = exc.node or node
            raise
    return run


HELPERS = {"_multiply": _multiply, "_too_large": _too_large, "_floordiv": _floordiv, "_mod": _mod, "_equal": _equal,
           "_tally": tally, "_count": _count, "_subset": _subset, "_intersects": _intersects, "_abs": abs,
           "_no_row": _no_row, "_begin": begin, "_steps": steps, "_icon_steps": icon_steps, "_within": within,
           "__builtins__": {}}
FASTER = {"subset": "_subset", "intersects": "_intersects", "abs": "_abs"}   # builtins with a faster equal here


@dataclass(frozen=True)
class Full:
    """Tallies their caller makes with every one of `icons` in them, 0 where none is printed, so that a
    count of one of these icons indexes the tally instead of calling its get (a tenth of the greedy bot's
    time went to those calls). tallies: their locals; keys: the paths of game values that always hold
    one of the icons (a choice's icon, looped over its family); once: counts the caller reads once into
    a local, (tally local, path of the icon) -> that local (the count of the choice's icon, which its
    requires and its points both read). index: where the tallies are packed (see packed_icons), each icon's
    byte in them, one count a byte, and a byte more that is always 0 (an icon not in `icons`); None: they are
    dicts."""

    tallies: frozenset
    icons: frozenset
    keys: frozenset = frozenset()
    once: dict = field(default_factory=dict)
    index: dict | None = None

    def read(self, tally: str, icon: str, source: str) -> str:
        """The source reading the count of a constant icon (source: the source naming it) from a full tally."""
        return f"{tally}[{source}]" if self.index is None else f"{tally}[{self.index[icon]}]"


def packed_icons(icons, cards) -> tuple[dict, dict] | None:
    """A packed tally's index (icon -> its byte, in sorted order) and each card's icons as one int of those bytes,
    so that the tally of a hand is the sum of its cards' ints as bytes (int.to_bytes, little-endian, one byte more
    than icons): one add a card where a dict of counts adds one an icon. None where some icon could be
    counted more than 255 times in a hand (the whole deck taken), or a card shows an icon not in icons."""
    index = {icon: i for i, icon in enumerate(sorted(icons))}
    most = dict.fromkeys(index, 0)   # how often a hand may count an icon: the whole deck taken
    for card in cards:
        for icon in card.icons:
            if icon not in most:
                return None
            most[icon] += 1
    if max(most.values(), default=0) > 255:
        return None
    return index, {card: sum(1 << 8 * index[icon] for icon in card.icons) for card in cards}


@dataclass(frozen=True)
class Masks:
    """Cards values their caller holds as bitmasks (bit card.index of each card: see card_mask), not as
    sets: one card more is an int's |, where a set is copied (the greedy bot adds one card to the visited
    cards of every hand it values). Only what a mask answers is read from it (reads.Uses): subset and
    intersects with a region's cards or an edition constant, connected between two constants over the
    map, len. locals: path -> the local holding its mask, a value holding each site once (the visited
    cards); regions: region -> the mask of its cards; neighbours: card.index -> the mask of the cards a
    path joins it to."""

    locals: dict
    regions: dict
    neighbours: tuple = ()


def site_bits(cards) -> dict:
    """card -> the bit of its site (bit site.index): the visited sites of a hand as one int, a copy of a card on its
    site's bit (the search bot's rollout pick, pick.py, and its caller's running masks)."""
    return {card: 1 << card.site.index for card in cards}


def card_mask(cards) -> int:
    """The cards as a bitmask: bit card.index of each. A copy of a card (copies:) has its own bit,
    which the visited cards (each site once) never hold, as a set of them never holds the copy."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def connected_masks(nodes: int, sources: int, targets: int, tables: tuple) -> bool:
    """connected() over masks (see Masks): a target reached from a source by paths inside nodes; tables: the map's
    neighbour_bytes, so a step outwards is one lookup a byte of the frontier, not a loop over its cards."""
    if not nodes & targets:
        return False
    reached = frontier = nodes & sources
    while frontier:
        if frontier & targets:
            return True
        grown, rest = 0, frontier
        for table in tables:
            grown |= table[rest & 255]
            rest >>= 8
            if not rest:
                break
        frontier = grown & nodes & ~reached
        reached |= frontier
    return False


@lru_cache(maxsize=64)
def neighbour_bytes(neighbours: tuple) -> tuple:
    """For each byte of a card mask (cards 0-7, 8-15...), byte value -> the mask of the cards one path away from
    its cards (neighbours: card index -> its neighbours' mask): connected_masks's tables."""
    tables = []
    for start in range(0, len(neighbours), 8):
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value   # the byte's lowest card, added to the byte without it
            card = start + low.bit_length() - 1
            table[value] = table[value ^ low] | (neighbours[card] if card < len(neighbours) else 0)
        tables.append(tuple(table))
    return tuple(tables)


def edition_masks(rules) -> Masks:
    """The masks of an edition's regions and of its map's neighbours (rules: the edition, duck-typed)."""
    regions = {region: card_mask(region.cards) for region in rules.regions}
    neighbours = [0] * len(rules.cards)
    for card in rules.cards:
        neighbours[card.index] = card_mask(rules.paths.get(card, ()))
    return Masks({}, regions, tuple(neighbours))


def every_icon(rules) -> frozenset:
    """Every icon a card shows or a choice may name: what a tally of icon_counts holds."""
    return frozenset(icon for card in rules.cards for icon in card.icons) | frozenset(
        icon for family in rules.families.values() for icon in family.icons)


def icon_counts(zeros: dict, cards) -> dict:
    """icon -> how often it is printed on the cards, with every icon of the edition (zeros: each of them
    -> 0), 0 where none is printed (Full): a count reads such a tally by index, not with get."""
    counts = zeros.copy()
    for card in cards:
        for icon in card.icons:
            counts[icon] += 1
    return counts


deck_order = attrgetter("index")  # how visited cards are sorted: by their place in the deck


def visited_after(visited, seen, cards) -> list:
    """A seat's visited cards once this round's cards are added: each site once, in deck order.
    visited: those of the earlier rounds, in deck order; seen: the same as a set (or a dict)."""
    new = {c.site for c in cards}.difference(seen)  # a copy of a card is the same site (`copies:`)
    merged = [*visited, *new]
    if new:  # the earlier ones are in order: a merge, not a sort of them all
        merged.sort(key=deck_order)
    return merged


def visited_with_site(visited: list, site) -> list:
    """visited_after(visited, visited, [card]) for a card whose site is not in visited: a new list."""
    visited = list(visited)
    insort(visited, site, key=deck_order)
    return visited
