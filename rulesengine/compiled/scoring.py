"""A seat's round of the scoring program, written into the generated game as statements, not called.

The score sheet calls the program's seat_round(inputs) once a seat and round, an inputs object made
for it; in a game of a hundred microseconds those calls and objects are half the scoring. Here the
same statements (dsl/program's Writer, from the same checked trees, in the order
dsl/program/sheet.write_round places them) are written once per edition, and the generated game
places them for every seat of every round with the seat's own locals bound: its cards, their tally,
its visited cards, its choices, its points of the previous round. A failing expression raises
DslRuntimeError as the program's would; the caller has the engine play that game again (it locates
the error).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dsl import ast
from ..dsl.program import names
from ..dsl.program.helpers import HELPERS, Full, Masks, card_mask, every_icon, packed_icons
from ..dsl.program.reads import MASK, analyse, merged, reads_of
from ..dsl.program.writer import FAILED, Writer
from ..edition.scopes import program_scopes

ROUND, GAME_END, TABLE = "round", "game_end", ("others", "opponents", "left", "right")
_END_READS = frozenset({"visited", "players", "rounds"})   # what a game end written in place may read


class SeatRound:
    """The statements of a seat's round (points into `points`, race slots qualified for into `qualified`, less
    those `seat` took before: `won`, each slot's winners, which the sheet's races skip), written once;
    bind(seat, ...) gives the lines that bind a seat's locals to what they read."""

    def __init__(self, edition):
        scopes = program_scopes()
        self.sheet = scopes["sheet"]
        icons = every_icon(edition)
        # the tally of a seat's cards packed (dsl/program/helpers.packed_icons): its cards' ints added, as bytes
        self.packed = packed_icons(icons, edition.cards)
        # where packed, the other seats' cards are counted from a packed tally too (theirs: all the round's ints
        # added, less the seat's), where a statement counts them only (count(icon, others)): no walk of their cards
        tallied = {"cards": names.TALLY["cards"], "visited": names.TALLY["visited"]}
        if self.packed:
            tallied["others"] = names.TALLY["others"]
        full = Full(frozenset({names.TALLY["cards"], names.TALLY["others"]}), icons, frozenset({"choice"}),
                    index=self.packed[0] if self.packed else None)
        masks = _masks(edition)
        # the visited cards as a bitmask (names.MASK, bit card.site.index of each), where every statement reads
        # them only as a mask answers (reads.MASK): one | a card, where a set is copied every round
        self.masked = merged(analyse(*e.tree[:2], masks) for e in _statements(edition)).answered("visited", {MASK})
        self.writer = writer = Writer(edition, scopes["round"], tallies=tallied,
                                      sets={"cards": names.SET["cards"], "visited": names.SET["visited"]},
                                      lengths={"visited": names.SET["visited"]}, full=full,
                                      masks=masks if self.masked else None)
        categories = [c for c in edition.categories if c.when == ROUND]
        emit = writer.emit
        self.choices = [self._choice(category, scopes["requires"]) for category in edition.choice_categories]
        self.choices_previous = any("previous" in reads_of(c.choice.requires).variables()
                                    for c in edition.choice_categories if c.choice.requires is not None)
        self._start = len(writer.lines)
        emit("points = {}", 0)
        self.previous = any("previous" in reads_of(c.score).variables() for c in categories)
        for category in categories:
            key = writer.constant(category.key)
            if "previous" in reads_of(category.score).variables():
                emit(f"{names.PREVIOUS} = previous.get({key}, 0)", 0)
            if category.choice is None:
                writer.value(f"points[{key}]", category.score, 0)
                continue
            choice = [c.key for c in edition.choice_categories].index(category.key)
            emit(f"{names.CHOICE} = chosen_{choice}", 0)
            emit(f"if {names.CHOICE} is None:", 0)
            emit(f"points[{key}] = 0", 1)
            emit("else:", 0)
            writer.value(f"points[{key}]", category.score, 1)
        emit("qualified = []", 0)
        slot = 0
        for race in edition.races:
            regions = tuple(edition.regions) if race.each else (None,)
            if race.each and _pinnable(race.qualifies.tree[0], "region"):   # written out region by region
                for region in regions:
                    writer.value("ok", _Pinned.of(race.qualifies, "region", region), 0,
                                 variables=scopes["qualifies"])
                    emit(f"if ok and seat not in won[{slot}]:", 0)
                    emit(f"qualified.append({slot})", 1)
                    slot += 1
                continue
            emit(f"for slot, {names.REGION} in {writer.constant(tuple(enumerate(regions, slot)))}:", 0)
            writer.value("ok", race.qualifies, 1, variables=scopes["qualifies"])
            emit("if ok and seat not in won[slot]:", 1)
            emit("qualified.append(slot)", 2)
            slot += len(regions)
        self.body = writer.lines[self._start:]
        self.reads = frozenset(writer.read_variables)
        self.end, self.end_reads = self._end(edition, masks, scopes["game_end"])

    def _end(self, edition, masks: Masks, variables: frozenset) -> tuple[list[str] | None, frozenset]:
        """A seat's game end as statements (points into `points`: the program's game_end, dsl/program/sheet.py
        write_end), and the game variables they read, where its categories read nothing but the visited cards,
        as their mask answers, the players and the rounds; else None (the sheet's own finish() ends the game)."""
        categories = [c for c in edition.categories if c.when == GAME_END]
        found = merged(analyse(*c.score.tree[:2], masks) for c in categories)
        if not self.masked or not found.variables() <= _END_READS or not found.answered("visited", {MASK}):
            return None, frozenset()
        writer = self.writer
        start = len(writer.lines)
        writer.emit("points = {}", 0)
        for category in categories:
            writer.value(f"points[{writer.constant(category.key)}]", category.score, 0, variables=variables)
        return writer.lines[start:], found.variables()

    def _choice(self, category, variables: frozenset) -> list[str]:
        """The statements listing into `allowed` the icons of a choice category the seat may pick, in family
        order (not in `used` when once per game, meeting `requires`): dsl/program/sheet.write_choice's."""
        writer, emit = self.writer, self.writer.emit
        start = len(writer.lines)
        requires = category.choice.requires
        if requires is not None and "previous" in reads_of(requires).variables():
            emit(f"{names.PREVIOUS} = previous.get({writer.constant(category.key)}, 0)", 0)
        emit("allowed = []", 0)
        if requires is None or _pinnable(requires.tree[0], "choice"):   # written out icon by icon
            for icon in category.choice.family.icons:
                depth = 0
                if category.choice.once_per_game:
                    emit(f"if {writer.constant(icon)} not in used:", depth)
                    depth += 1
                if requires is not None:
                    writer.value("ok", _Pinned.of(requires, "choice", icon), depth, variables=variables)
                    emit("if ok:", depth)
                    depth += 1
                emit(f"allowed.append({writer.constant(icon)})", depth)
            return writer.lines[start:]
        emit(f"for {names.CHOICE} in {writer.constant(tuple(category.choice.family.icons))}:", 0)
        if category.choice.once_per_game:
            emit(f"if {names.CHOICE} in used:", 1)
            emit("continue", 2)
        writer.value("ok", requires, 1, variables=variables)
        emit("if not ok:", 1)
        emit("continue", 2)
        emit(f"allowed.append({names.CHOICE})", 1)
        return writer.lines[start:]

    def bind(self, seat: int, round_number: int, visited: str, pooled: bool = False) -> list[str]:
        """The lines binding what the statements read for this seat (locals of game.py: d{seat} its cards,
        t its tally, n{seat} its visited set, m{seat} their mask where `masked`, tb{seat} its table, or o{seat}
        the other seats' cards where `pooled`, to{seat} their packed tally where `counts_others`, sh{seat} its
        sheet so far)."""
        bindings = {"cards": f"d{seat}", "throw": f"d{seat}[0]", "catch": f"d{seat}[-1]", "visited": visited,
                    "players": "PLAYERS", "round": str(round_number), "rounds": "ROUNDS",
                    **{name: f"tb{seat}[{i}]" for i, name in enumerate(TABLE)},
                    **({"others": f"o{seat}"} if pooled else {}),
                    **{name: f"sh{seat}.{name}" for name in sorted(self.sheet)}}
        forms = {names.TALLY["cards"]: ("t", None), names.TALLY["others"]: (f"to{seat}", None),
                 names.SET["visited"]: (f"n{seat}", None),
                 names.MASK["visited"]: (f"m{seat}", None),
                 names.TALLY["visited"]: (f"_tally({names.VISITED})", "visited"),
                 names.SET["cards"]: (f"frozenset({names.CARDS})", "cards")}
        return [line.strip() for line in self.writer.prologue(bindings, forms, 0)]

    @property
    def counts_others(self) -> bool:
        """Whether a statement counts the other seats' cards from their packed tally (to{seat})."""
        return names.TALLY["others"] in self.writer.used

    def namespace(self) -> dict:
        """What the statements read: the program's helpers and the constants they were written with."""
        found = {key: value for key, value in HELPERS.items() if key != "__builtins__"}
        found.update({f"{names.CONSTANT}{i}": value for i, value in enumerate(self.writer.shared.constants)})
        return found | {"_FAILED": FAILED, "frozenset": frozenset, "len": len}


def _statements(edition) -> list:
    """Every expression a seat's round places: its categories, its choices' requires, the races."""
    expressions = [c.score for c in edition.categories if c.when == ROUND]
    expressions += [c.choice.requires for c in edition.choice_categories if c.choice.requires is not None]
    return expressions + [race.qualifies for race in edition.races]


def _masks(edition) -> Masks:
    """The visited cards' mask and the masks of the regions (the map's neighbours, for connected())."""
    neighbours = [0] * len(edition.cards)
    for card in edition.cards:
        neighbours[card.index] = card_mask(edition.paths.get(card, ()))
    return Masks({"visited": names.MASK["visited"]}, {region: card_mask(region.cards) for region in edition.regions},
                 tuple(neighbours))


def _pinnable(node, name: str) -> bool:
    """Whether no `let` or comprehension in the tree binds this game variable's name (so every use of it is the
    game's: a region of the race, the icon of a choice)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Let | ast.Comprehension) and current.name == name:
            return False
        stack.extend(ast.children(current))
    return True


@dataclass(frozen=True)
class _Pinned:
    """An expression with a game variable read as one value, a constant: a loop over the regions of a race, or
    over the icons a choice may name, written out, each its own statement (the region's cards a constant mask
    or set, the icon's count one index of the tally: no loop, no lookup)."""

    tree: tuple

    @classmethod
    def of(cls, expression, name: str, value) -> _Pinned:
        node, resolved, lookups = expression.tree
        pins, stack = {}, [node]
        while stack:
            current = stack.pop()
            if isinstance(current, ast.Name) and current.name == name and id(current) not in resolved:
                pins[id(current)] = value
            stack.extend(ast.children(current))
        return cls((node, {**resolved, **pins}, lookups))


def seat_round(edition) -> SeatRound:
    """The edition's SeatRound, written once and kept with it."""
    return edition.kept("generated seat round", lambda: SeatRound(edition))
