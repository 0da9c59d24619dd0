"""What the score sheet hands the edition's program: a round's cards in the forms its functions read.

The program's functions (game/program.py) take the seat's cards, the tally of their icons, its
visited cards (in deck order, or only their set where no statement reads the list: the program's
needs say), the other seats' cards (only where something reads them), and at game end the lines of
the sheet. This module makes those from the drafts, each once a round and only where read; it
decides no score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain

from ..dsl.program import deck_order
from ..edition.scopes import EndInputs, Others, SeatCards, line_keys, sheet_lines, table_env


def others(drafts: list, seat: int, visited: list | None = None, seat_cards: list | None = None) -> Others:
    """The cards every other seat took this round, seat by seat: a round category's `others`,
    which also knows them seat by seat from this one's left neighbour on (`opponents`); visited:
    every seat's visited cards (None: each seat's own cards of this round only); seat_cards: every
    seat's SeatCards of these, if made already (all_seat_cards: the same list serves each seat)."""
    if seat_cards is None:   # only the other seats': a bot asks for one seat's
        seat_cards = [seat_card(drafts, visited, other) if other != seat else None for other in range(len(drafts))]
    # slices, not comprehensions and a generator: made for every seat and round where the expressions read the
    # other seats (they cost 144K instructions a random 4-player game of Europe, 2.6%, by callgrind)
    return Others(list(chain.from_iterable(drafts[:seat] + drafts[seat + 1:])),
                  tuple(seat_cards[seat + 1:] + seat_cards[:seat]))


def all_seat_cards(drafts: list, visited: list | None = None) -> list:
    """Every seat's SeatCards of a round (see others): frozen, so one each serves every other seat."""
    return [seat_card(drafts, visited, seat) for seat in range(len(drafts))]


def seat_card(drafts: list, visited: list | None, seat: int) -> SeatCards:
    return SeatCards(drafts[seat], drafts[seat] if visited is None else visited[seat])


def table(others_: Others) -> tuple:
    """The `table` input from a round's others: (others, opponents, left, right)."""
    seats = table_env(others_)
    return others_, seats["opponents"], seats["left"], seats["right"]


def race_slots(edition) -> list:
    """(race, region) of every race, a race run once per region once for each, in sheet order."""
    return [(race, region) for race in edition.races for region in (edition.regions if race.each else (None,))]


def end_inputs(inputs: EndInputs, edition, reads: frozenset, others_, round_totals, rounds) -> EndInputs:
    """Sets round_totals, lines, opponents, left and right of a seat's game end as scopes.game_end_env makes
    them, each only where some category reads it (reads: the program's needs.end_reads), else None."""
    inputs.round_totals = list(round_totals) if "round_totals" in reads else None
    inputs.lines = sheet_lines(line_keys(edition), list(rounds)) if "lines" in reads else None
    seats = table_env(others_) if reads & {"opponents", "left", "right"} else {}
    inputs.opponents, inputs.left, inputs.right = seats.get("opponents"), seats.get("left"), seats.get("right")
    return inputs


@dataclass
class RoundFacts:
    """A round's drafts as the sheet saw them, and what it worked out from them (see ScoreKeeper._round_facts)."""

    key: tuple            # (round index, every seat's cards as a tuple)
    seen: list            # every seat's visited sites once its cards of the round are added, as frozensets
    tallies: list         # every seat's icon counts (program.tally), None where the program reads none
    inputs: list | None = None   # each seat's SeatInputs (ScoreKeeper._seat_inputs)
    _visited: list | None = None
    _tables: dict = field(default_factory=dict)   # seat -> its table (see table)
    _seat_cards: list | None = None                # every seat's SeatCards, for the tables

    @property
    def visited(self) -> list:
        """seen, each in deck order: worked out when first read (the generated program seldom reads the lists)."""
        if self._visited is None:
            self._visited = [sorted(sites, key=deck_order) for sites in self.seen]
        return self._visited

    def table(self, drafts, seat: int) -> tuple:
        """The seat's `table` input, made once a seat and round, for its choices and its points (the
        expressions only read it)."""
        found = self._tables.get(seat)
        if found is None:
            if self._seat_cards is None:
                self._seat_cards = all_seat_cards(drafts, self.visited)
            found = self._tables[seat] = table(others(drafts, seat, self.visited, self._seat_cards))
        return found

    def visited_for(self, needs) -> list:
        """What the program is handed as each seat's visited cards: the lists where a statement reads them
        as such, else the sets (a tally or a set of them is all it makes)."""
        return self.visited if needs.visited else self.seen
