"""The bots' part of an edition's program: what a hand would add to a seat's final total.

A greedy game values some 8,000 hypothetical hands, each through a dozen expressions; here every
round category the seat's own cards decide, its choices at their best icon, the races still open
to it (as if it alone qualified) and the gain of the game-end categories are statements of one
generated function, and the round categories that read the other seats' cards of another. An
expression that fails on a hand counts its default (0 points, not qualified), as the reference
interpreter gives it, so a bot decides the same whichever runs. order.py adds the function that
values the options of a whole sampled order at once.
"""

from __future__ import annotations

from . import names
from .counted import write_remembered
from .reads import reads_of
from .writer import Writer

SEAT_BY_SEAT = frozenset({"opponents", "left", "right"})   # the other seats' cards told apart
# In a sampled world the bot cannot tell the other seats apart: their cards are one pile, `others`, and a
# round category's left and right neighbours are that pile too (scopes.table_env), its cards and its visited
# cards alike. So a count over any of them reads the same tally of the pile.
POOLED = {"others": names.TALLY["others"], "left.cards": names.TALLY["others"], "right.cards": names.TALLY["others"],
          "left.visited": names.TALLY["others"], "right.visited": names.TALLY["others"]}
_BY_VISITED = frozenset({"visited", "region", "players", "round", "rounds"})   # what a race may read to be cached
_CHOICE_COUNT = (names.TALLY["cards"], "choice")


def reads(expressions) -> frozenset:
    """Every game variable these expressions read."""
    return frozenset().union(*(reads_of(e).variables() for e in expressions))


def category_reads(categories) -> frozenset:
    """Every game variable these categories' scores and choices' requires read."""
    expressions = [c.score for c in categories] + [c.choice.requires for c in categories
                                                    if c.choice and c.choice.requires]
    return reads(expressions)


def counted_only(categories) -> bool:
    """Whether these categories read the other seats' cards only by their counts (of `others`, or of a
    neighbour's cards or visited cards): a sampled world's pile of them answers."""
    found = [reads_of(e) for c in categories for e in (c.score, c.choice and c.choice.requires) if e]
    for one in found:
        for path in one.paths:
            if path.split(".")[0] in {"others"} | SEAT_BY_SEAT and (path not in POOLED or not
                                                                      one.answered(path, {"count"})):
                return False
    return True


def write_categories(writer: Writer, categories: tuple) -> None:
    """value += each category's points (a choice at its best icon among `choosable`, or 0); where the caller
    remembers points by the counts they read (writer.remembered: pick.py), through that memo (counted.py)."""
    for category in categories:
        key = writer.constant(category.key)
        if "previous" in category_reads((category,)):
            writer.emit(f"{names.PREVIOUS} = previous.get({key}, 0)", 2)
        if not write_remembered(writer, category, key, write_points):
            write_points(writer, category, key, "value", 2, True)


def write_points(writer: Writer, category, key: str, target: str, depth: int, add: bool) -> None:
    """target = (or += with add) the category's points: a choice's at its best icon among `choosable`, or 0; a
    failing expression counts 0 (a choice's icon whose requires fails is not chosen)."""
    emit, value = writer.emit, writer.value
    if category.choice is None:
        if add:
            value(target, category.score, depth, add=True)
        else:
            value(target, category.score, depth, "0")
        return
    requires = category.choice.requires
    emit("best = 0", depth)
    emit(f"for {names.CHOICE} in choosable[{key}]:", depth)   # not the icons used up
    start, used = len(writer.lines), set()
    if requires is not None:
        used |= value("ok", requires, depth + 1, "False")
        emit("if not ok:", depth + 1)
        emit("continue", depth + 2)
    used |= value("p", category.score, depth + 1, "0")
    full = writer.held.full
    for (tally, icon), local in (full.once if full else {}).items():
        if local in used:   # read once for the requires and the points (a packed tally: at the icon's byte)
            at = names.game(icon) if full.index is None else f"{writer.constant(full.index)}[{names.game(icon)}]"
            writer.insert(start, f"{local} = {tally}[{at}]", depth + 1)
    emit("if p > best:", depth + 1)
    emit("best = p", depth + 2)
    emit(f"{target} {'+=' if add else '='} best", depth)


def write_standing(writer: Writer, rules, own: tuple, shared: tuple, end_constants: dict, by_visited: str | None,
                   end_before: str | None, finish: str, sheet: frozenset = frozenset()) -> None:
    """The statements of a hand's value: own (and shared) categories, the races still open (`races`:
    for each race, the (region, award) the seat may still take), the game-end gain (end_points before
    the round, where the visited cards grew). by_visited: the local holding the visited cards as a
    set or a mask: the races and game-end categories, when they read nothing of the hand but its
    visited cards, are worked out again only when it holds other cards than the last time (a set
    compared by identity, a mask by value, and the values of every mask kept in the memo). sheet: the
    variables of the sheet so far, read from the factory's `sheet` input."""
    emit, value = writer.emit, writer.value
    start = len(writer.lines)
    emit("value = 0", 2)
    write_categories(writer, own)
    if shared:
        tallies = writer.held.tallies
        pooled = {path: local for path, local in POOLED.items() if path not in tallies}
        tallies.update(pooled)   # for the shared categories only: a game end's neighbours are no pile
        write_categories(writer, shared)
        for path in pooled:
            del tallies[path]
    cached = by_visited is not None and all(reads_of(race.qualifies).variables() <= _BY_VISITED
                                            for race in rules.races)
    remembered = cached and by_visited == names.MASK["visited"]
    depth, total = (4 if remembered else 3, names.RACES_VALUE) if cached else (2, "value")
    if cached:
        emit(f"if {by_visited} {'!=' if remembered else 'is not'} {names.SITES}:", 2)
        emit(f"{names.SITES} = {by_visited}", 3)
        if remembered:   # a mask is hashed at no cost: the values of every mask seen in the decision
            emit(f"{names.RACES_VALUE} = {names.MEMO}.get({by_visited})", 3)
            emit(f"if {names.RACES_VALUE} is None:", 3)
        emit(f"{names.RACES_VALUE} = 0", depth)
    if end_before is not None:
        emit(f"end_before = {end_before}", depth)
    for index, race in enumerate(rules.races):
        emit(f"for {names.REGION}, award in races[{index}]:", depth)
        value("ok", race.qualifies, depth + 1, "False")
        emit("if ok:", depth + 1)
        emit(f"{total} += award", depth + 2)
    emit("if end_before is not None:", depth)
    ends = [c for c in rules.categories if c.when == "game_end" and c.counts]
    ending = reads(c.score for c in ends)
    hand_read = writer.hand_reads = frozenset(writer.read_variables)   # what the round categories and races read
    for name, constant in end_constants.items():   # the game end as a bot sees it: no rounds on the sheet
        if name in ending:
            emit(f"{names.game(name)} = {writer.constant(constant)}", depth + 1)
    emit("end = 0", depth + 1)
    for category in ends:
        value("end", category.score, depth + 1, add=True)
    emit(f"{total} += end - end_before", depth + 1)
    again = sorted(ending & hand_read & sheet & set(end_constants))
    for name in again:   # the seat's own sheet again, for the next hand's rounds
        emit(f"{names.game(name)} = sheet.{name}", depth + 1)
    if again:   # bound once a seat (seat_bindings), set and set again here: the same variable, not a new local
        writer.insert(start, f"nonlocal {', '.join(names.game(name) for name in again)}", 2)
    if remembered:
        emit(f"{names.MEMO}[{by_visited}] = {names.RACES_VALUE}", depth)
    if cached:
        emit(f"value += {names.RACES_VALUE}", 2)
    emit(finish, 2)


_HAND = {"cards": "cards", "throw": "cards[0]", "catch": "cards[-1]", "visited": "visited"}
_SEAT = {"players": "players", "round": "round", "rounds": "rounds"}


def seat_bindings(writer: Writer, sheet: frozenset) -> list[str]:
    """What every hand of a seat shares, bound once in a factory: the moment, and each variable of the
    sheet so far some statement reads (from the `sheet` input)."""
    reads = writer.read_variables if writer.hand_reads is None else writer.hand_reads   # not the game end's
    return [f"{names.game(v)} = {source}" for v, source in _SEAT.items()] + \
        [f"{names.game(v)} = sheet.{v}" for v in sorted(reads & sheet)]


def _factory(writer: Writer, inputs: tuple, outer: str, inner: str, inner_signature: str, bindings: dict,
             forms: dict, opening: list[str], sheet: frozenset) -> object:
    """def outer(*, inputs): binds what every hand of the seat shares, then returns
    def inner(inner_signature): the statements written (at depth 2, placed one level deeper)."""
    seat = ["        " + line for line in seat_bindings(writer, sheet)]
    hand = writer.prologue(bindings, forms, depth=3)
    body = [f"    def {outer}(*, {', '.join(inputs)}):", *seat, f"        def {inner}({inner_signature}):",
            *("            " + line for line in opening), *hand, *("    " + line for line in writer.lines),
            f"        return {inner}", f"    return {outer}"]
    return writer.compile(body)


def write_own_value(rules, own: tuple, variables: frozenset, inputs: tuple, end_constants: dict,
                    sheet: frozenset = frozenset()):
    """value_of(**inputs) -> own_value(cards, visited): what the seat's own categories, its open races
    and the game-end gain give these cards (visited: the seat's visited cards with them, in deck order)."""
    writer = Writer(rules, variables, tallies={"cards": names.TALLY["cards"], "visited": names.TALLY["visited"]},
                    sets={"cards": names.SET["cards"], "visited": names.SET["visited"]}, caught=True)
    write_standing(writer, rules, own, (), end_constants, None, None, "return value", sheet)
    forms = {names.TALLY["cards"]: (f"_tally({names.CARDS})", "cards"),
             names.TALLY["visited"]: (f"_tally({names.VISITED})", "visited"),
             names.SET["cards"]: (f"frozenset({names.CARDS})", "cards"),
             names.SET["visited"]: (f"frozenset({names.VISITED})", "visited")}
    opening = ["end_before = end_points if len(visited) != size else None"]
    return _factory(writer, inputs, "value_of", "own_value", "cards, visited", _HAND, forms, opening, sheet)


def write_shared_value(rules, shared: tuple, variables: frozenset, inputs: tuple, sheet: frozenset = frozenset()):
    """shared_of(**inputs) -> shared_value(cards, visited, table): what the categories that read the other
    seats' cards add (table: (others, opponents, left, right), as scopes.round_env makes them)."""
    writer = Writer(rules, variables, tallies={"cards": names.TALLY["cards"], "visited": names.TALLY["visited"],
                                               "others": names.TALLY["others"]},
                    sets={"cards": names.SET["cards"], "visited": names.SET["visited"]}, caught=True)
    writer.emit("value = 0", 2)
    write_categories(writer, shared)
    writer.emit("return value", 2)
    bindings = dict(_HAND, others="table[0]", opponents="table[1]", left="table[2]", right="table[3]")
    forms = {names.TALLY["cards"]: (f"_tally({names.CARDS})", "cards"),
             names.TALLY["visited"]: (f"_tally({names.VISITED})", "visited"),
             names.TALLY["others"]: (f"_tally({names.OTHERS})", "others"),
             names.SET["cards"]: (f"frozenset({names.CARDS})", "cards"),
             names.SET["visited"]: (f"frozenset({names.VISITED})", "visited")}
    return _factory(writer, inputs, "shared_of", "shared_value", "cards, visited, table", bindings, forms, [], sheet)
