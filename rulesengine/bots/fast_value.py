"""The bots' value of a hand (evaluate._own_value, and the categories that read the other seats'
cards) as generated Python functions, one of each per edition.

A greedy game values some 8,000 hypothetical hands, each through a dozen compiled expressions
called one by one with their environment dicts, the choice icons and race regions looped over in
scoring_rules. Here every own round category, choice, race and game-end category of the edition is
written into one function (game/generated.py), the shared categories into another. They add the
same numbers as the expression-by-expression value, and an expression that fails on a hand counts
as the default that value gives it (0 points, not qualified), so a bot decides exactly as before.
An edition with anything the generator does not translate keeps the expression-by-expression value.
"""

from __future__ import annotations

import re

from .. import dsl
from ..dsl import Unsupported
from ..edition.model import GAME_END
from ..edition.scopes import game_end_env, line_keys, moment, sheet_lines
from ..game.generated import END, RACE, ROUND, TABLE, Writer, every_icon, generated, reads
from ..game.scoring_rules import deck_order, visited_with_site

_END_FIXED = ("round_totals", "lines", "opponents", "left", "right")   # the same in every hand a bot values
SEAT_BY_SEAT = frozenset({"opponents", "left", "right"})   # the other seats' cards told apart
_BY_VISITED = frozenset({"visited", "region", "players", "round", "rounds"})   # what a race may read to be cached
# In a sampled world the bot cannot tell the other seats apart: their cards are one pile, `others`, and a
# round category's left and right neighbours are that pile too (scopes.table_env), its cards and its visited
# cards alike. So a count over any of them reads the same tally, T_others (what was dealt less the hand).
_POOLED = {"g_left.cards": "T_others", "g_right.cards": "T_others", "g_left.visited": "T_others",
           "g_right.visited": "T_others"}
_TABLE_READ = re.compile(r"\bg_(others|opponents|left|right)\b")   # the other seats read otherwise than counted


def _write_categories(writer: Writer, categories: tuple, allowed: frozenset) -> None:
    """value += each category's points (a choice at its best icon, or 0), as rules.category_points."""
    emit, value = writer.emit, writer.value
    for category in categories:
        key = writer.constant(category.key)
        requires = category.choice.requires if category.choice else None
        if "previous" in reads((category,)):
            emit(f"g_previous = previous.get({key}, 0)", 2)
        if category.choice is None:
            value("value", category.score, allowed, 2, add=True)
            continue
        emit("best = 0", 2)
        emit(f"for g_choice in choosable[{key}]:", 2)   # evaluate.SeatPast.choosable: not those used up
        start = len(writer.lines)
        if requires is not None:
            value("ok", requires, allowed, 3, "False")
            emit("if not ok:", 3)
            emit("continue", 4)
        value("p", category.score, allowed, 3, "0")
        for (tally, icon), local in (writer.full.once.items() if writer.full else ()):
            if any(local in line for line in writer.lines[start:]):   # read once for the requires and the points
                writer.insert(start, f"{local} = {tally}[{icon}]", 3)
        emit("if p > best:", 3)
        emit("best = p", 4)
        emit("value += best", 2)


def _write(edition, own: tuple, indent: int = 0, finish: str = "return value", lengths: dict | None = None,
           by_visited: str | None = None, shared: tuple = (), end_before: str | None = None,
           full: dsl.Full | None = None, masks: dsl.Masks | None = None) -> Writer:
    """The statements of own_value's body. by_visited: the local holding the visited cards as a set
    (S_visited) or a mask (M_visited): the races and game-end categories, when they read nothing of the
    hand but its visited cards, are worked out again only when it holds other cards than the last time
    (R_sites, set to None before the first time; a set compared by identity, a mask by value, and the
    values of every mask kept in R_memo, given by the caller for all the hands it values alike). shared:
    categories that read the other seats' cards too, counted in T_others (their neighbours' too: see
    _POOLED), Unsupported where they read them otherwise. end_before: how to work out
    end_before, the game-end points before the round or None, where the races and game-end categories
    are (else it is given); full: the tallies given with every icon in them; masks: the values held as
    bitmasks."""
    writer = Writer(indent, counted={"g_others": "T_others"} if shared else None, lengths=lengths, full=full,
                    masks=masks)
    emit, value = writer.emit, writer.value
    emit("value = 0", 2)
    _write_categories(writer, own, ROUND)
    if shared:
        writer.tallies.update(_POOLED)   # for the shared categories only: a game end's neighbours are no pile
        start = len(writer.lines)
        _write_categories(writer, shared, ROUND | TABLE)
        if any(_TABLE_READ.search(line) for line in writer.lines[start:]):
            raise Unsupported("the other seats' cards otherwise than by their counts")
        for source in _POOLED:
            del writer.tallies[source]
    # variables also holds the names a comprehension or let binds (Europe's passport: r): only game variables count
    cached = by_visited and all(race.qualifies.variables & RACE <= _BY_VISITED for race in edition.races)
    remembered = cached and by_visited == "M_visited"
    depth, total = (4 if remembered else 3, "R_value") if cached else (2, "value")
    if cached:
        emit(f"if {by_visited} {'!=' if remembered else 'is not'} R_sites:", 2)
        emit(f"R_sites = {by_visited}", 3)
        if remembered:   # a mask is hashed at no cost: the values of every mask seen in the decision (R_memo)
            emit("R_value = R_memo.get(M_visited)", 3)
            emit("if R_value is None:", 3)
        emit("R_value = 0", depth)
    if end_before is not None:
        emit(f"end_before = {end_before}", depth)
    for index, race in enumerate(edition.races):
        emit(f"for g_region, award in races[{index}]:", depth)
        value("ok", race.qualifies, RACE, depth + 1, "False")
        emit("if ok:", depth + 1)
        emit(f"{total} += award", depth + 2)
    emit("if end_before is not None:", depth)
    fixed = _end_constants(edition)
    for name in _END_FIXED:
        emit(f"g_{name} = {writer.constant(fixed[name])}", depth + 1)
    emit("end = 0", depth + 1)
    for category in edition.categories:
        if category.when == GAME_END and category.counts:
            value("end", category.score, END, depth + 1, add=True)
    emit(f"{total} += end - end_before", depth + 1)
    if remembered:
        emit("R_memo[M_visited] = R_value", depth)
    if cached:
        emit("value += R_value", 2)
    emit(finish, 2)
    return writer


def _end_constants(edition) -> dict:
    """What a bot's game-end environment holds besides visited, players and rounds (as
    scoring_rules.game_end_points builds it for evaluate._end_points: no other seats, no rounds)."""
    categories = [c for c in edition.categories if c.when == GAME_END]
    lines = sheet_lines(line_keys(edition), []) if any("lines" in c.score.variables for c in categories) else None
    return game_end_env(moment(edition, 0, 0), [], None, (), lines)


def shared_value_function(shared: tuple):
    """f(cards, visited, previous, choosable, table, players, round, rounds) -> what the categories that read
    the other seats' cards add to seat_value (table: (others, opponents, left, right) as scopes.round_env
    makes them); None when the generator does not translate one of them."""
    def write():
        writer = Writer(counted={"g_others": "T_others"})
        writer.emit("value = 0", 2)
        _write_categories(writer, shared, ROUND | TABLE)
        writer.emit("return value", 2)
        parameters = "g_cards, g_visited, previous, choosable, table, g_players, g_round, g_rounds"
        return writer.function("shared_value", parameters, ["g_throw = g_cards[0]", "g_catch = g_cards[-1]",
                                                            "g_others, g_opponents, g_left, g_right = table"])
    return generated(write)


def own_value_function(edition, own: tuple):
    """f(cards, visited, previous, choosable, races, players, round, rounds, end_before, tally) -> the
    value _own_value gives (races: for each race of the edition, the (region, award) still open to the
    seat; end_before: its game-end points before this round, or None when its visited cards do not
    change; tally: icon -> how often it is printed on cards, or None); None when the
    edition has something the generator does not translate."""
    if any(c.when == GAME_END and c.score is None for c in edition.categories):
        return None
    return generated(lambda: _write(edition, own).function(
        "own_value", "g_cards, g_visited, previous, choosable, races, g_players, g_round, g_rounds, end_before, tally",
        ["g_throw = g_cards[0]", "g_catch = g_cards[-1]"], tallied={"g_cards": "tally"},
    ))


def own_order_function(edition, own: tuple, shared: tuple = ()):
    """f(first, options, rest, first_tally, first_visited, first_sites, first_mask, previous, choosable, races,
    players, round, rounds, end_points, size, memo, sums, heads, dealt, dealt_set, dealt_counts) adds to sums,
    option by option, the own_value of its hand in every sampled order of the cards in hands of which one
    of heads holds the first rest + 1 cards: an option not in head completes the hand with head[:rest], one
    in head with the rest of head (all hold first + head then, in other orders). All in one frame, the
    orders of a sampled world one after the other, as the greedy bot adds them. first_tally,
    first_visited, first_sites and first_mask (the same as a frozenset and as dsl.card_mask makes it) are
    those of first; end_points: the game-end points before the round; size: how many cards were visited
    before it; memo: a dict, empty at first, where it keeps the points of the races and game-end
    categories by visited cards (shared by the calls with the same arguments before it); the tallies
    hold every icon, as icon_counts makes them. Every argument before sums is the same in every order of
    a decision, bound once (evaluate.hand_values). With shared categories (those that read the other
    seats' cards), it adds them, the other seats holding what was dealt less the hand, counted from
    dealt_set and dealt_counts, the cards of the sampled world as a set and their icon counts (dealt
    itself is not read); None when one of them reads those cards otherwise than by their counts, and as
    for own_value_function.

    The visited cards are held as a bitmask where every expression reads them only as one answers
    (dsl.Masks: the shipped editions do), else as a frozenset."""
    if any(c.when == GAME_END and c.score is None for c in edition.categories):
        return None
    return generated(lambda: _own_order(edition, own, shared, masked=True)) or \
        generated(lambda: _own_order(edition, own, shared, masked=False))


def _own_order(edition, own: tuple, shared: tuple, masked: bool):
    """own_order_function's function, the visited cards as a bitmask (M_visited) or a frozenset (S_visited);
    masked, it raises Unsupported where an expression reads them otherwise than as a mask answers."""
    full = dsl.Full(frozenset({"T_cards", "T_others"}), every_icon(edition), frozenset({"g_choice"}),
                    {("T_cards", "g_choice"): "C_choice"})
    if masked:
        regions = {region: dsl.card_mask(region.cards) for region in edition.regions}
        neighbours = [0] * len(edition.cards)
        for card in edition.cards:
            neighbours[card.index] = dsl.card_mask(edition.paths.get(card, ()))
        masks = dsl.Masks({"g_visited": "M_visited"}, regions, tuple(neighbours))
        lengths, sites_local = None, "M_visited"
    else:
        masks, lengths, sites_local = None, {"g_visited": "S_visited"}, "S_visited"
    visited_now = "M_visited.bit_count()" if masked else "len(S_visited)"   # how many cards are visited
    writer = _write(edition, own, indent=2, finish="sums[index] += value", lengths=lengths, by_visited=sites_local,
                    shared=shared, end_before=f"end_points if {visited_now} != size else None", full=full,
                    masks=masks)
    # the hand as a list only if something reads it (else only the Throw and the Catch are), and as a set
    # (S_cards, made again for each hand)
    as_set = any("S_cards" in line for line in writer.lines)
    hand = as_set or any("g_cards" in line for line in writer.lines)
    # the visited cards as a list, in deck order, only if something reads more than their set and length:
    # the list itself, or its icon counts (T_visited, counted again for each hand)
    counted = any("T_visited" in line for line in writer.lines)
    listed = counted or any("g_visited" in line for line in writer.lines)
    if masked and listed:
        raise Unsupported("the visited cards otherwise than as a mask answers")
    others = bool(shared)   # the icon counts of the other seats' cards, T_others, for each hand

    def added(names: str, card: str, indent: str) -> list:
        """names (a tally, visited cards, their set or mask, the others' counts) = those of first + usual with
        `card` added to the hand (so the others less it), the icons counted as icon_counts counts them."""
        tally, visited, sites, counts = names.split(", ")
        lines = [f"{tally} = tally.copy()", f"for icon in {card}.icons:", f"    {tally}[icon] += 1"]
        if masked:
            lines += [f"{sites} = sites | 1 << {card}.site.index"]
        elif listed:
            lines += [f"site = {card}.site", "if site in sites:", f"    {visited}, {sites} = visited, sites",
                      "else:", f"    {visited}, {sites} = _with_site(visited, site), sites | {{site}}"]
        else:
            lines += [f"site = {card}.site", f"{sites} = sites if site in sites else sites | {{site}}"]
        if others:
            lines += [f"{counts} = O_base", f"if {card} in dealt_set:", f"    {counts} = O_base.copy()",
                      f"    for icon in {card}.icons:", f"        {counts}[icon] -= 1"]
        return [indent + line for line in lines]

    def kept(tally: str, visited: str, sites: str, counts: str) -> str:
        """The names of what a hand holds that the statements read."""
        return ", ".join([tally, *([visited] if listed else []), sites, *([counts] if others else [])])

    # tally, visited, sites (O_base): those of first + usual (the others' counts without them), what every
    # option not in head adds its card to; the counts written out as in `added` (a helper called here,
    # once an order, cost 0.5% of a greedy game, 1.6% in Europe)
    if masked:
        order = ["usual = head[:rest]", "tally = first_tally.copy()", "sites = first_mask", "for more in usual:",
                 "    sites |= 1 << more.site.index", "    for icon in more.icons:", "        tally[icon] += 1"]
    else:
        order = ["usual = head[:rest]", "tally = first_tally.copy()", "for more in usual:",
                 "    for icon in more.icons:", "        tally[icon] += 1",
                 "new = [more.site for more in usual if more.site not in first_sites]",
                 "sites = first_sites.union(new) if new else first_sites"]
    order += ["visited = _sorted(sites, key=_deck_order) if new else first_visited"] if listed else []
    order += ["O_base = O_first.copy()", "for more in usual:", "    if more in dealt_set:",
              "        for icon in more.icons:", "            O_base[icon] -= 1"] if others else []
    order += ["bag = None", "for index, card in enumerate(options):", "    if card in head:",
              "        if bag is None:   # every option in head: the hand holds first + head, in some order",
              "            if len(head) > rest:"]
    order += added("H_tally, H_visited, H_sites, H_others", "head[rest]", " " * 16)
    order += [f"                bag = ({kept('H_tally', 'H_visited', 'H_sites', 'H_others')})", "            else:",
              f"                bag = ({kept('tally', 'visited', 'sites', 'O_base')})",
              f"        {kept('T_cards', 'g_visited', sites_local, 'T_others')} = bag"]
    if hand:
        order += ["        last = [c for c in head if c is not card]",
                  "        g_catch = last[-1] if last else card", "        g_cards = first + [card] + last"]
    else:   # the last card of head but this one, without the list
        order += ["        g_catch = head[-1] if head[-1] is not card else head[-2] if len(head) > 1 else card"]
    order += ["    else:"] + added(f"T_cards, g_visited, {sites_local}, T_others", "card", " " * 8)
    order += ["        g_catch = usual[-1] if usual else card"]
    order += ["        g_cards = first + [card] + usual"] if hand else []
    order += ["    if not first:", "        g_throw = card"]
    order += ["    T_visited = _tally(g_visited)"] if counted else []
    order += ["    S_cards = frozenset(g_cards)"] if as_set else []
    # R_sites: the races are worked out again only for other visited cards, from order to order too
    loop = ["R_sites = None", "g_throw = first[0] if first else None"]
    # O_first: the others' counts without first, the same in every order of the world
    loop += ["O_first = dealt_counts.copy()", "for more in first:", "    if more in dealt_set:",
             "        for icon in more.icons:", "            O_first[icon] -= 1"] if others else []
    loop += ["for head in heads:", *("    " + line for line in order)]
    parameters = ("first, options, rest, first_tally, first_visited, first_sites, first_mask, previous, choosable, "
                  "races, g_players, g_round, g_rounds, end_points, size, R_memo, sums, heads, dealt, dealt_set=None, "
                  "dealt_counts=None")
    return writer.function("own_order", parameters, loop,
                           given=frozenset({"T_cards", "S_visited", "T_others", "T_visited", "S_cards"}),
                           helpers={"_with_site": visited_with_site, "len": len, "enumerate": enumerate,
                                    "_sorted": sorted, "_deck_order": deck_order})
