"""A category's points remembered by the icon counts they read: the search bot's rollout pick (pick.py).

The rollout pick values each card of a hand by the statements of value.py, every category's expressions for every
card. Many categories read nothing of the hand but how often a few icons are printed on the seat's cards (a
collection's four icons, the pairs of five animals, a choice's icon: Australia, Europe and the USA), and a
rollout values thousands of hands that differ, but not in those counts. Such a category's points are remembered,
for the seat's standing, by the bytes of those icons in the packed tally (its int masked to them): the points
of a hand are worked out by the same statements once for each such count and looked up afterwards, so each hand
gets exactly what the statements give it. A category is remembered so where its statements read of the hand only
constant icons' bytes of the packed tally of its cards (`T_cards[5]`), or, for a choice, the count of the
choice's icon (names.CHOICE_COUNT: its bytes are those of the icons the seat may choose); and charge no step.
Measured (callgrind, the 25,617 calls of the pick in one Australia game, replayed alike): 748M -> 552M instructions.
"""

from __future__ import annotations

import re

from . import names

_HAND = frozenset({"cards", "throw", "catch", "visited", "others", "opponents", "left", "right"})   # a hand's
_TALLY = names.TALLY["cards"]
_BYTE = re.compile(rf"\b{_TALLY}\[(\d+)\]")   # a constant icon's count, read from the packed tally
_READ = re.compile(rf"\b{_TALLY}\b")
_KEY, _POINTS = "Q_key", "Q_points"


def write_remembered(writer, category, key: str, write_points) -> bool:
    """The category's points remembered by the counts they read (module docstring), written where they can be;
    False where they cannot (nothing written). write_points(writer, category, key, target, depth, add): value.py's
    statements of its points. Its memo and bytes are declared in writer.remembered: (number, constant bytes' mask,
    the category's key where the choosable icons' bytes are read too, or None)."""
    full = writer.held.full
    if writer.remembered is None or full is None or full.index is None or _TALLY not in full.tallies:
        return False
    saved = writer.lines, writer.used, writer.read_variables, writer.charges
    writer.lines, writer.used, writer.read_variables = [], set(), set()
    try:
        write_points(writer, category, key, _POINTS, 3, False)
        lines, used, read, charged = writer.lines, writer.used, writer.read_variables, writer.charges
    finally:
        writer.lines, writer.used, writer.read_variables, writer.charges = saved
    counted = names.CHOICE_COUNT in used
    once = f"{names.CHOICE_COUNT} = {_TALLY}["   # the choice's count, read once an icon (value.write_categories)
    source = "\n".join(line for line in lines if not (counted and line.strip().startswith(once)))
    if charged or read & _HAND or used - {_TALLY, names.CHOICE_COUNT} or \
            len(_READ.findall(source)) != len(_BYTE.findall(source)):
        return False
    number = len(writer.remembered)
    mask = sum(255 << 8 * int(at) for at in set(_BYTE.findall(source)))
    writer.remembered.append((number, mask, key if counted else None))
    memo, selected = f"{names.REMEMBERED}{number}", f"{names.COUNTED}{number}"
    writer.emit(f"{_KEY} = {names.PACKED} & {selected}", 2)
    writer.emit(f"{_POINTS} = {memo}.get({_KEY})", 2)
    writer.emit(f"if {_POINTS} is None:", 2)
    writer.lines += lines
    writer.used |= used
    writer.read_variables |= read
    writer.emit(f"{memo}[{_KEY}] = {_POINTS}", 3)
    writer.emit(f"value += {_POINTS}", 2)
    return True


def remembered_lines(remembered: list) -> list:
    """The seat's memos and masks of the remembered categories (the lines of pick_of, before its decisions)."""
    lines = []
    for number, mask, choice_key in remembered:
        chosen = f" | _icon_bytes(choosable[{choice_key}], _INDEX)" if choice_key is not None else ""
        lines += [f"{names.REMEMBERED}{number} = {{}}", f"{names.COUNTED}{number} = {mask}{chosen}"]
    return lines


def icon_bytes(icons, index: dict) -> int:
    """The mask of these icons' bytes in a packed tally (index: icon -> its byte)."""
    mask = 0
    for icon in icons:
        if icon in index:
            mask |= 255 << 8 * index[icon]
    return mask
