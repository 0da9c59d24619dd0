"""The search bot's rollout pick: a seat's greedy pick of one hand, every option valued in one frame, the tally packed.

A rollout of the search bot (bots/backend.py) picks for every seat it plays the card of its hand whose cards taken
(the card before the latest of them) are worth most: rollout.greedy_pick. The order function (order.py) values
such options too, but for every sampled order of a world, and its set-up (the shared cards' visited list, tally
and mask, two closures) is made again for every pick; a rollout's pick needs one hand only. Here:
- the tally of a hand is packed (helpers.packed_icons): one int a card, their sum as bytes, so a hand's tally is an
  add and a to_bytes where a dict is copied and added to icon by icon;
- the visited cards are a bitmask (the seat's earlier ones, made once a seat, | a bit a card);
- the statements are value.py's (the seat's own categories, a choice at its best icon, the open races and the
  game-end gain), as the order function places them, so each option gets exactly what own_value gives its hand;
  the races and game end are remembered by visited mask for the whole decision, and a category that reads of the
  hand only a few icons' counts by those counts for the seat's standing (counted.py);
- each card's worth is remembered in the caller's `known` (another hand of the decision with the same cards taken
  shares most of its cards: half the cards a rollout values, measured);
- the best is kept as it goes (the first of equals), no list of values; a hand of one card gives its value alone
  (the search bot's rollouts value the cards a round ends with so).
The categories that read the other seats' cards (Europe's National Treasures) count them from a packed tally of
their cards (its int handed in: the rollout adds a card's int as it is taken), made once a pick, where seat_value
counts them again for every hand. Written only where every statement reads the visited cards as a mask answers,
the other seats' cards are read as `others` and only counted, and every icon fits a byte of the packed tally (the
shipped editions but some variants): else None, and the caller values the options as before.
"""

from __future__ import annotations

from . import names
from .counted import icon_bytes, remembered_lines
from .helpers import Full, card_mask, every_icon, packed_icons, site_bits
from .order import _masks, masked
from .value import SEAT_BY_SEAT, category_reads, counted_only, seat_bindings, write_categories, write_standing
from .writer import Writer

_T, _S, _M = names.TALLY, names.SET, names.MASK


def write_pick(rules, own: tuple, shared: tuple, variables: frozenset, inputs: tuple, end_constants: dict,
               sheet: frozenset = frozenset()):
    """(pick_of, charges), or None where it is not written (see the module docstring).
    pick_of(**inputs) -> for_decision() -> pick(hand, first, last, known, others): the card of hand whose hand
    first + [card] + last is worth most to the seat, the first of equals, and that worth, what seat_value gives the
    hand (first: the cards taken but the latest, all of them when fewer than two; last: [the latest] or []; hand not
    empty; known: card -> its worth with these cards taken and others, read, and added to for each card it lacks;
    where categories read the other seats' cards (pick.own_known), its worth without them, own_value's: the same
    for any others, theirs added to it afresh each time;
    others: the other seats' cards as a packed tally's int, the sum of what `icons` gives each, read by the
    shared categories only). for_decision makes the decision's memo of races by visited mask. pick.at(hand, first,
    last, known, others, x, sites): the same, for a caller that keeps first + last's packed tally int (x: the sum of
    packed_icons' ints) and visited sites (sites: the | of helpers.site_bits'; with a hand of one card, its own bit
    in it or not: it is | in again) as their cards are taken: no loop over first and last. pick.others: the mask
    of the bytes of `others` the pick reads (-1: all; the shared categories remembered by the counts they read,
    counted.py: the bytes of the icons they count), so a caller may hand it and key its picks by `others & mask`.
    Inputs: the order function's (the seat's standing; before and seen: the sites it visited before the round).
    charges: whether some statement charges the step meter (dsl/meter.py). shared: the categories that read the
    other seats' cards, written only where they read `others` alone and only its counts (a pile of cards, as a
    bot's greedy pick hands them)."""
    icons = every_icon(rules)
    packed = packed_icons(icons, rules.cards)
    if packed is None or not masked(rules, own, shared):
        return None
    if shared and (not counted_only(shared) or category_reads(shared) & SEAT_BY_SEAT):
        return None
    index, icon_ints = packed
    full = Full(frozenset({_T["cards"], _T["others"]}), icons, frozenset({"choice"}),
                {(_T["cards"], "choice"): names.CHOICE_COUNT}, index=index)
    writer = Writer(rules, variables, tallies={"cards": _T["cards"], "visited": _T["visited"], "others": _T["others"]},
                    sets={"cards": _S["cards"], "visited": _S["visited"]}, lengths={}, full=full,
                    masks=_masks(rules, {"visited": _M["visited"]}), caught=True, indent=4)
    writer.remembered = []   # the categories remembered by the counts they read (counted.py)
    mask = _M["visited"]
    write_standing(writer, rules, own, (), end_constants, mask, f"end_points if {mask}.bit_count() != size else None",
                   "pass", sheet)
    others_mask = "-1"   # the bytes of `others` the pick reads: all of them, unless every shared category is remembered
    if shared:   # added to the rest as seat_value adds them: own_value's value + their sum, for every card
        writer.emit("known[card] = own = value", 2)
        writer.indent -= 1   # (out of `if own is None:`)
        writer.emit("value = 0", 2)
        before = len(writer.remembered)
        writer.lazy_tally = {_T["cards"]: f"{names.PACKED}.to_bytes({len(index) + 1}, 'little')",
                             _T["others"]: f"others.to_bytes({len(index) + 1}, 'little')"}
        write_categories(writer, shared)
        writer.lazy_tally = None
        remembered = writer.remembered[before:]
        if len(remembered) == len(shared):   # each read `others` at those bytes alone, if at all (counted.py)
            others_mask = " | ".join([f"{names.OTHERS_COUNTED}{entry[0]}" for entry in remembered
                                      if entry[3] is not None] or ["0"])
        writer.emit("value = own + value", 2)
        writer.indent += 1
        if (writer.read_variables - writer.hand_reads) & sheet:   # a sheet variable seat_bindings would not bind
            return None
    else:
        writer.emit("known[card] = value", 2)
    writer.emit("if top_value is None or value > top_value:", 1)
    writer.emit("top, top_value = card, value", 2)
    if _T["visited"] in writer.used or "visited" in writer.read_variables:   # never with the mask (reads.Uses)
        return None
    as_set = _S["cards"] in writer.used
    hand = as_set or "cards" in writer.read_variables
    per_card = [f"{names.PACKED} = x + _ICONS[card]",
                f"{_T['cards']} = {names.PACKED}.to_bytes({len(index) + 1}, 'little')",
                f"{mask} = sites | _SITE[card]",
                f"{names.THROW} = first[0] if first else card",
                f"{names.CATCH} = last[0] if last else card"]
    per_card += [f"{names.CARDS} = first + [card] + last"] if hand else []
    per_card += [f"{_S['cards']} = frozenset({names.CARDS})"] if as_set else []
    body = [f"    def pick_of(*, {', '.join(inputs)}):",
            *("        " + line for line in seat_bindings(writer, sheet)),
            "        before_mask = _card_mask(before)",
            *("        " + line for line in remembered_lines(writer.remembered)),
            "        def for_decision():",
            f"            {names.MEMO} = {{}}",
            "            def pick_at(hand, first, last, known, others, x, sites):",
            *([f"                {_T['others']} = others.to_bytes({len(index) + 1}, 'little')"]
              if _T["others"] in writer.used and others_mask == "-1" else []),
            "                sites |= before_mask",
            f"                {names.SITES} = None",
            "                top = top_value = None",
            "                for card in hand:",
            *(["                    own = known.get(card)",
               *("                    " + line for line in per_card),
               "                    if own is None:"] if shared and others_mask == "-1" else
              ["                    own = known.get(card)",   # the shared categories remembered: their misses
               "                    " + per_card[0],          # make the tally they read (counted.py)
               "                    if own is None:",
               *("                        " + line for line in per_card[1:])] if shared else
              ["                    value = known.get(card)",
               "                    if value is None:",
               *("                        " + line for line in per_card)]),
            *writer.lines,
            "                return top, top_value",
            "            def pick(hand, first, last, known, others):",
            "                x = sites = 0",
            "                for more in first:",
            "                    x += _ICONS[more]",
            "                    sites |= _SITE[more]",
            "                for more in last:",
            "                    x += _ICONS[more]",
            "                    sites |= _SITE[more]",
            "                return pick_at(hand, first, last, known, others, x, sites)",
            "            pick.at = pick_at",
            f"            pick.others = {others_mask}",
            f"            pick.own_known = {bool(shared)}",
            "            return pick",
            "        return for_decision",
            "    return pick_of"]
    helpers = {"_ICONS": icon_ints, "_SITE": site_bits(rules.cards), "_card_mask": card_mask, "frozenset": frozenset,
               "_icon_bytes": icon_bytes, "_INDEX": index}
    return writer.compile(body, helpers), writer.charges
