"""Row by row logic every closure of the array code shares (fast/arrays.py, fast/calls.py).

A condition, a weight or a set of live rows is True/False/None where it holds alike for every row,
else a bool array; these helpers keep the plain values plain (no array made for a constant) and
compare, test membership and list values as the language means them.
"""

from __future__ import annotations

from operator import and_, or_

import numpy as np

from .cards import CARD_SETS, CardRows, Deck, Items, RegionRows, Unsupported


def where(condition, then, otherwise):
    if condition is True or condition is False:
        return then if condition else otherwise
    return np.where(condition, then, otherwise)


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


def _joined(a, b, absorbing: bool, operator):
    """a and/or b where either may be a plain bool or a row array: `absorbing` (False for and, True for
    or) decides alone, its opposite leaves the other side, two arrays are joined row by row."""
    if a is absorbing or b is absorbing:
        return absorbing
    if a is (not absorbing):
        return b
    if b is (not absorbing):
        return a
    return operator(a, b)


def _both(a, b):
    return _joined(a, b, False, and_)


def _either(a, b):
    return _joined(a, b, True, or_)


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
