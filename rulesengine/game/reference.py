"""The reference interpreter of an edition's scoring: every rule evaluated the straightforward way.

An edition's program (game/program.py) is generated Python for speed; this is the same program
interpreted: each expression run on its own with an environment dict built by edition/scopes.py,
the categories, choices, races and game-end categories looped over as the rulebook says them. It
takes the same keyword inputs and gives the same points, the same choices and the same errors, so
the test suite plays every case through both (`load_edition(..., runner="reference")`) and asserts
that they agree. Nothing here is tuned for speed.

An expression that fails raises DslRuntimeError carrying the node it failed at (the expression's
own root where the failure has none), so the score sheet locates it as it locates the generated
program's; the bots' functions give its default instead (0 points, not allowed, not qualified).
"""

from __future__ import annotations

from ..dsl import FAILED
from ..dsl.program import Needs, visited_after
from ..edition.model import GAME_END, ROUND
from ..edition.scopes import GAME_END as GAME_END_SCOPE
from ..edition.scopes import (
    SHEET,
    Moment,
    SeatInputs,
    game_end_env,
    line_keys,
    requires_env,
    round_env,
    sheet_alone,
    sheet_env,
    sheet_lines,
)
from .interpreted import SeatValue, award, run

SHEET_NAMES = tuple(v.name for v in SHEET)


def judge(expression, env: dict, default):
    """The expression's value in env, or default where it cannot give one (a hand that may never happen)."""
    try:
        return expression.run(env)
    except FAILED:
        return default


def _table_env(table) -> dict:
    others, opponents, left, right = table
    return {"others": others, "opponents": opponents, "left": left, "right": right}


class ReferenceProgram:
    """An edition's scoring program, interpreted (see rulesengine.game.program.Program for each function)."""

    runner = "reference"
    # it reads every input as the rulebook says it: the visited cards in deck order, the other seats'
    needs = Needs(True, True, True, True, frozenset(GAME_END_SCOPE.names), True)

    def __init__(self, edition):
        self.edition = edition
        self.rounds = tuple(c for c in edition.categories if c.when == ROUND)
        self.ends = tuple(c for c in edition.categories if c.when == GAME_END)
        self.slots = [(race, region) for race in edition.races
                      for region in (edition.regions if race.each else (None,))]
        self.allowed = {c.key: self._allowed(c) for c in edition.choice_categories}
        self.choice_points = {c.key: self._choice_points(c) for c in edition.choice_categories}

    def tally(self, cards) -> None:
        """The `tally` input: none, as every count is made from the cards."""
        return None

    # -- the score sheet ---------------------------------------------------------------------
    def round(self, inputs) -> tuple:
        env = self._env(inputs)
        points = {}
        for category in self.rounds:
            env["previous"] = inputs.previous.get(category.key, 0)
            if category.choice is None:
                points[category.key] = run(category.score, env)
            elif (icon := inputs.choices.get(category.key)) is None:
                points[category.key] = 0
            else:
                env["choice"] = icon
                points[category.key] = run(category.score, env)
        env = {"cards": inputs.cards, "visited": inputs.visited, "players": inputs.players, "round": inputs.round,
               "rounds": inputs.rounds}
        qualified = []
        for slot, (race, region) in enumerate(self.slots):
            env["region"] = region
            if run(race.qualifies, env):
                qualified.append(slot)
        return points, qualified

    def _allowed(self, category):
        def allowed(inputs) -> list:
            env = self._env(inputs)
            env["previous"] = inputs.previous.get(category.key, 0)
            return [icon for icon in self._choosable(category, inputs.used) if self._meets(category, env, icon, run)]
        return allowed

    def end(self, inputs) -> dict:
        env = {name: getattr(inputs, name) for name in GAME_END_SCOPE.names if name not in SHEET_NAMES}
        env.update(sheet_env(inputs.sheet))
        return {category.key: run(category.score, env) for category in self.ends}

    award = staticmethod(award)

    # -- the bots ----------------------------------------------------------------------------
    def _choice_points(self, category):
        def choice_points(inputs) -> dict:
            env = self._env(inputs)
            env["previous"] = inputs.previous.get(category.key, 0)
            return {icon: judge(category.score, env, 0) for icon in self._choosable(category, inputs.used)
                    if self._meets(category, env, icon, judge)}
        return choice_points

    def judged_end(self, visited, players, rounds) -> dict:
        """key -> points of each game-end category for these visited cards, as a bot sees a game end
        (no other seats, no rounds on the sheet), failures given 0."""
        lines = sheet_lines(line_keys(self.edition), [])
        env = game_end_env(Moment(players, 0, rounds), visited, None, (), lines,
                           sheet_alone(self.edition))   # a seat alone, no round scored
        return {c.key: judge(c.score, env, 0) for c in self.ends}

    def end_points(self, visited, players, rounds) -> float:
        """What the counting game-end categories give these visited cards."""
        points = self.judged_end(visited, players, rounds)
        return sum(points[c.key] for c in self.ends if c.counts)

    def judged_round(self, *, cards, visited, table, previous, used, choices, players, round, rounds,
                     sheet=None) -> dict:
        """round() for a bot: failures give 0; choices None: every choice category at its best icon
        among those not in used (or 0), else at choices[key] (absent or None: 0)."""
        env = self._env(SeatInputs(cards=cards, visited=visited, table=table, players=players, round=round,
                                   rounds=rounds, sheet=sheet))
        points = {}
        for category in self.rounds:
            env["previous"] = previous.get(category.key, 0)
            if category.choice is not None and choices is None:
                options = [judge(category.score, env, 0) for icon in self._choosable(category, used[category.key])
                           if self._meets(category, env, icon, judge)]
                points[category.key] = max([0, *options])
            elif category.choice is not None and choices.get(category.key) is None:
                points[category.key] = 0
            else:
                env["choice"] = choices.get(category.key) if choices else None
                points[category.key] = judge(category.score, env, 0)
        return points

    def judged_races(self, *, cards, visited, won, players, round, rounds, sheet=None) -> list:
        """round()'s race slots for a bot: a qualification that fails is no qualification."""
        env = {"cards": cards, "visited": visited, "players": players, "round": round, "rounds": rounds}
        return [slot for slot, (race, region) in enumerate(self.slots)
                if slot not in won and judge(race.qualifies, {**env, "region": region}, False)]

    def seat_value(self, own: tuple, shared: tuple, *, previous, choosable, races, players, round, rounds,
                   end_points, size, before, seen, sheet=None) -> SeatValue:
        """A seat's value of hands (see rulesengine.game.program.SeatValue), interpreted (sheet: its
        SheetSoFar)."""
        at = Moment(players, round, rounds)

        def categories(categories, env) -> int:
            value = 0
            for category in categories:
                env["previous"] = previous.get(category.key, 0)
                if category.choice is None:
                    value += judge(category.score, env, 0)
                    continue
                options = [judge(category.score, env, 0) for icon in choosable[category.key]
                           if self._meets(category, env, icon, judge)]
                value += max([0, *options])
            return value

        def own_value(cards, visited) -> float:
            value = categories(own, round_env(at, cards, None, visited, sheet=sheet))
            env = {"cards": cards, "visited": visited, "players": players, "round": round, "rounds": rounds}
            for race, slots in zip(self.edition.races, races, strict=True):
                for region, pays in slots:
                    if judge(race.qualifies, {**env, "region": region}, False):
                        value += pays
            if len(visited) != size:
                value += self.end_points(visited, players, rounds) - end_points
            return value

        def shared_value(cards, visited, others) -> float:
            return categories(shared, round_env(at, cards, others, visited, sheet=sheet))

        def order(first, options, rest):
            def for_world(sums, heads, dealt) -> None:
                for head in heads:
                    for index, card in enumerate(options):
                        ending = [c for c in head if c is not card] if card in head else head
                        hand = first + [card] + ending[:rest]
                        visited = visited_after(before, seen, hand)
                        value = own_value(hand, visited)
                        if shared:
                            mine = set(hand)
                            value += shared_value(hand, visited, [c for c in dealt if c not in mine])
                        sums[index] += value
            return for_world

        return SeatValue(own_value, shared_value if shared else None, order)

    # -- shared by the functions above -------------------------------------------------------
    @staticmethod
    def _env(inputs) -> dict:
        """A round category's (and a choice's requires') environment from a SeatInputs."""
        env = requires_env(Moment(inputs.players, inputs.round, inputs.rounds), inputs.cards, None, inputs.visited,
                           sheet=inputs.sheet)
        if inputs.table is not None:
            env.update(_table_env(inputs.table))
        return env

    @staticmethod
    def _choosable(category, used) -> list:
        choice = category.choice
        return [icon for icon in choice.family.icons if not (choice.once_per_game and icon in used)]

    @staticmethod
    def _meets(category, env: dict, icon, evaluate) -> bool:
        """Sets the choice to icon; whether its requires holds (evaluate: run, or judge with a default)."""
        env["choice"] = icon
        requires = category.choice.requires
        if requires is None:
            return True
        return run(requires, env) if evaluate is run else judge(requires, env, False)
