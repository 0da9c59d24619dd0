"""The scoring language's builtins as array code: one method a builtin, made into a closure once per edition.

ArrayCode (fast/arrays.py) inherits them: visit_Call looks up `_call_<name>`, and a builtin without one
is Unsupported (the engine plays the edition). Each follows dsl/builtins.py's meaning for every row.
"""

from __future__ import annotations

import numpy as np

from .cards import CARD_SETS, CardRows, DraftCards, Items, Unsupported, neighbour_tables
from .rows import _both, _choose, _either, _mask_of, _masks, _not, _pairwise, _present, as_items, fail, live_and, where


class Calls:
    """The builtins (see the module docstring); self.deck, self.edition and self.icon_at are ArrayCode's."""

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
        return self._truth(args, True, _both, lambda present, value: (~present) | value)

    def _call_any(self, args, node):
        return self._truth(args, False, _either, lambda present, value: present & value)

    def _truth(self, args, start, join, counted):
        """all() and any(): fold the items' truth with `join`; an item present in some rows only counts there."""
        (a,) = args
        deck = self.deck

        def run(env, live):
            result = start
            for weight, value in as_items(a(env, live), deck).items:
                present = _present(weight)
                result = join(result, value if present is None else counted(present, value))
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
        tables = neighbour_tables(self.deck.neighbours)
        shifts = [np.uint64(8 * b) for b in range(len(tables))]
        byte = np.uint64(0xFF)

        def run(env, live):
            inside = _mask_of(nodes(env, live))
            reached = np.asarray(inside & _mask_of(sources(env, live)), dtype=np.uint64)
            goals = _mask_of(targets(env, live))
            while True:    # one step along the paths from every card reached, a byte of the mask at a time
                grown = reached.copy()
                for table, shift in zip(tables, shifts, strict=True):
                    grown |= table[(reached >> shift) & byte]
                grown &= inside
                if np.array_equal(grown, reached):
                    break
                reached = grown
            return (reached & goals) != 0

        return run
