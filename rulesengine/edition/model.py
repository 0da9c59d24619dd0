"""The parsed edition: frozen, immutable, shared by every game played with it.

Cards, regions and families compare by identity: an edition builds each exactly once, and the
engine's hot paths (set membership, counting) rely on cheap hashing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from .draft import DraftOptions

ROUND = "round"
GAME_END = "game_end"
HOLDINGS = "holdings"  # a game-end line over what seats hold (captured cards, tokens kept): shown as it stands
GOALS = "goals"  # the game-end line of the public goals drawn (edition/goals.py): no expression of its own


@dataclass(frozen=True, eq=False, slots=True)
class Region:
    name: str
    bonus: int
    cards: tuple = ()

    def __repr__(self) -> str:
        return f"Region({self.name!r})"


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    letter: str
    name: str
    region: Region
    number: int
    icons: tuple[str, ...]
    index: int                       # position in the edition's deck, for stable orderings
    reconstructed: tuple[str, ...] = ()
    copy_of: Card | None = None      # a second (third...) copy of a card (`copies:`): the card it copies
    # the card this one is a copy of, or itself: two copies are one site (visited once, in a race once);
    # a slot, not a property, as scoring reads it for every card taken
    site: Card | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "site", self.copy_of or self)

    def __repr__(self) -> str:
        return f"Card({self.letter!r})"


@dataclass(frozen=True, eq=False, slots=True)
class Family:
    key: str
    title: str
    icons: tuple[str, ...]
    values: dict | None              # icon -> value, or None for a family without values
    icon_set: frozenset = frozenset()

    @property
    def valued(self) -> bool:
        return self.values is not None


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    rows: dict


@dataclass(frozen=True, slots=True)
class Expression:
    """A compiled DSL expression and where its text lives (to locate runtime errors)."""

    text: str
    path: tuple
    run: Callable
    locate: Callable = None          # (start, end) offsets in text -> Span in the edition file
    variables: frozenset = frozenset()   # the game variables it reads (cards, others, ...)
    texts: dict | None = None        # file -> text of the edition's files, to quote the line of a runtime error
    tree: tuple | None = None        # (checked node, resolved names, lookups): to generate it into a larger function
    kept: dict = field(default_factory=dict, init=False, repr=False, compare=False)   # what the compiler works
                                     # out of the tree once (dsl/program/reads.py: reads_of), kept with it

    def __reduce__(self):
        """Pickled (edition/cache.py) as its text, place and checked tree: `run` is compiled again from the tree
        by the same runner when read back (a function does not pickle), `kept` starts empty. The checker's
        resolved names are keyed by id(node), so they pickle as (node, value) pairs and are keyed again."""
        runner = getattr(self.run, "runner", None) if self.run is not None else None
        tree = self.tree
        if tree is not None:
            from ..dsl.ast import walk

            node, resolved, lookups = tree
            nodes = {id(part): part for part in walk(node)}
            if not resolved.keys() <= nodes.keys():
                raise TypeError("a resolved name outside its expression's tree: the expression does not pickle")
            tree = (node, [(nodes[key], value) for key, value in resolved.items()], lookups)
        return _expression, (self.text, self.path, runner, self.locate, self.variables, self.texts, tree)


def _expression(text, path, runner, locate, variables, texts, tree) -> Expression:
    """An Expression read back from a pickle: its resolved names keyed by id(node) again, its function compiled
    again from its checked tree."""
    run = None
    if tree is not None:
        node, resolved, lookups = tree
        tree = (node, {id(part): value for part, value in resolved}, lookups)
        if runner is not None:
            from ..dsl import compiled

            run = compiled(*tree, runner)
    return Expression(text, path, run, locate, variables, texts, tree)


class Located:
    """An Expression's `locate`: (start, end) offsets in its text -> the Span in the edition's files. An object,
    not a closure, so that an edition pickles (edition/cache.py)."""

    __slots__ = ("positions", "path", "text")

    def __init__(self, positions: Positions, path: tuple, text: str):
        self.positions, self.path, self.text = positions, path, text

    def __call__(self, start: int, end: int):
        return self.positions.source_map().span_in_value(self.path, start, end, self.text)

    def __reduce__(self):
        return Located, (self.positions, self.path, self.text)


class Positions:
    """The source map of an edition (every value's position in its files), shared by its expressions' Located.
    It pickles as the bytes of its own pickle, read back the first time a position is asked for: an edition read
    from the cache does not pay for it (nor import the YAML reader that defines it) while nothing fails."""

    __slots__ = ("_map", "_data")

    def __init__(self, source_map=None, data: bytes | None = None):
        self._map, self._data = source_map, data

    def source_map(self):
        if self._map is None:
            import pickle

            self._map = pickle.loads(self._data)
        return self._map

    def __reduce__(self):
        if self._data is None:
            import pickle

            self._data = pickle.dumps(self._map, pickle.HIGHEST_PROTOCOL)
        return Positions, (None, self._data)


@dataclass(frozen=True, slots=True)
class Choice:
    family: Family
    once_per_game: bool              # an icon may be chosen a limited number of times in the game...
    requires: Expression | None
    times: int = 1                   # ... this many (`once_per_game: N`); then it is used up


@dataclass(frozen=True, slots=True)
class Category:
    key: str
    title: str
    when: str
    score: Expression | None
    choice: Choice | None = None
    majority: Family | None = None   # a flow's game end: per icon, the seats with most captured score that many
    pays: tuple = (100,)             # a majority's places: the percent of its count each place scores
    counts: bool = True              # False: shown on the sheet, but not added to the total (a tie-break, a tally)


@dataclass(frozen=True, slots=True)
class Race:
    key: str
    title: str
    each: str | None                 # "region": one race per region; None: a single race
    qualifies: Expression
    award: Expression


@dataclass(frozen=True, slots=True)
class Passing:
    directions: tuple[str, ...]      # cycled over the rounds: "left" or "right"
    catch: str                       # "same" or "previous"
    each_pass: tuple[str, ...] = ()  # cycled over the passes of every round, in place of `directions` (zig-zag)

    def direction(self, round_index: int, pass_index: int = 0) -> int:
        """+1 passes to the next seat, -1 to the previous one: the round's, or this pass's with `each_pass`."""
        each = self.each_pass
        word = each[pass_index % len(each)] if each else self.directions[round_index % len(self.directions)]
        return 1 if word == "left" else -1

    def turns(self, round_index: int, passes: int) -> list[int]:
        """direction() of each of the round's first `passes` passes (one direction a round, unless each_pass)."""
        if not self.each_pass:
            return [self.direction(round_index)] * passes
        return [self.direction(round_index, at) for at in range(passes)]


@dataclass(frozen=True)
class SeatOption:
    """A number each seat has (`seat_options:`), with its default and the range a table may set; the
    table sets it seat by seat (`--seat-option Ana.handicap=-5`), expressions read it as `options.KEY`."""

    key: str
    title: str
    description: str
    default: int
    minimum: int
    maximum: int


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    file: str
    players_min: int
    players_max: int
    rounds: int
    hand_size: int
    passing: Passing
    families: dict
    regions: tuple
    cards: tuple
    tables: dict
    categories: tuple
    races: tuple
    tie_breaks: tuple                # keys, compared in order when totals are equal
    paths: dict = field(default_factory=dict)        # card -> tuple of neighbouring cards
    card_sets: dict = field(default_factory=dict)
    icon_values: dict = field(default_factory=dict)  # icon -> value, all valued families
    provenance: str = ""
    reconstructed_facts: int = 0
    language: object = None                          # symbols and constants, to compile more expressions
    round: object = None                             # edition.flow.Flow: the round's blocks (declared, or the
                                                     # default drafting round) and when the game ends
    stocks: dict = field(default_factory=dict)       # tokens per seat (a bidding's): name -> how many at the start
    seat_options: tuple = ()                         # SeatOption, in the order declared
    lowest_first: frozenset = frozenset()            # tie-break keys where the fewest points win the tie
    draft: DraftOptions = DraftOptions()             # the drafting round's options (teams)
    rules_sha256: str = ""                           # what plays, without the words (edition/rules_digest.py)
    runner: str = "compiled"                         # how its expressions run: see dsl.RUNNERS
    guarantee: object = None                         # edition.guarantee.Guarantee: the worst case of one game
    _kept: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def kept(self, key, make, *args):
        """make(*args), made once for this edition and kept with it: what the score sheet and the bots work
        out of an edition (its program, its plan, the awards of its races), shared by every game of it.
        (A module-level make with args, not a closure, for what every game asks for: no function is made
        on each call.)"""
        try:
            return self._kept[key]
        except KeyError:
            made = self._kept[key] = make(*args)
            return made

    @cached_property
    def counting_keys(self) -> tuple[str, ...]:
        """The sheet's lines that add up to the total (a category with `counts: false` does not)."""
        return tuple(c.key for c in self.categories if c.counts) + tuple(r.key for r in self.races)

    @cached_property
    def sheet_keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.categories) + tuple(r.key for r in self.races)

    @cached_property
    def round_keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.categories if c.when == ROUND) + tuple(r.key for r in self.races)

    @cached_property
    def line_titles(self) -> dict[str, str]:
        """key -> the title a sheet line or a tie-break goes by: categories, races, and a stock as 'X kept'."""
        titles = {c.key: c.title for c in self.categories} | {r.key: r.title for r in self.races}
        return titles | {stock: f"{stock} kept" for stock in self.stocks}

    @cached_property
    def choice_categories(self) -> tuple:
        return tuple(c for c in self.categories if c.choice is not None)

    def card(self, letter: str) -> Card | None:
        return self._by_letter.get(letter)

    def __getstate__(self) -> dict:
        """Pickled (edition/cache.py) without what games made of it (`kept`: its program, its plans): a function
        does not pickle, and they are made again when first asked for."""
        return {**self.__dict__, "_kept": {}}

    @property
    def by_letter(self) -> dict:
        """letter -> card: what card() reads, for a caller that looks up many (it must not change it)."""
        return self._by_letter

    def __post_init__(self):
        object.__setattr__(self, "_by_letter", {c.letter: c for c in self.cards})
        # the runner is chosen when the expressions are compiled (load_edition(path, runner=...)): an edition
        # copied with another runner (dataclasses.replace) would run the other's expressions inside its program
        built = {getattr(e.run, "runner", self.runner) for e in self._scored_expressions() if e.run is not None}
        if built - {self.runner}:
            raise ValueError(f"this edition's expressions were compiled for the {', '.join(sorted(built))} runner, "
                             f"not {self.runner!r}: load the edition again with load_edition(path, runner=...)")

    def _scored_expressions(self):
        """Every category's, choice's and race's expression (compiled by one runner, all alike)."""
        for category in self.categories:
            yield from (e for e in (category.score, category.choice and category.choice.requires) if e is not None)
        for race in self.races:
            yield from (race.qualifies, race.award)


def _itself(self, memo=None):
    """An edition's parts are immutable and compared by identity, so a copy of a game (copy.deepcopy) shares
    them as every game of the edition does: a copied card would be a card no table of the edition knows."""
    return self


for _part in (Region, Card, Family, Table, Expression, Choice, Category, Race, Passing, SeatOption, Edition):
    _part.__copy__ = _part.__deepcopy__ = _itself
