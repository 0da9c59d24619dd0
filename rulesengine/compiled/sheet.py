"""The engine's score sheet for a generated game, made as ScoreKeeper makes it, for less.

The generated game fills the engine's own ScoreKeeper (game/scoring.py) so that its races, game
end, ranking and sheet are the engine's. ScoreKeeper.__init__ works out what every sheet of an
edition shares (its plan, program, kept awards) at every game; here that is taken once per
edition and player count from a sheet made by ScoreKeeper itself, and each game gets fresh
copies of the parts a game changes. If ScoreKeeper's fields ever differ from those copied here,
every sheet is made by ScoreKeeper itself (never a sheet missing a field).
"""

from __future__ import annotations

from ..game.scoring import RaceState, ScoreKeeper

_new = object.__new__
# the fields a game changes, made afresh for every sheet (see fresh); every other field is shared
_PER_GAME = frozenset({"players", "_seen", "rounds", "used_choices", "_chosen", "races", "end_scores",
                       "_last_drafts", "_sheet", "_facts", "holdings", "_race_states"})


class SheetMaker:
    """Makes the sheets of one edition and player count: fresh(names) -> a new ScoreKeeper."""

    def __init__(self, edition, players: int):
        self.edition = edition
        made = ScoreKeeper(edition, [str(seat) for seat in range(players)])
        fields = set(vars(made))
        self.copies = _PER_GAME <= fields and all(_fresh_as_made(made, name) for name in _PER_GAME) \
            and vars(RaceState()) == {"places_given": 0, "winners": set()}   # the fields fresh() gives a race
        self.shared = {name: value for name, value in vars(made).items() if name not in _PER_GAME}
        self.seats = range(players)
        self.keys = tuple(c.key for c in edition.choice_categories)
        self.race_names = tuple(made.races)

    def fresh(self, names: list[str]) -> ScoreKeeper:
        if not self.copies:
            return ScoreKeeper(self.edition, names)
        sheet = _new(ScoreKeeper)
        seats, keys = self.seats, self.keys
        races = {}
        for name in self.race_names:   # RaceState() as its __init__ makes it, for less (a race slot a region)
            state = races[name] = _new(RaceState)
            state.places_given = 0
            state.winners = set()
        fields = sheet.__dict__   # each field stored (no keyword dict made and copied: a game is ~130 us)
        fields.update(self.shared)
        fields["players"] = list(names)
        fields["_seen"] = [frozenset()] * len(seats)
        fields["rounds"] = [[] for _ in seats]
        fields["used_choices"] = [{key: set() for key in keys} for _ in seats]
        fields["_chosen"] = [{} for _ in seats]
        fields["races"] = races
        fields["end_scores"] = None
        fields["_last_drafts"] = [[] for _ in seats]
        fields["_sheet"] = fields["_facts"] = fields["holdings"] = None
        fields["_race_states"] = list(races.values())
        return sheet


def _fresh_as_made(made: ScoreKeeper, name: str) -> bool:
    """Whether a field of a new ScoreKeeper is what fresh() makes of it (so that no field's meaning has moved)."""
    value = getattr(made, name)
    n = len(made.players)
    expected = {"players": list(made.players), "_seen": [frozenset()] * n, "rounds": [[] for _ in range(n)],
                "used_choices": [{c.key: set() for c in made.edition.choice_categories} for _ in range(n)],
                "_chosen": [{} for _ in range(n)], "end_scores": None, "_last_drafts": [[] for _ in range(n)],
                "_sheet": None, "_facts": None, "holdings": None}
    if name == "races":
        return all(type(state) is RaceState and state == RaceState() for state in value.values())
    if name == "_race_states":
        return value == list(made.races.values()) and all(a is b for a, b in zip(value, made.races.values(),
                                                                                   strict=True))
    return value == expected[name]


def sheet_maker(edition, players: int) -> SheetMaker:
    """The edition's SheetMaker for this many players, made once and kept with it."""
    return edition.kept(("generated game sheets", players), lambda: SheetMaker(edition, players))
