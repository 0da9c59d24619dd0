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

from ..dsl.program import names
from ..dsl.program.helpers import HELPERS, Full, every_icon
from ..dsl.program.reads import analyse
from ..dsl.program.writer import FAILED, Writer
from ..edition.scopes import program_scopes

ROUND, TABLE = "round", ("others", "opponents", "left", "right")


class SeatRound:
    """The statements of a seat's round (points into `points`, race slots qualified for into `qualified`),
    written once; bind(seat, ...) gives the lines that bind a seat's locals to what they read."""

    def __init__(self, edition):
        scopes = program_scopes()
        self.sheet = scopes["sheet"]
        full = Full(frozenset({names.TALLY["cards"]}), every_icon(edition), frozenset({"choice"}))
        self.writer = writer = Writer(edition, scopes["round"], tallies={"cards": names.TALLY["cards"],
                                                                          "visited": names.TALLY["visited"]},
                                      sets={"cards": names.SET["cards"], "visited": names.SET["visited"]},
                                      lengths={"visited": names.SET["visited"]}, full=full)
        categories = [c for c in edition.categories if c.when == ROUND]
        emit = writer.emit
        self.choices = [self._choice(category, scopes["requires"]) for category in edition.choice_categories]
        self.choices_previous = any("previous" in analyse(*c.choice.requires.tree[:2]).variables()
                                    for c in edition.choice_categories if c.choice.requires is not None)
        self._start = len(writer.lines)
        emit("points = {}", 0)
        self.previous = any("previous" in analyse(*c.score.tree[:2]).variables() for c in categories)
        for category in categories:
            key = writer.constant(category.key)
            if "previous" in analyse(*category.score.tree[:2]).variables():
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
            emit(f"for slot, {names.REGION} in {writer.constant(tuple(enumerate(regions, slot)))}:", 0)
            writer.value("ok", race.qualifies, 1, variables=scopes["qualifies"])
            emit("if ok:", 1)
            emit("qualified.append(slot)", 2)
            slot += len(regions)
        self.body = writer.lines[self._start:]
        self.reads = frozenset(writer.read_variables)

    def _choice(self, category, variables: frozenset) -> list[str]:
        """The statements listing into `allowed` the icons of a choice category the seat may pick, in family
        order (not in `used` when once per game, meeting `requires`): dsl/program/sheet.write_choice's."""
        writer, emit = self.writer, self.writer.emit
        start = len(writer.lines)
        requires = category.choice.requires
        if requires is not None and "previous" in analyse(*requires.tree[:2]).variables():
            emit(f"{names.PREVIOUS} = previous.get({writer.constant(category.key)}, 0)", 0)
        emit("allowed = []", 0)
        emit(f"for {names.CHOICE} in {writer.constant(tuple(category.choice.family.icons))}:", 0)
        if category.choice.once_per_game:
            emit(f"if {names.CHOICE} in used:", 1)
            emit("continue", 2)
        if requires is not None:
            writer.value("ok", requires, 1, variables=variables)
            emit("if not ok:", 1)
            emit("continue", 2)
        emit(f"allowed.append({names.CHOICE})", 1)
        return writer.lines[start:]

    def bind(self, seat: int, round_number: int, visited: str, pooled: bool = False) -> list[str]:
        """The lines binding what the statements read for this seat (locals of game.py: d{seat} its cards,
        t its tally, n{seat} its visited set, tb{seat} its table, or o{seat} the other seats' cards where
        `pooled`, sh{seat} its sheet so far)."""
        bindings = {"cards": f"d{seat}", "throw": f"d{seat}[0]", "catch": f"d{seat}[-1]", "visited": visited,
                    "players": "PLAYERS", "round": str(round_number), "rounds": "ROUNDS",
                    **{name: f"tb{seat}[{i}]" for i, name in enumerate(TABLE)},
                    **({"others": f"o{seat}"} if pooled else {}),
                    **{name: f"sh{seat}.{name}" for name in sorted(self.sheet)}}
        forms = {names.TALLY["cards"]: ("t", None), names.SET["visited"]: (f"n{seat}", None),
                 names.TALLY["visited"]: (f"_tally({names.VISITED})", "visited"),
                 names.SET["cards"]: (f"frozenset({names.CARDS})", "cards")}
        return [line.strip() for line in self.writer.prologue(bindings, forms, 0)]

    def namespace(self) -> dict:
        """What the statements read: the program's helpers and the constants they were written with."""
        found = {key: value for key, value in HELPERS.items() if key != "__builtins__"}
        found.update({f"{names.CONSTANT}{i}": value for i, value in enumerate(self.writer.shared.constants)})
        return found | {"_FAILED": FAILED, "frozenset": frozenset, "len": len}


def seat_round(edition) -> SeatRound:
    """The edition's SeatRound, written once and kept with it."""
    return edition.kept("generated seat round", lambda: SeatRound(edition))
