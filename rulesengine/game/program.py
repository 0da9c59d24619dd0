"""An edition's scoring program: what the score sheet and the bots call to score a round, a choice,
the races, the game end, and a hand that is not played yet.

The edition's runner picks how (`load_edition(..., runner=...)`): "compiled", the default, runs the
functions rulesengine/dsl/program generates from the checked trees, once per edition; "reference"
runs the interpreter of game/reference.py, each expression on its own, as written. Both take the
same keyword inputs (declared in edition/scopes.py, PROGRAM_INPUTS) and give the same values and
the same errors (the test suite plays every case through both). An expression that fails raises
DslRuntimeError carrying its node: the sheet turns it into a located error (R501); the bots'
functions give its default instead. The program is made once per edition and kept with it
(Edition.kept), not in a module's dictionary.
"""

from __future__ import annotations

from functools import cached_property, partial
from operator import add

from ..dsl import DslRuntimeError
from ..dsl import program as compiler
from ..edition.goals import WithGoals, goals_of
from ..edition.model import Edition
from ..edition.scopes import (
    EndInputs,
    SeatInputs,
    game_end_env,
    line_keys,
    moment,
    program_inputs,
    program_scopes,
    sheet_alone,
    sheet_lines,
    table_env,
)
from .interpreted import SeatValue, award
from .reference import ReferenceProgram

RUNNERS = ("compiled", "reference")

TABLE = compiler.sheet.TABLE


def program(edition: Edition, goals: tuple = ()):
    """The edition's program for its runner, made once and kept with the edition; goals: the public goals
    drawn in a game (their ids), which the program scores as game-end categories (edition/goals.py), one
    program for each draw."""
    if not goals:
        return edition.kept("program", _make, edition)
    return edition.kept(("program", tuple(goals)), lambda: _make(WithGoals(edition, tuple(goals))))


def _make(edition: Edition):
    return ReferenceProgram(edition) if edition.runner == "reference" else CompiledProgram(edition)


def end_inputs(edition: Edition) -> dict:
    """The game end as a bot sees it: no other seats, no rounds on the sheet (round_totals, lines,
    opponents, left and right as scopes.game_end_env makes them; the sheet of a seat alone, none scored)."""
    lines = sheet_lines(line_keys(edition), [])
    env = game_end_env(moment(edition, 0, 0), [], None, (), lines)
    found = {name: env[name] for name in ("round_totals", "lines", "opponents", "left", "right")}
    found["sheet"] = sheet_alone(edition)
    return found


class CompiledProgram:
    """An edition's scoring program, generated (see the module docstring and SeatValue)."""

    runner = "compiled"

    def __init__(self, edition: Edition):
        self.edition = edition
        self._inputs, self._scopes = program_inputs(), program_scopes()
        sheet = compiler.compile_sheet(edition, self._scopes)
        self.round, self.allowed, self.end, self.needs = sheet.round, sheet.allowed, sheet.end, sheet.needs
        self.zeros = dict.fromkeys(sorted(compiler.every_icon(edition)), 0)
        # tally(cards): icon -> how often it is printed on the cards, every icon of the edition in it (the
        # `tally` input); a partial, not a method: a Python frame less for each seat and round
        self.tally = partial(compiler.icon_counts, self.zeros)

    award = staticmethod(award)

    # -- the bots ----------------------------------------------------------------------------
    @cached_property
    def choice_points(self) -> dict:
        """choice key -> (same inputs as allowed) -> {icon: points}: the icons the seat may pick, each
        with its points, failures given their defaults."""
        return {c.key: compiler.sheet.write_choice(self.edition, c, self._scopes["requires"], points=True,
                                                   sheet=self._scopes["sheet"])
                for c in self.edition.choice_categories}

    @cached_property
    def _end_points(self):
        return compiler.write_end(self.edition, self._scopes["game_end"], caught=True, sheet=self._scopes["sheet"])

    @cached_property
    def _end_inputs(self) -> dict:
        return end_inputs(self.edition)

    @cached_property
    def _end_constants(self) -> dict:
        """The game end as a bot sees it, each variable by name (the bots' value functions bind them)."""
        found = {name: value for name, value in self._end_inputs.items() if name != "sheet"}
        alone = self._end_inputs["sheet"]
        return found | {"totals": alone.totals, "standing": alone.standing, "options": alone.options}

    def judged_end(self, visited, players, rounds) -> dict:
        """key -> points of each game-end category for these visited cards, as a bot sees a game end (no
        other seats, no rounds on the sheet), failures given 0."""
        return self._end_points(EndInputs(visited=visited, seen=frozenset(visited), players=players, rounds=rounds,
                                          **self._end_inputs))   # (a bot's: seldom)

    def end_points(self, visited, players, rounds) -> float:
        """What the counting game-end categories give these visited cards, as a bot sees a game end."""
        points = self.judged_end(visited, players, rounds)
        return sum(points[c.key] for c in compiler.end_categories(self.edition) if c.counts)

    @cached_property
    def _judged(self):
        return compiler.write_round(self.edition, self._scopes, caught=True)

    def judged_round(self, *, cards, visited, table, previous, used, choices, players, round, rounds,
                     sheet=None) -> dict:
        """round()'s points for a bot (see ReferenceProgram.judged_round)."""
        tally, seen = self.tally(cards), frozenset(visited)
        inputs = SeatInputs(cards=cards, tally=tally, visited=visited, seen=seen, table=table, previous=previous,
                            choices=choices or {}, players=players, round=round, rounds=rounds, sheet=sheet)
        points, _ = self._judged(inputs)
        if choices is None:
            for key, points_of in self.choice_points.items():
                inputs.used = used[key]
                points[key] = max([0, *points_of(inputs).values()])
        return points

    def judged_races(self, *, cards, visited, won, players, round, rounds, sheet=None) -> list:
        """round()'s race slots for a bot: a qualification that fails is no qualification (sheet: the seat's
        SheetSoFar, which the round's categories may read)."""
        seats = table_env(())   # the races read no other seat's cards: none are handed
        inputs = SeatInputs(cards=cards, tally=self.tally(cards), visited=visited, seen=frozenset(visited),
                            table=((), seats["opponents"], seats["left"], seats["right"]), previous={}, choices={},
                            players=players, round=round, rounds=rounds, sheet=sheet)
        return [slot for slot in self._judged(inputs)[1] if slot not in won]

    @cached_property
    def _values(self) -> dict:
        """(own, shared) categories -> the generated value functions, made when first asked for."""
        return {}

    def _value_functions(self, own: tuple, shared: tuple) -> tuple:
        key = (tuple(c.key for c in own), tuple(c.key for c in shared))
        made = self._values.get(key)
        if made is None:
            edition, scopes, inputs = self.edition, self._scopes, self._inputs
            variables = scopes["round"] | scopes["qualifies"] | scopes["game_end"]
            together = bool(shared) and compiler.counted_only(shared)   # the shared ones in the order function
            sheet = scopes["sheet"]
            made = self._values[key] = (
                compiler.write_own_value(edition, own, variables, inputs["value"], self._end_constants, sheet),
                compiler.write_shared_value(edition, shared, scopes["round"], inputs["shared"], sheet)
                if shared else None,
                compiler.write_order(edition, own, shared if together else (), variables, inputs["order"],
                                     self._end_constants, self.zeros, sheet),
                bool(compiler.category_reads(shared) & compiler.SEAT_BY_SEAT), together,
                compiler.write_pick(edition, own, shared, variables, inputs["order"], self._end_constants, sheet))
        return made

    def seat_value(self, own: tuple, shared: tuple, *, previous, choosable, races, players, round, rounds,
                   end_points, size, before, seen, sheet=None) -> SeatValue:
        """A seat's value of hands (SeatValue), generated (sheet: its SheetSoFar)."""
        own_of, shared_of, (order_of, charges), by_seat, together, picks = self._value_functions(own, shared)
        standing = {"previous": previous, "choosable": choosable, "players": players, "round": round,
                    "rounds": rounds, "sheet": sheet}
        own_value = own_of(**standing, races=races, end_points=end_points, size=size)
        for_decision = order_of(**standing, races=races, end_points=end_points, size=size, before=before, seen=seen)
        pick = None
        if picks is not None and not picks[1]:   # (one that charges steps: the bot's greedy_pick charges them)
            pick = picks[0](**standing, races=races, end_points=end_points, size=size, before=before, seen=seen)
        if shared_of is None:
            return SeatValue(own_value, None, for_decision, charges, pick)
        shared_value = shared_of(**standing)

        def with_table(cards, visited, others) -> float:
            if by_seat:
                seats = table_env(others)
                return shared_value(cards, visited, (others, seats["opponents"], seats["left"], seats["right"]))
            return shared_value(cards, visited, (others, None, None, None))

        if together:
            return SeatValue(own_value, with_table, for_decision, charges, pick)

        def order(first: list, options: list, rest: int):
            """The own values of one order from the order function, the shared categories option by option:
            they read the other seats' cards as a list, or seat by seat, so counts would save nothing."""
            valued = for_decision(first, options, rest)

            def for_world(sums: list, heads: list, dealt) -> None:
                for head in heads:
                    values = [0] * len(options)
                    valued(values, (head,), dealt)
                    usual = head[:rest]
                    for index, card in enumerate(options):
                        hand = first + [card] + ([c for c in head if c is not card] if card in head else usual)
                        mine = set(hand)
                        visited = compiler.visited_after(before, seen, hand)
                        values[index] += with_table(hand, visited, [c for c in dealt if c not in mine])
                    sums[:] = map(add, sums, values)
            return for_world

        return SeatValue(own_value, with_table, order)


def locate(edition: Edition, node):
    """The expression of the edition whose tree holds this node (a failure's), or None."""
    expressions = edition.kept("expressions by node", lambda: _by_node(edition))
    return expressions.get(id(node))


def _by_node(edition: Edition) -> dict:
    from ..dsl import walk

    found = {}
    for category in edition.categories:
        for expression in (category.score, category.choice and category.choice.requires):
            if expression is not None and expression.tree is not None:
                found.update((id(n), expression) for n in walk(expression.tree[0]))
    for race in edition.races:
        for expression in (race.qualifies, race.award):
            found.update((id(n), expression) for n in walk(expression.tree[0]))
    goals = goals_of(edition)
    for goal in goals.cards if goals is not None else ():
        found.update((id(n), goal.points) for n in walk(goal.points.tree[0]))
    return found


__all__ = ["RUNNERS", "TABLE", "CompiledProgram", "DslRuntimeError", "SeatValue", "award", "locate", "program"]
