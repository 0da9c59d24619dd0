"""Running totals of one edition's games, and of the paired differences between two editions.

A tally takes one game's figures at a time and keeps only counts and sums, so memory stays flat
however many games are played; two tallies of the same layout merge. It holds plain data only
(never the edition and its compiled expressions) so it can travel back from any worker.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .figures import WIN_UNIT, GameFigures
from .statistics import Moments


@dataclass(frozen=True)
class Layout:
    """What a tally counts for one edition: its sheet keys, races, cards and the line-up."""

    edition: str
    sheet_keys: tuple
    race_keys: tuple
    tie_breaks: tuple
    letters: tuple
    kinds: tuple  # the line-up: entry i sits at seat (i + g) mod n in game g
    rounds: int
    holdings: bool = False  # scored at game end over what seats hold: no rounds, races, Throws or Catches
    stocks: tuple = ()  # the edition's stocks of tokens per seat (a bidding's)
    titles: tuple = ()  # the title players read for each sheet key (Throw & Catch for throw_catch)
    card_names: tuple = ()  # the name of each card, by letter order
    name: str = ""  # the edition's name, as players know it
    uncounted: tuple = ()  # lines with `counts: false`: on the sheet, not in the total, so no share of it
    seat_options: tuple = ()  # what the table set (--seat-option): (seat name, ((option, number), ...)), P1 first

    @property
    def players(self) -> int:
        return len(self.kinds)

    def title(self, key: str) -> str:
        """A sheet key's title as printed on the score sheet (the key itself if it has none)."""
        return dict(zip(self.sheet_keys, self.titles, strict=False)).get(key, key)


def measures(layout: Layout, figures: GameFigures, entry_at: list) -> dict:
    """One game as numbers that can be compared game by game between two editions."""
    n = layout.players
    grand = sum(figures.totals)
    values = {"total": grand / n}
    for index, key in enumerate(layout.sheet_keys):
        points = sum(seat[index] for seat in figures.points)
        values[f"points.{key}"] = points / n
        if key not in layout.uncounted:
            values[f"share.{key}"] = points / grand if grand else 0.0
    values["margin"] = figures.margin
    values["tie"] = 1 if figures.tied else 0
    if layout.holdings:
        values["rounds_played"] = figures.rounds_played
        for index, stock in enumerate(layout.stocks):  # the tokens the winner kept (shared wins: their mean)
            values[f"winner_kept.{stock}"] = sum(
                seat[index] * won for seat, won in zip(figures.kept, figures.wins, strict=True)
            ) / WIN_UNIT
    else:
        values["lead_changes"] = figures.lead_changes
        values["late_leader_lost"] = figures.late_leader_lost
        values["drama"] = figures.drama
        values["decisiveness"] = figures.decisive_round
    play = figures.play
    if play is not None:
        values["decisions"] = play.choices / n
        values["branching"] = play.options / play.asked if play.asked else 0.0
        if play.valued:
            values["clarity"] = play.spread / play.valued
    for seat in range(n):
        values[f"win.position{seat + 1}"] = figures.wins[seat] / WIN_UNIT
    for seat in range(n):
        values[f"win.entry{entry_at[seat] + 1}"] = figures.wins[seat] / WIN_UNIT
    return values


class EditionTally:
    """Every count and sum the report of one edition needs."""

    def __init__(self, layout: Layout):
        self.layout = layout
        n = layout.players
        self.games = 0
        self.points = {key: Counter() for key in (*layout.sheet_keys, "total")}  # key -> value -> seat-games
        self.with_winning = {key: [0] * 6 for key in layout.sheet_keys}  # [n, Σx, Σy, Σx², Σy², Σxy]
        self.wins_by_position = [0] * n  # in WIN_UNITs
        self.wins_by_entry = [0] * n
        self.margins = Counter()
        self.ties = 0
        self.decided_by = Counter()
        self.lead_changes = Counter()
        self.race_rounds = {key: Counter() for key in layout.race_keys}
        self.race_games = Counter()  # race key -> games in which it was awarded
        self.cards = {
            letter: [0, 0, 0, 0, 0] for letter in layout.letters
        }  # thrown, taken first, caught, drafted, drafted wins
        self.kept = {stock: Counter() for stock in layout.stocks}  # a stock -> tokens kept -> seat-games
        self.measures: dict[str, Moments] = {}

    def add(self, figures: GameFigures, entry_at: list) -> dict:
        """Count one game; returns its measures (for the paired comparison)."""
        layout = self.layout
        self.games += 1
        for seat, row in enumerate(figures.points):
            won = figures.wins[seat]
            for key, value in zip(layout.sheet_keys, row, strict=True):
                self.points[key][value] += 1
                sums = self.with_winning[key]
                sums[0] += 1
                sums[1] += value
                sums[2] += won
                sums[3] += value * value
                sums[4] += won * won
                sums[5] += value * won
            self.points["total"][figures.totals[seat]] += 1
            self.wins_by_position[seat] += won
            self.wins_by_entry[entry_at[seat]] += won
        self.margins[figures.margin] += 1
        for index, stock in enumerate(layout.stocks):
            self.kept[stock].update(seat[index] for seat in figures.kept)
        self.ties += figures.tied
        if figures.decided_by is not None:
            self.decided_by[figures.decided_by] += 1
        self.lead_changes[figures.lead_changes] += 1
        for key, rounds in zip(layout.race_keys, figures.race_rounds, strict=True):
            self.race_rounds[key].update(rounds)
            if rounds:
                self.race_games[key] += 1
        cards = self.cards
        for seat in range(layout.players):
            for letter in figures.thrown[seat]:
                cards[letter][0] += 1
            for letter in figures.taken_first[seat]:
                cards[letter][1] += 1
            for letter in figures.caught[seat]:
                cards[letter][2] += 1
            for letter in figures.drafted[seat]:
                cards[letter][3] += 1
                cards[letter][4] += figures.wins[seat]
        values = measures(layout, figures, entry_at)
        for name, value in values.items():
            moments = self.measures.get(name)
            if moments is None:
                moments = self.measures[name] = Moments()
            moments.add(value)
        return values

    def merge(self, other: EditionTally) -> None:
        """Add another tally of the same layout (the caller merges in a fixed order)."""
        self.games += other.games
        for key, counts in other.points.items():
            self.points[key].update(counts)
        for key, sums in other.with_winning.items():
            self.with_winning[key] = [a + b for a, b in zip(self.with_winning[key], sums, strict=True)]
        self.wins_by_position = [a + b for a, b in zip(self.wins_by_position, other.wins_by_position, strict=True)]
        self.wins_by_entry = [a + b for a, b in zip(self.wins_by_entry, other.wins_by_entry, strict=True)]
        self.margins.update(other.margins)
        for stock, counts in other.kept.items():
            self.kept[stock].update(counts)
        self.ties += other.ties
        self.decided_by.update(other.decided_by)
        self.lead_changes.update(other.lead_changes)
        for key, counts in other.race_rounds.items():
            self.race_rounds[key].update(counts)
        self.race_games.update(other.race_games)
        for letter, counts in other.cards.items():
            self.cards[letter] = [a + b for a, b in zip(self.cards[letter], counts, strict=True)]
        _merge_measures(self.measures, other.measures)


class PairedTally:
    """Per-game differences (second edition minus first) of every measure both editions have."""

    def __init__(self):
        self.games = 0
        self.differences: dict[str, Moments] = {}

    def add(self, first: dict, second: dict) -> None:
        self.games += 1
        for name, value in second.items():
            if name in first:
                moments = self.differences.get(name)
                if moments is None:
                    moments = self.differences[name] = Moments()
                moments.add(value - first[name])

    def merge(self, other: PairedTally) -> None:
        self.games += other.games
        _merge_measures(self.differences, other.differences)


def _merge_measures(mine: dict, theirs: dict) -> None:
    for name, moments in theirs.items():
        if name in mine:
            mine[name].merge(moments)
        else:
            mine[name] = Moments(moments.n, moments.total, moments.squares)
