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
A category that reads the other seats' cards (Europe's National Treasures: `count(choice, others)`) is remembered
so too where it reads of them only constant icons' bytes of their packed tally (`T_others[5]`) or the choice's
icon's byte: keyed by the hand's bytes it reads and those of the others' packed int (pick.py's `others`) above
them, its points are worked out once for each such pair of counts, where pick.py works them out again for every
card of every pick (the own part is remembered in `known`; this part read the other seats' cards anew). Where
every such category is remembered, the hand's and the others' packed tallies are made in a memo's miss only
(writer.lazy_tally), not for every card whose own part `known` holds and every pick.
"""

from __future__ import annotations

import re

from . import names

_HAND = frozenset({"cards", "throw", "catch", "visited", "others", "opponents", "left", "right"})   # a hand's
_TALLY, _OTHERS = names.TALLY["cards"], names.TALLY["others"]
_BYTE = re.compile(rf"\b{_TALLY}\[(\d+)\]")   # a constant icon's count, read from the packed tally
_READ = re.compile(rf"\b{_TALLY}\b")
_OTHERS_BYTE = re.compile(rf"\b{_OTHERS}\[(\d+)\]")   # the same of the other seats' packed tally
_OTHERS_READ = re.compile(rf"\b{_OTHERS}\b")
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
    others = _others_bytes(writer, source) if _OTHERS in used else None
    if charged or read & _HAND - ({"others"} if others is not None else set()) or \
            used - {_TALLY, names.CHOICE_COUNT, _OTHERS} or (_OTHERS in used and others is None) or \
            len(_READ.findall(source)) != len(_BYTE.findall(source)):
        return False
    number = len(writer.remembered)
    mask = sum(255 << 8 * int(at) for at in set(_BYTE.findall(source)))
    if others is not None:   # (the choice's icon's byte: those of the icons the seat may choose, as for its count)
        others = (others[0], key if others[1] else None)
    writer.remembered.append((number, mask, key if counted else None, others))
    memo, selected = f"{names.REMEMBERED}{number}", f"{names.COUNTED}{number}"
    if others is None:
        writer.emit(f"{_KEY} = {names.PACKED} & {selected}", 2)
    else:   # the others' bytes above the hand's: the packed tallies are len(index) + 1 bytes (pick.py)
        shift = 8 * (len(full.index) + 1)
        writer.emit(f"{_KEY} = ({names.PACKED} & {selected}) | ((others & {names.OTHERS_COUNTED}{number}) << {shift})",
                    2)
    writer.emit(f"{_POINTS} = {memo}.get({_KEY})", 2)
    writer.emit(f"if {_POINTS} is None:", 2)
    if writer.lazy_tally is not None:   # (the caller made the tallies only where a hand needs them)
        for tally in (_TALLY, _OTHERS):
            if tally in used:
                writer.emit(f"{tally} = {writer.lazy_tally[tally]}", 3)
    writer.lines += lines
    writer.used |= used
    writer.read_variables |= read
    writer.emit(f"{memo}[{_KEY}] = {_POINTS}", 3)
    writer.emit(f"value += {_POINTS}", 2)
    return True


def _others_bytes(writer, source: str) -> tuple | None:
    """(the constant bytes' mask, whether the choice's icon's byte is read) of the other seats' packed tally as
    the statements read it, or None where they read it otherwise than at those bytes."""
    choice = f"{_OTHERS}[{writer.constant(writer.held.full.index)}[{names.CHOICE}]]"
    constant = _OTHERS_BYTE.findall(source)
    by_choice = source.count(choice)
    if len(_OTHERS_READ.findall(source)) != len(constant) + by_choice:
        return None
    return sum(255 << 8 * int(at) for at in set(constant)), bool(by_choice)


def remembered_lines(remembered: list) -> list:
    """The seat's memos and masks of the remembered categories (the lines of pick_of, before its decisions)."""
    lines = []
    for number, mask, choice_key, others in remembered:
        chosen = f" | _icon_bytes(choosable[{choice_key}], _INDEX)" if choice_key is not None else ""
        lines += [f"{names.REMEMBERED}{number} = {{}}", f"{names.COUNTED}{number} = {mask}{chosen}"]
        if others is not None:
            chosen = f" | _icon_bytes(choosable[{others[1]}], _INDEX)" if others[1] is not None else ""
            lines.append(f"{names.OTHERS_COUNTED}{number} = {others[0]}{chosen}")
    return lines


def icon_bytes(icons, index: dict) -> int:
    """The mask of these icons' bytes in a packed tally (index: icon -> its byte)."""
    mask = 0
    for icon in icons:
        if icon in index:
            mask |= 255 << 8 * index[icon]
    return mask
