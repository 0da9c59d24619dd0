"""The greedy bot's inner loop: the value of every option in every sampled order of a world, in one frame.

The greedy bot values each card it may take by completing its round in a few random orders of the
cards still in play, in a few sampled worlds. The hands of one order share all but one card, so
their tallies, visited cards and the other seats' counts are worked out once for what they share
and once more per option. The function here does that, with value.py's statements (the seat's
categories, races and game end) placed inside its loop over the options. It gives each option
exactly what value.py's own_value (and shared_value) give its hand.

The visited cards are held as a bitmask (names.MASK: bit card.index of each site) where every
statement reads them only as a mask answers (reads.MASK: the shipped editions do), else as a
frozenset; what else a hand needs (the list of its cards, their set, the visited cards in deck
order, their counts) is made for each hand only where a statement reads it.
"""

from __future__ import annotations

from functools import partial

from . import names
from .helpers import Full, Masks, card_mask, deck_order, every_icon, icon_counts, visited_after, visited_with_site
from .reads import MASK, analyse, merged
from .value import seat_bindings, write_standing
from .writer import Writer

_T, _S, _M = names.TALLY, names.SET, names.MASK


def _statements(rules, own: tuple, shared: tuple) -> list:
    """Every expression the order function places."""
    expressions = [e for c in own + shared for e in (c.score, c.choice and c.choice.requires) if e]
    expressions += [race.qualifies for race in rules.races]
    return expressions + [c.score for c in rules.categories if c.when == "game_end" and c.counts]


def masked(rules, own: tuple, shared: tuple) -> bool:
    """Whether every statement reads the visited cards only as a bitmask answers (or not at all)."""
    masks = _masks(rules, {})
    found = merged(analyse(*e.tree[:2], masks) for e in _statements(rules, own, shared))
    return found.answered("visited", {MASK})


def _masks(rules, locals_: dict) -> Masks:
    regions = {region: card_mask(region.cards) for region in rules.regions}
    neighbours = [0] * len(rules.cards)
    for card in rules.cards:
        neighbours[card.index] = card_mask(rules.paths.get(card, ()))
    return Masks(locals_, regions, tuple(neighbours))


def write_order(rules, own: tuple, shared: tuple, variables: frozenset, inputs: tuple, end_constants: dict,
                zeros: dict, sheet: frozenset = frozenset()):
    """(order_of, charges): order_of(**inputs) -> for_decision(first, options, rest) -> for_world(sums, heads,
    dealt) adds to sums, option by option, the value of its hand in every sampled order of the cards in hands of
    which one of heads holds the first rest + 1 cards: an option not in head completes the hand with
    head[:rest], one in head with the rest of head (all hold first + head then, in other orders). With
    shared categories, the other seats hold what was dealt less the hand, counted from dealt. Inputs:
    the seat's standing (previous, choosable, races, players, round, rounds, end_points: its game-end
    points before the round, size and before: how many and which cards it visited before it, in deck
    order, seen: their set). zeros: icon -> 0 of every icon (the tallies hold every icon). charges: whether
    some statement charges the step meter (dsl/meter.py), so that a bot reads the meter only then."""
    is_masked = masked(rules, own, shared)
    others = bool(shared)
    full = Full(frozenset({_T["cards"], _T["others"]}), every_icon(rules), frozenset({"choice"}),
                {(_T["cards"], "choice"): names.CHOICE_COUNT})
    tallies = {"cards": _T["cards"], "visited": _T["visited"], **({"others": _T["others"]} if others else {})}
    writer = Writer(rules, variables, tallies=tallies, sets={"cards": _S["cards"], "visited": _S["visited"]},
                    lengths={} if is_masked else {"visited": _S["visited"]}, full=full,
                    masks=_masks(rules, {"visited": _M["visited"]}) if is_masked else None, caught=True, indent=2)
    sites_local = _M["visited"] if is_masked else _S["visited"]
    visited_now = f"{sites_local}.bit_count()" if is_masked else f"len({sites_local})"   # how many are visited
    write_standing(writer, rules, own, shared, end_constants, sites_local,
                   f"end_points if {visited_now} != size else None", "sums[index] += value", sheet)
    as_set = _S["cards"] in writer.used
    hand = as_set or "cards" in writer.read_variables
    counted = _T["visited"] in writer.used
    listed = counted or "visited" in writer.read_variables
    assert not (is_masked and listed), "reads.Uses found the visited cards answered by their mask"
    loop = _loop(is_masked, listed, others, hand, counted, as_set, sites_local)
    decision = ["first_visited = _visited_after(before, seen, first)", "first_tally = _counts(first)",
                "first_mask = _card_mask(first_visited)" if is_masked else "first_sites = frozenset(first_visited)",
                f"{names.MEMO} = {{}}"]
    world = ["dealt_set = set(dealt)", "dealt_counts = _counts(dealt)"] if others else []
    body = [f"    def order_of(*, {', '.join(inputs)}):",
            *("        " + line for line in seat_bindings(writer, sheet)),
            "        def for_decision(first, options, rest):",
            *("            " + line for line in decision),
            "            def for_world(sums, heads, dealt):",
            *("                " + line for line in world + loop),
            *("        " + line for line in writer.lines),
            "            return for_world",
            "        return for_decision",
            "    return order_of"]
    helpers = {"_with_site": visited_with_site, "len": len, "enumerate": enumerate, "set": set, "_sorted": sorted,
               "_deck_order": deck_order, "_visited_after": visited_after, "_card_mask": card_mask,
               "_counts": partial(icon_counts, zeros)}
    return writer.compile(body, helpers), writer.charges


def _loop(is_masked: bool, listed: bool, others: bool, hand: bool, counted: bool, as_set: bool,
          sites_local: str) -> list:
    """The statements of for_world before the placed ones: for each head, what every option shares, then
    for each option the hand's tally, visited cards (their set or mask) and the other seats' counts."""
    def added(head: bool, card: str, indent: str) -> list:
        """(tally, visited, sites, counts) of first + usual with `card` added to the hand (so the others
        less it), the icons counted as icon_counts counts them; head: named for the head's hand."""
        tally, visited, sites, counts = _held(head, sites_local)
        lines = [f"{tally} = tally.copy()", f"for icon in {card}.icons:", f"    {tally}[icon] += 1"]
        if is_masked:
            lines += [f"{sites} = sites | 1 << {card}.site.index"]
        elif listed:
            lines += [f"site = {card}.site", "if site in sites:", f"    {visited}, {sites} = visited, sites",
                      "else:", f"    {visited}, {sites} = _with_site(visited, site), sites | {{site}}"]
        else:
            lines += [f"site = {card}.site", f"{sites} = sites if site in sites else sites | {{site}}"]
        if others:
            base = names.OTHERS_BASE
            lines += [f"{counts} = {base}", f"if {card} in dealt_set:", f"    {counts} = {base}.copy()",
                      f"    for icon in {card}.icons:", f"        {counts}[icon] -= 1"]
        return [indent + line for line in lines]

    def kept(held: tuple) -> str:
        """The names of what a hand holds that the statements read."""
        tally, visited, sites, counts = held
        return ", ".join([tally, *([visited] if listed else []), sites, *([counts] if others else [])])

    usual = ("tally", "visited", "sites", names.OTHERS_BASE)
    # what every option not in head adds its card to: first + usual (the others' counts without them)
    if is_masked:
        order = ["usual = head[:rest]", "tally = first_tally.copy()", "sites = first_mask", "for more in usual:",
                 "    sites |= 1 << more.site.index", "    for icon in more.icons:", "        tally[icon] += 1"]
    else:
        order = ["usual = head[:rest]", "tally = first_tally.copy()", "for more in usual:",
                 "    for icon in more.icons:", "        tally[icon] += 1",
                 "new = [more.site for more in usual if more.site not in first_sites]",
                 "sites = first_sites.union(new) if new else first_sites"]
    order += ["visited = _sorted(sites, key=_deck_order) if new else first_visited"] if listed else []
    order += [f"{names.OTHERS_BASE} = {names.OTHERS_FIRST}.copy()", "for more in usual:", "    if more in dealt_set:",
              "        for icon in more.icons:", f"            {names.OTHERS_BASE}[icon] -= 1"] if others else []
    order += ["bag = None", "for index, card in enumerate(options):", "    if card in head:",
              "        if bag is None:   # every option in head: the hand holds first + head, in some order",
              "            if len(head) > rest:"]
    order += added(True, "head[rest]", " " * 16)
    order += [f"                bag = ({kept(_held(True, sites_local))})", "            else:",
              f"                bag = ({kept(usual)})",
              f"        {kept(_held(False, sites_local))} = bag"]
    if hand:
        order += ["        last = [c for c in head if c is not card]",
                  f"        {names.CATCH} = last[-1] if last else card",
                  f"        {names.CARDS} = first + [card] + last"]
    else:   # the last card of head but this one, without the list
        order += [f"        {names.CATCH} = head[-1] if head[-1] is not card else head[-2] if len(head) > 1 else card"]
    order += ["    else:"] + added(False, "card", " " * 8)
    order += [f"        {names.CATCH} = usual[-1] if usual else card"]
    order += [f"        {names.CARDS} = first + [card] + usual"] if hand else []
    order += ["    if not first:", f"        {names.THROW} = card"]
    order += [f"    {_T['visited']} = _tally({names.VISITED})"] if counted else []
    order += [f"    {_S['cards']} = frozenset({names.CARDS})"] if as_set else []
    loop = [f"{names.SITES} = None", f"{names.THROW} = first[0] if first else None"]
    # the others' counts without first, the same in every order of the world
    loop += [f"{names.OTHERS_FIRST} = dealt_counts.copy()", "for more in first:", "    if more in dealt_set:",
             "        for icon in more.icons:", f"            {names.OTHERS_FIRST}[icon] -= 1"] if others else []
    return loop + ["for head in heads:", *("    " + line for line in order)]


def _held(head: bool, sites_local: str) -> tuple:
    """(tally, visited, sites, others' counts): the locals of the head's hand, or of the hand valued."""
    if head:
        return names.HEAD["tally"], names.HEAD["visited"], names.HEAD["sites"], names.HEAD["others"]
    return _T["cards"], names.VISITED, sites_local, _T["others"]
