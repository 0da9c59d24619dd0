"""The scoring language as array code: a checked expression evaluated for thousands of seats at once.

Each expression's checked syntax tree (Expression.tree: the node and the names the checker
resolved to edition constants) becomes a tree of Python closures, made once per edition, whose
values are numpy arrays with one row per seat of every game in the batch (or plain numbers where a
value is the same for all). It never reads the Python the engine generates, only the tree, so it
says the language's meaning a second way, and tests/test_fast_batch.py holds it to the engine's.

Every closure is called as f(env, live): env maps the scope's variables to row values, live is the
rows whose value counts (an `if` hands each branch its own rows), so a lookup of a missing row or a
division by zero is an error only where the engine would have met it; such rows are marked in
env["_failed"] and their games are played again by the engine, which reports the error. A node
this does not translate raises Unsupported, naming it: the edition is then played by the engine.

Values: numbers and booleans (Python values or int64/bool arrays of the rows); an icon, family,
table, region or card constant; CardRows (a card per row: its index in the deck); DraftCards (each
row's cards of a round, in the order taken); MaskCards (a set of cards per row, as a bitmask of deck
indices, in deck order: visited); ConstCards; SeatRows (another seat of each row's game); Items (a
list: its items, each with the rows where it is present, or how many times).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..dsl import ast
from ..dsl.ast import Visitor
from ..dsl.budget import MAX_NUMBER


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
    )


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

    def counts(self) -> np.ndarray:
        if self._counts is None:
            self._counts = self.deck.counts[self.cards].sum(axis=1)
        return self._counts

    def count(self, icon: int) -> np.ndarray:
        """How many times this icon shows on each row's cards (one icon's column only: most are read once)."""
        found = self._by_icon.get(icon)
        if found is None:
            found = self._by_icon[icon] = self.deck.by_icon[icon][self.cards].sum(axis=1, dtype=np.int64)
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


def _rows(value):
    return value if isinstance(value, np.ndarray) else None


def where(condition, then, otherwise):
    if condition is True or condition is False:
        return then if condition else otherwise
    return np.where(condition, then, otherwise)


def _and(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _present(weight):
    """Where an item of a list is present (None: everywhere)."""
    if weight is None or isinstance(weight, bool):
        return weight
    return weight > 0 if weight.dtype != np.bool_ else weight


def fail(env: dict, rows) -> None:
    """Mark these rows' games as ones the engine must play (it meets an error there and reports it)."""
    if rows is True or (isinstance(rows, np.ndarray) and rows.any()):
        env["_failed"] |= rows


def live_and(live, condition):
    if condition is True or condition is None:
        return live
    if condition is False:
        return False
    return condition if live is True else live & condition


# -- the translation -------------------------------------------------------------------------------
class ArrayCode(Visitor):
    """A checked tree as closures over row arrays (see the module docstring)."""

    def __init__(self, resolved: dict, deck: Deck, edition):
        self.resolved, self.deck, self.edition = resolved, deck, edition
        self.icon_at = {icon: i for i, icon in enumerate(deck.icons)}

    def visit_Number(self, node):
        value = node.value
        return lambda env, live: value

    def visit_Bool(self, node):
        value = node.value
        return lambda env, live: value

    def visit_Symbol(self, node):
        return self._constant(self.resolved[id(node)], node)

    def visit_Name(self, node):
        if id(node) in self.resolved:
            return self._constant(self.resolved[id(node)], node)
        name = node.name
        return lambda env, live: env[name]

    def _constant(self, value, node):
        deck = self.deck
        if isinstance(value, tuple | list) and all(hasattr(v, "letter") for v in value):
            cards = ConstCards(deck, value)
            return lambda env, live: cards
        return lambda env, live: value

    def visit_Attribute(self, node):
        target, name, deck = self.visit(node.target), node.name, self.deck
        region_of = {id(r): i for i, r in enumerate(self.edition.regions)}

        def run(env, live):
            value = target(env, live)
            if isinstance(value, CardRows):
                if name == "number":
                    return deck.number[value.index]
                if name == "region":
                    return RegionRows(deck.region[value.index])
            elif isinstance(value, RegionRows):
                if name == "bonus":
                    return deck.bonus[value.index]
                if name == "cards":
                    masks = np.array([card_mask(cards) for cards in deck.region_cards], dtype=np.uint64)
                    return MaskCards(deck, masks[value.index])
            elif isinstance(value, SeatRows):
                if name == "cards":
                    return DraftCards(deck, env["_drafts"][value.rows])
                if name == "visited":
                    return MaskCards(deck, env["_visited"][value.rows])
            elif hasattr(value, "letter"):   # a card constant
                if name == "region":
                    return value.region
                return getattr(value, name)
            elif id(value) in region_of:
                return ConstCards(deck, value.cards) if name == "cards" else getattr(value, name)
            elif name in getattr(value, "__dict__", {}) or hasattr(value, name):   # the round's lines, by key
                return getattr(value, name)
            raise Unsupported(f"'.{name}' of {type(value).__name__}")

        return run

    def visit_Unary(self, node):
        operand = self.visit(node.operand)
        if node.op == "-":
            return lambda env, live: -operand(env, live)
        return lambda env, live: _not(operand(env, live))

    def visit_Binary(self, node):
        left, right, op = self.visit(node.left), self.visit(node.right), node.op
        if op == "and":
            def both(env, live):
                a = left(env, live)
                if a is False:
                    return False
                b = right(env, live_and(live, a))
                return b if a is True else (a & b if isinstance(b, np.ndarray) else (a if b else False))
            return both
        if op == "or":
            def either(env, live):
                a = left(env, live)
                if a is True:
                    return True
                b = right(env, live_and(live, _not(a)))
                return b if a is False else (a | b if isinstance(b, np.ndarray) else (True if b else a))
            return either
        if op in ("in", "not in"):
            def member(env, live):
                found = _member(left(env, live), right(env, live))
                return found if op == "in" else _not(found)
            return member
        if op in ("//", "%"):
            def divide(env, live):
                a, b = left(env, live), right(env, live)
                zero = b == 0
                fail(env, live_and(live, zero))
                safe = where(zero, 1, b)
                return a // safe if op == "//" else a % safe
            return divide
        if op == "*":
            def multiply(env, live):
                product = left(env, live) * right(env, live)
                fail(env, live_and(live, (product > MAX_NUMBER) | (product < -MAX_NUMBER)))
                return product
            return multiply
        compare = _OPERATORS[op]

        def run(env, live):
            return compare(_comparable(left(env, live)), _comparable(right(env, live)))

        return run

    def visit_If(self, node):
        condition, then, otherwise = self.visit(node.condition), self.visit(node.then), self.visit(node.otherwise)

        def run(env, live):
            test = condition(env, live)
            if test is True or test is False:
                return then(env, live) if test else otherwise(env, live)
            return where(test, then(env, live_and(live, test)), otherwise(env, live_and(live, ~test)))

        return run

    def visit_Let(self, node):
        value, body, name = self.visit(node.value), self.visit(node.body), node.name

        def run(env, live):
            saved = env.get(name, _MISSING)
            env[name] = value(env, live)
            try:
                return body(env, live)
            finally:
                if saved is _MISSING:
                    del env[name]
                else:
                    env[name] = saved

        return run

    def visit_Comprehension(self, node):
        element, source, name = self.visit(node.element), self.visit(node.source), node.name
        condition = self.visit(node.condition) if node.condition is not None else None
        deck = self.deck

        def run(env, live):
            listed = as_items(source(env, live), deck)
            saved = env.get(name, _MISSING)
            out = []
            try:
                for weight, item in listed.items:
                    env[name] = item
                    here = live_and(live, _present(weight))
                    if here is False:
                        continue
                    if condition is not None:
                        test = condition(env, here)
                        if test is False:
                            continue
                        if test is not True:
                            weight = test if weight is None else (weight & test if weight.dtype == np.bool_
                                                                  else weight * test)
                            here = live_and(here, test)
                    out.append((weight, element(env, here)))
            finally:
                if saved is _MISSING:
                    env.pop(name, None)
                else:
                    env[name] = saved
            return Items(tuple(out), listed.ordered)

        return run

    def visit_ListLiteral(self, node):
        items = [self.visit(item) for item in node.items]
        return lambda env, live: Items(tuple((None, item(env, live)) for item in items))

    def visit_Call(self, node):
        function = node.function
        args = [self.visit(arg) for arg in node.args]
        call = getattr(self, "_call_" + function, None)
        if call is None:
            raise Unsupported(f"{function}()")
        return call(args, node)

    # -- the builtins -----------------------------------------------------------------------------
    def _call_abs(self, args, node):
        (a,) = args
        return lambda env, live: abs(a(env, live))

    def _call_min(self, args, node):
        return self._extreme(args, np.minimum, min)

    def _call_max(self, args, node):
        return self._extreme(args, np.maximum, max)

    def _extreme(self, args, pairwise, plain):
        deck = self.deck

        def run(env, live):
            if len(args) == 1:
                listed = as_items(args[0](env, live), deck)
                best, some = 0, False
                for weight, value in listed.items:
                    present = _present(weight)
                    if present is None:
                        best = value if some is False else _pairwise(pairwise, plain, best, value)
                        some = True
                    else:
                        chosen = _pairwise(pairwise, plain, best, value)
                        best = where(present, where(some, chosen, value), best)
                        some = present | some
                return best
            values = [arg(env, live) for arg in args]
            best = values[0]
            for value in values[1:]:
                best = _pairwise(pairwise, plain, best, value)
            return best

        return run

    def _call_sum(self, args, node):
        (a,) = args
        deck = self.deck

        def run(env, live):
            total = 0
            for weight, value in as_items(a(env, live), deck).items:
                total = total + (value if weight is None else weight * value)
            return total

        return run

    def _call_len(self, args, node):
        (a,) = args
        deck = self.deck

        def run(env, live):
            value = a(env, live)
            if isinstance(value, CARD_SETS):
                return value.length()
            total = 0
            for weight, _ in as_items(value, deck).items:
                total = total + (1 if weight is None else weight.astype(np.int64))
            return total

        return run

    def _call_all(self, args, node):
        (a,) = args
        deck = self.deck

        def run(env, live):
            result = True
            for weight, value in as_items(a(env, live), deck).items:
                present = _present(weight)
                result = _both(result, value if present is None else (~present) | value)
            return result

        return run

    def _call_any(self, args, node):
        (a,) = args
        deck = self.deck

        def run(env, live):
            result = False
            for weight, value in as_items(a(env, live), deck).items:
                present = _present(weight)
                result = _either(result, value if present is None else present & value)
            return result

        return run

    def _call_first(self, args, node):
        return self._item(args, 0)

    def _call_last(self, args, node):
        return self._item(args, -1)

    def _item(self, args, position: int):
        (a,) = args
        deck = self.deck

        def run(env, live):
            value = a(env, live)
            if isinstance(value, DraftCards):
                return CardRows(value.cards[:, position])
            listed = as_items(value, deck)
            if not listed.ordered:
                raise Unsupported("first() or last() of a list of icons counted on cards")
            items = listed.items if position == 0 else listed.items[::-1]
            found, chosen = False, None
            for weight, item in items:
                present = _present(weight)
                if present is None:
                    return _choose(found, chosen, item) if found is not False else item
                chosen = _choose(found, chosen, item, present)
                found = present if found is False else found | present
            fail(env, live_and(live, _not(found)))
            return chosen if chosen is not None else 0

        return run

    def _call_largest(self, args, node):
        n, a = args
        deck = self.deck

        def run(env, live):
            count, listed = n(env, live), as_items(a(env, live), deck)
            if isinstance(count, np.ndarray) or any(weight is not None for weight, _ in listed.items):
                raise Unsupported("largest() of a list whose length differs from game to game")
            values = [value for _, value in listed.items]
            if not values:
                return Items(())
            rows = np.broadcast_arrays(*[np.asarray(v) for v in values])
            ordered = -np.sort(-np.stack(rows, axis=-1), axis=-1)
            return Items(tuple((None, ordered[..., k]) for k in range(min(max(count, 0), len(values)))))

        return run

    def _call_count(self, args, node):
        icon, cards = args
        at = self.icon_at

        def run(env, live):
            chosen, held = icon(env, live), cards(env, live)
            if not isinstance(held, CARD_SETS):
                raise Unsupported("count() of a list that is not cards")
            return held.count(at[chosen])

        return run

    def _call_icons(self, args, node):
        cards, family = args
        at = self.icon_at

        def run(env, live):
            held, kind = cards(env, live), family(env, live)
            return Items(tuple((held.count(at[icon]), icon) for icon in kind.icons), ordered=False)

        return run

    def _call_kinds(self, args, node):
        (family,) = args
        return lambda env, live: Items(tuple((None, icon) for icon in family(env, live).icons))

    def _call_value(self, args, node):
        (icon,) = args
        values = self.edition.icon_values

        def run(env, live):
            chosen = icon(env, live)
            if not isinstance(chosen, str):
                raise Unsupported("value() of an icon that differs from row to row")
            return values[chosen]

        return run

    def _call_lookup(self, args, node):
        table, key = args[0], args[1]
        default = args[2] if len(args) == 3 else None

        def run(env, live):
            rows = table(env, live).rows
            at = key(env, live)
            fallback = default(env, live) if default is not None else None
            if not isinstance(at, np.ndarray):
                if at in rows:
                    return rows[at]
                if fallback is None:
                    fail(env, live)
                    return 0
                return fallback
            keys = [k for k in rows if isinstance(k, int) and not isinstance(k, bool)]
            low, high = (min(keys), max(keys)) if keys else (0, -1)
            dense = np.zeros(max(high - low + 1, 1), dtype=np.int64)
            known = np.zeros(max(high - low + 1, 1), dtype=bool)
            for k in keys:
                dense[k - low], known[k - low] = rows[k], True
            inside = (at >= low) & (at <= high)
            place = np.where(inside, at - low, 0)
            found = inside & known[place]
            if fallback is None:
                fail(env, live_and(live, ~found))
                return np.where(found, dense[place], 0)
            return np.where(found, dense[place], fallback)

        return run

    def _call_subset(self, args, node):
        a, b = args
        return lambda env, live: _masks(a(env, live), b(env, live), lambda x, y: (x & ~y) == 0)

    def _call_intersects(self, args, node):
        a, b = args
        return lambda env, live: _masks(a(env, live), b(env, live), lambda x, y: (x & y) != 0)

    def _call_connected(self, args, node):
        nodes, sources, targets = args
        neighbours = self.deck.neighbours
        indices = [np.uint64(i) for i in range(len(neighbours))]

        def run(env, live):
            inside = _mask_of(nodes(env, live))
            reached = inside & _mask_of(sources(env, live))
            goals = _mask_of(targets(env, live))
            reached = np.asarray(reached, dtype=np.uint64)
            while True:
                grown = reached.copy()
                for i, near in zip(indices, neighbours, strict=True):
                    if near:
                        grown |= np.where((reached >> i) & np.uint64(1) == 1, near, np.uint64(0))
                grown &= inside
                if np.array_equal(grown, reached):
                    break
                reached = grown
            return (reached & goals) != 0

        return run


_MISSING = object()
_OPERATORS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
              ">=": np.greater_equal, "+": np.add, "-": np.subtract}


def _comparable(value):
    """A card or region as what compares it: its index (a constant card or region as its index too)."""
    if isinstance(value, CardRows | RegionRows):
        return value.index
    if hasattr(value, "letter"):
        return value.index
    return value


def _not(value):
    if value is True or value is False:
        return not value
    if isinstance(value, np.bool_):
        return not bool(value)
    return ~value


def _both(a, b):
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return a & b


def _either(a, b):
    if a is True or b is True:
        return True
    if a is False:
        return b
    if b is False:
        return a
    return a | b


def _pairwise(pairwise, plain, a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return pairwise(a, b)
    return plain(a, b)


def _choose(found, chosen, item, present=None):
    """The first item found so far, row by row (an item found where `present` and nothing was before)."""
    if present is None:
        return item if found is False else CardRows(where(found, _comparable(chosen), _comparable(item))) \
            if isinstance(item, CardRows) else where(found, chosen, item)
    if chosen is None:
        return item if not isinstance(item, CardRows) else item
    if isinstance(item, CardRows) or hasattr(item, "letter"):
        take = present & _not(found)
        return CardRows(np.where(take, _comparable(item), _comparable(chosen)))
    return where(present & _not(found), item, chosen)


def _member(item, container):
    if isinstance(container, Items):
        found = False
        for weight, value in container.items:
            same = np.equal(_comparable(item), _comparable(value)) if not isinstance(value, str) else item == value
            present = _present(weight)
            found = _either(found, same if present is None else present & same)
        return found
    if isinstance(container, CARD_SETS):
        if isinstance(item, CardRows):
            return (container.mask() >> item.index.astype(np.uint64)) & np.uint64(1) == 1
        if hasattr(item, "letter"):
            return (container.mask() >> np.uint64(item.index)) & np.uint64(1) == 1
    raise Unsupported(f"'in' of a {type(container).__name__}")


def _mask_of(value):
    if isinstance(value, CARD_SETS):
        return value.mask()
    raise Unsupported(f"a set of {type(value).__name__} where cards are read as a set")


def _masks(a, b, test):
    if isinstance(a, CARD_SETS) and isinstance(b, CARD_SETS):
        return test(a.mask(), b.mask())
    if isinstance(a, Items) and isinstance(b, Items):
        raise Unsupported("subset() or intersects() of lists that are not cards")
    raise Unsupported("subset() or intersects() of lists that are not cards")


def as_items(value, deck: Deck) -> Items:
    """A list value as Items (cards listed in their order; a region constant list as its regions)."""
    if isinstance(value, Items):
        return value
    if isinstance(value, CARD_SETS):
        return Items(tuple(value.items()))
    if isinstance(value, tuple | list):
        return Items(tuple((None, item) for item in value))
    raise Unsupported(f"a list of {type(value).__name__}")


def compile_tree(expression, deck: Deck, edition):
    """f(env, live) for this compiled expression, from its checked tree; Unsupported when a node has no array form."""
    if expression is None or expression.tree is None:
        raise Unsupported("an expression without its checked tree")
    node, resolved, _ = expression.tree
    for part in ast.walk(node):
        if isinstance(part, ast.Call) and not hasattr(ArrayCode, "_call_" + part.function):
            raise Unsupported(f"{part.function}() in '{expression.text.strip()}'")
    return ArrayCode(resolved, deck, edition).visit(node)
