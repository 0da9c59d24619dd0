"""The scopes of the scoring language, declared once: which variables each kind of expression sees.

A round category, a game-end category, a choice's `requires`, a race's `qualifies` and its `award`
each see their own variables. This module is the one place that says which, with their DSL types
and a one-line meaning, and the one place that fills them in: one function per scope builds the
environment an expression runs in. The checker (build.py), `boom rules`, docs/dsl.md's table and
the scoring (the score sheet and the bots alike) all read it, so a new variable is added here only.
It knows no game state: callers hand it the cards and numbers; it never decides a score.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from ..dsl import CARD, CARDS, NUMBER, REGION, SEAT, SEATS, LinesType, ListType, OptionsType, Scope


@dataclass(frozen=True)
class Variable:
    name: str
    type: object                      # a DSL type; None for `choice` (the icon type of its category's family)
    meaning: str                      # one line, to a player: `boom rules` and docs/dsl.md print it
    only: str | None = None           # where a variable that is not always there exists


@dataclass(frozen=True)
class ExpressionScope:
    """Where an expression is written, and the variables it may read there."""

    key: str
    where: str                        # in words: a column of the docs' table
    variables: tuple
    missing: str | None = None        # why the round's variables that are not here cannot be read

    @property
    def names(self) -> tuple:
        return tuple(v.name for v in self.variables)

    def checker_scope(self, constants: dict, *, choice=None, region: bool = False, extra: dict | None = None) -> Scope:
        """The checker's Scope: choice is the type of a category's choice (None: no choice), region
        whether the race runs once per region, extra the edition's own variables (a flow's stocks).
        A name this scope lacks is explained, not just unknown."""
        present = {"choice": choice is not None, "region": region}
        variables, unavailable = {}, {}
        for v in self.variables:
            if v.only is None or present.get(v.name):
                variables[v.name] = choice if v.name == "choice" else v.type
            else:
                unavailable[v.name] = f"'{v.name}' exists only in {v.only}"
        if self.missing:
            quoted = [f"'{name}'" for name in variables]
            known = " and ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)
            for v in ROUND_CATEGORY.variables:
                if v.name not in variables and v.name not in unavailable:
                    only = f"'{v.name}' exists only in {v.only}" if v.only else None
                    unavailable[v.name] = only or self.missing.format(known=known)
        flow_scopes = (UNTIL, FLOW_END)   # a flow's names and the drafting round's are not explained to each other
        for name, (first, scopes) in _all_variables().items():   # e.g. `place` in a race's qualifies
            if self in flow_scopes or all(s in flow_scopes for s in scopes):
                continue
            if name not in variables and name not in unavailable:
                unavailable[name] = f"'{name}' exists only in " + (first.only or " and ".join(s.where for s in scopes))
        variables.update(extra or {})
        return Scope(variables, constants, unavailable)


CARDS_V = Variable("cards", CARDS, "the cards you drafted this round")
THROW_V = Variable("throw", CARD, "your Throw card: the first card you kept this round")
CATCH_V = Variable("catch", CARD, "your Catch card: the last card of the round")
OTHERS_V = Variable("others", CARDS, "the cards the other players drafted this round, all in one list")
OPPONENTS_V = Variable("opponents", SEATS, "the other seats, in seat order from you (your left neighbour first); "
                       "each has `cards` (this round's) and `visited`")
LEFT_V = Variable("left", SEAT, "your left neighbour: the seat you pass to when hands go left")
RIGHT_V = Variable("right", SEAT, "your right neighbour: the seat that passes to you when hands go left")
# The score sheet so far (SheetSoFar): in a round, the rounds before it; at game end, every round.
ROUND_TOTALS_V = Variable("round_totals", ListType(NUMBER),
                          "your total of each round scored so far (in a round: the earlier ones), races included, "
                          "in round order (what counts in the total)")
LINES_V = Variable("lines", LinesType(),
                   "your points on each round line of the sheet, by round, the rounds scored so far (in a round: "
                   "the earlier ones): `lines.KEY` is a list (round categories and races)")
TOTALS_V = Variable("totals", ListType(NUMBER),
                    "every seat's total so far (the rounds scored: in a round, the earlier ones), yours first, then "
                    "the other seats in seat order from you (your left neighbour first)")
STANDING_V = Variable("standing", NUMBER,
                      "your place so far: 1 + how many seats have a higher total so far (tied seats share a place; "
                      "everyone is 1 in round 1)")
SHARING_V = Variable("sharing", NUMBER,
                     "how many seats take this place of the race together this round (1 for a seat alone)")
OPTIONS_V = Variable("options", OptionsType(),
                     "your seat's options, as the table set them (each the edition's default where it set none): "
                     "`options.KEY` is a number, KEY one of the edition's `seat_options`")
SHEET = (ROUND_TOTALS_V, LINES_V, TOTALS_V, STANDING_V, OPTIONS_V)
VISITED_V = Variable("visited", CARDS, "every card you have drafted in the game so far (each site once)")
PLAYERS_V = Variable("players", NUMBER, "the number of players")
ROUND_V = Variable("round", NUMBER, "the round number, 1 for the first")
ROUNDS_V = Variable("rounds", NUMBER, "the number of rounds of the game")
PREVIOUS_V = Variable("previous", NUMBER, "your score in this category in the previous round (0 in round 1)")
CHOICE_MEANING = "the icon you chose for this category this round"
PLACE_V = Variable("place", NUMBER,
                   "1 for the first round in which anyone qualified, 2 for the next such round, and so on")
REGION_V = Variable("region", REGION, "the region the race is for", only="a race with 'each: region'")

ROUND_CATEGORY = ExpressionScope("round", "round category", (
    CARDS_V, THROW_V, CATCH_V, OTHERS_V, OPPONENTS_V, LEFT_V, RIGHT_V, VISITED_V, PLAYERS_V, ROUND_V, ROUNDS_V,
    PREVIOUS_V, *SHEET,
    Variable("choice", None, CHOICE_MEANING, only="a category with a 'choice:' section")))
GAME_END = ExpressionScope("game_end", "game-end category", (
    VISITED_V, OPPONENTS_V, LEFT_V, RIGHT_V, *SHEET, PLAYERS_V, ROUNDS_V),
                           missing="at game end only {known} are known")
REQUIRES = ExpressionScope("requires", "choice `requires`", (
    CARDS_V, THROW_V, CATCH_V, OTHERS_V, OPPONENTS_V, LEFT_V, RIGHT_V, VISITED_V, PLAYERS_V, ROUND_V, ROUNDS_V,
    PREVIOUS_V, *SHEET, Variable("choice", None, CHOICE_MEANING)))
QUALIFIES = ExpressionScope("qualifies", "race `qualifies`",
                            (CARDS_V, VISITED_V, PLAYERS_V, ROUND_V, ROUNDS_V, REGION_V))
AWARD = ExpressionScope("award", "race `award`", (PLACE_V, SHARING_V, PLAYERS_V, ROUND_V, ROUNDS_V, REGION_V))
# A game with a `flow` (docs/authoring.md, "Writing a round"): a reveal's condition, and its
# game-end categories, which also see each of the edition's stocks by name (a number: tokens kept).
CIRCLE_V = Variable("circle", CARDS, "the cards face up around the circle")
CAPTURED_V = Variable("captured", CARDS, "every card you captured in the game")
UNTIL = ExpressionScope("until", "a flow's reveal `until`", (CIRCLE_V, PLAYERS_V, ROUND_V))
FLOW_END = ExpressionScope("flow_end", "game-end category of a flow", (CAPTURED_V, PLAYERS_V))
SCOPES = (ROUND_CATEGORY, GAME_END, REQUIRES, QUALIFIES, AWARD, UNTIL, FLOW_END)


def meanings() -> dict:
    """name -> meaning of every variable of every scope."""
    return {name: variable.meaning for name, (variable, _) in _all_variables().items()}


def variables_table() -> str:
    """The table of docs/dsl.md's "What each expression sees" (a test keeps the doc equal to it)."""
    lines = ["| variable | type | meaning | " + " | ".join(scope.where for scope in SCOPES) + " |",
             "|---|---|---|" + "---|" * len(SCOPES)]
    for name, (variable, _) in _all_variables().items():
        marks = []
        for scope in SCOPES:
            here = next((v for v in scope.variables if v.name == name), None)
            marks.append("" if here is None else f"in {here.only}" if here.only else "yes")
        kind = "the icon of the choice's family" if variable.type is None else str(variable.type)
        lines.append(f"| `{name}` | {kind} | {variable.meaning} | " + " | ".join(marks) + " |")
    return "\n".join(lines) + "\n"


def _all_variables() -> dict:
    """name -> (variable, scopes), in order of first declaration."""
    found: dict = {}
    for scope in SCOPES:
        for v in scope.variables:
            found.setdefault(v.name, (v, []))[1].append(scope)
    return found


# -- the inputs of an edition's scoring program ------------------------------------------------------
@dataclass(frozen=True)
class Input:
    """What the score sheet or a bot hands a function of the edition's program (rulesengine.game.program),
    by keyword: the game values its expressions read, in the forms they read them."""

    name: str
    form: str                         # how the value is held: see FORMS
    meaning: str


FORMS = {
    "list": "a list (cards in the order taken; visited cards in deck order)",
    "list or set": "a list in deck order, or a frozenset where the program's needs say no statement reads the list",
    "set": "a frozenset",
    "tally": "icon -> how often it is printed on the cards, every icon of the edition in it (0 where none is)",
    "table": "(others, opponents, left, right) as round_env makes them, or None where nothing reads them",
    "points": "sheet key -> points",
    "number": "a number",
    "value": "the value itself, as the expression's variable of that name holds it",
    "slots": "for each race of the edition, in order: the (region, award) still open to the seat",
    "icons": "choice category key -> icons (a frozenset of those used, or a tuple of those still choosable)",
    "sheet": "an object holding each variable of the sheet so far by name (SheetSoFar); None where none is read",
}

_CARDS = Input("cards", "list", "the seat's cards of this round, in the order taken")
_TALLY = Input("tally", "tally", "the icons printed on those cards")
_VISITED = Input("visited", "list or set", "the sites the seat has visited, this round's included")
_SEEN = Input("seen", "set", "the same sites")
_TABLE = Input("table", "table", "the other seats' cards of this round")
_PREVIOUS = Input("previous", "points", "the seat's points on each line in the previous round ({} in round 1)")
_PLAYERS = Input("players", "number", "the number of players")
_ROUND = Input("round", "number", "the round number, 1 for the first")
_ROUNDS = Input("rounds", "number", "the number of rounds of the game")
_CHOOSABLE = Input("choosable", "icons", "the icons each choice category may still choose")
_SEAT_RACES = Input("races", "slots", "the (region, award) of each race the seat may still take")
_END_POINTS = Input("end_points", "number", "the game-end points of the sites visited before this round")
_SIZE = Input("size", "number", "how many sites the seat visited before this round")
_SHEET = Input("sheet", "sheet", "the seat's score sheet so far (SheetSoFar): `lines`, `round_totals`, `totals`, "
                                 "`standing` and its `options` by name")

PROGRAM_INPUTS = {
    # a seat's round (its categories and races) and each of its choices: one object, SeatInputs
    "seat": (_CARDS, _TALLY, _VISITED, _SEEN, _TABLE, _PREVIOUS,
             Input("choices", "value", "choice category key -> the icon chosen (absent: none)"),
             Input("used", "set", "the icons of the choice asked about scored in earlier rounds"),
             _PLAYERS, _ROUND, _ROUNDS, _SHEET),
    # a seat's game end: one object, EndInputs
    "end": (_VISITED, _SEEN, _PLAYERS, _ROUNDS, *(Input(v.name, "value", v.meaning) for v in (
        ROUND_TOTALS_V, LINES_V, OPPONENTS_V, LEFT_V, RIGHT_V)), _SHEET),
    # the bots' value of hands: keyword-only inputs of the factories that bind a seat's standing
    "value": (_PREVIOUS, _CHOOSABLE, _SEAT_RACES, _PLAYERS, _ROUND, _ROUNDS, _END_POINTS, _SIZE, _SHEET),
    "shared": (_PREVIOUS, _CHOOSABLE, _PLAYERS, _ROUND, _ROUNDS, _SHEET),
    "order": (_PREVIOUS, _CHOOSABLE, _SEAT_RACES, _PLAYERS, _ROUND, _ROUNDS, _END_POINTS, _SIZE, _SHEET,
              Input("before", "list", "the sites the seat visited before this round, in deck order"),
              Input("seen", "set", "the same sites")),
}


def program_inputs() -> dict:
    """function -> the names of its inputs, in order: what the program's generator reads."""
    return {function: tuple(i.name for i in inputs) for function, inputs in PROGRAM_INPUTS.items()}


def _inputs_class(function: str, doc: str) -> type:
    """A class of one object holding a function's declared inputs by name (slots; a name not given is
    None), its __init__ taking them by keyword. The score sheet keeps one and sets what changes from
    seat to seat, so a call hands one object, where a dozen keyword arguments a call cost 26K
    instructions a random 4-player game (bench/instructions.py)."""
    fields = tuple(i.name for i in PROGRAM_INPUTS[function])
    assert all(name.isidentifier() for name in fields)   # declared here, never an edition's text
    source = (f"def __init__(self, *, {', '.join(f'{name}=None' for name in fields)}):\n"
              + "".join(f"    self.{name} = {name}\n" for name in fields))
    namespace: dict = {}
    exec(source, namespace)
    return type(f"{function.title()}Inputs", (), {"__slots__": fields, "__init__": namespace["__init__"],
                                                   "__doc__": doc, "__module__": __name__})


SeatInputs = _inputs_class("seat", "What a seat's round and each of its choices read (PROGRAM_INPUTS['seat']).")
EndInputs = _inputs_class("end", "What a seat's game end reads (PROGRAM_INPUTS['end']).")


def program_scopes() -> dict:
    """kind of expression -> the names of its variables: what a generated statement of it may read; and
    "sheet": those a function reads from its `sheet` input (SheetSoFar) by name."""
    return {scope.key: frozenset(scope.names) for scope in SCOPES} | {"sheet": frozenset(v.name for v in SHEET)}


@dataclass(frozen=True, slots=True)
class SheetSoFar:
    """A seat's score sheet so far, as its expressions read it (the `sheet` input): in a round the rounds
    before it, at game end every round (a bot judging a hand: the rounds played before the one it plays)."""

    lines: SimpleNamespace            # key -> the seat's points on that line, by round (sheet_lines)
    round_totals: list                # the seat's total of each round
    totals: list                      # every seat's total, the seat's first, then the others from its left
    standing: int                     # 1 + how many seats have a higher total
    options: SimpleNamespace          # the seat's options (seat_options.seat_values): key -> its number


def sheet_so_far(edition, rounds: list, seat: int, options: SimpleNamespace | None = None) -> SheetSoFar:
    """The SheetSoFar of a seat from every seat's rounds scored (rounds[seat]: a dict of points per round)
    and its options (None: the edition's defaults)."""
    keys = edition.counting_keys
    totals = [sum(points.get(key, 0) for points in seat_rounds for key in keys) for seat_rounds in rounds]
    n = len(rounds)
    mine = totals[seat]
    return SheetSoFar(sheet_lines(line_keys(edition), rounds[seat]),
                      [sum(points.get(key, 0) for key in keys) for points in rounds[seat]],
                      [totals[(seat + step) % n] for step in range(n)], 1 + sum(total > mine for total in totals),
                      default_options(edition) if options is None else options)


def sheet_alone(edition) -> SheetSoFar:
    """The sheet of a seat alone with no round scored and its options at their defaults: the game end as
    a bot judges it."""
    return SheetSoFar(sheet_lines(line_keys(edition), []), [], [0], 1, default_options(edition))


def default_options(edition) -> SimpleNamespace:
    """`options` of a seat the table set nothing for: each of the edition's seat options at its default."""
    return SimpleNamespace(**{option.key: option.default for option in edition.seat_options})


# -- filling them in: one function per scope ---------------------------------------------------------
@dataclass(frozen=True)
class Moment:
    """What every seat shares when an expression runs: the number of players and of the round."""

    players: int
    round: int                        # 1-based
    rounds: int                       # the edition's number of rounds


def moment(edition, players: int, round: int) -> Moment:
    """The Moment of round `round` (1-based) of a game of this edition with this many players."""
    return Moment(players, round, edition.rounds)


@dataclass(frozen=True, slots=True)
class SeatCards:
    """Another seat as an expression sees it (`s.cards`, `s.visited`): at round end every card
    taken is face up, so this holds nothing hidden."""

    cards: list                       # this round's, in the order taken (at game end: the last round's)
    visited: list                     # every site it has visited so far, in deck order


class Others(list):
    """A round's `others`: every other seat's cards in one list, which also knows them seat by seat
    (`seats`, in seat order from you: the left neighbour first), for `opponents`, `left` and `right`."""

    __slots__ = ("seats",)

    def __init__(self, cards, seats: tuple):
        super().__init__(cards)
        self.seats = seats


NOBODY = SeatCards((), ())  # `left` and `right` of a seat alone at the table: no cards, nothing visited


def table_env(others) -> dict:
    """`opponents`, `left` and `right` from a round's others. A plain list (a bot judging a hand
    whose other seats it cannot tell apart) is seen as one seat holding all of those cards."""
    seats = getattr(others, "seats", None)
    if seats is None:
        pooled = list(others or ())
        seats = (SeatCards(pooled, pooled),)
    if not seats:  # one player: no other seat, and no phantom one (`len(opponents)` is 0)
        return {"opponents": [], "left": NOBODY, "right": NOBODY}
    return {"opponents": list(seats), "left": seats[0], "right": seats[-1]}


def sheet_env(sheet) -> dict:
    """The variables of the sheet so far from a SheetSoFar (None: no round scored, the seat alone)."""
    if sheet is None:
        return {"round_totals": [], "lines": SimpleNamespace(), "totals": [0], "standing": 1,
                "options": SimpleNamespace()}
    return {"round_totals": sheet.round_totals, "lines": sheet.lines, "totals": sheet.totals,
            "standing": sheet.standing, "options": sheet.options}


def round_env(at: Moment, cards: list, others: list, visited: list, previous=0, sheet=None) -> dict:
    """A round category's environment (a choice category also needs `choice`: see requires_env); sheet:
    the seat's SheetSoFar."""
    env = {"cards": cards, "throw": cards[0], "catch": cards[-1], "others": others, "visited": visited,
           "players": at.players, "round": at.round, "rounds": at.rounds, "previous": previous}
    env.update(table_env(others))
    env.update(sheet_env(sheet))
    return env


def requires_env(at: Moment, cards: list, others: list, visited: list, previous=0, choice=None, sheet=None) -> dict:
    """A choice's `requires` (and its category's score): the round's variables and the icon."""
    env = round_env(at, cards, others, visited, previous, sheet)
    env["choice"] = choice
    return env


def line_keys(edition) -> tuple:
    """The round lines `lines` has, by key: the round categories and races whose key is a name."""
    return tuple(key for key in edition.round_keys if key.isidentifier())


def sheet_lines(keys, rounds: list) -> SimpleNamespace:
    """`lines`: for each key, this seat's points on that line in each round scored (rounds: a dict per round)."""
    return SimpleNamespace(**{key: [points.get(key, 0) for points in rounds] for key in keys})


def game_end_env(at: Moment, visited: list, others=None, round_totals=(), lines=None, sheet=None) -> dict:
    """At game end: others as for round_env (the last round's cards, visited so far), round_totals
    this seat's total of each round and lines its points per line and round (a bot judging an unfinished
    game gives those it knows), sheet its SheetSoFar for every seat's totals and its place."""
    env = sheet_env(sheet)
    env.update({"visited": visited, "players": at.players, "rounds": at.rounds, "round_totals": list(round_totals),
                "lines": lines if lines is not None else SimpleNamespace()})
    env.update(table_env(others))
    return env


def qualifies_env(at: Moment, cards: list, visited: list, region=None) -> dict:
    return {"cards": cards, "visited": visited, "players": at.players, "round": at.round, "rounds": at.rounds,
            "region": region}


def award_env(at: Moment, place: int, region=None, sharing: int = 1) -> dict:
    return {"place": place, "sharing": sharing, "players": at.players, "round": at.round, "rounds": at.rounds,
            "region": region}


def until_env(circle: list, players: int, round: int) -> dict:
    return {"circle": circle, "players": players, "round": round}


def flow_end_env(captured: list, players: int, stocks: dict) -> dict:
    """A flow's game-end category: the cards captured, and each stock's tokens kept, by its name."""
    return dict(stocks, captured=captured, players=players)
