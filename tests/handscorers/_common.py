"""The few bits the three hand scorers share: CSV loading, pairs, the activity table,
place-based race places, and the winner search. Every edition's rules stay in its own file.

Each edition module has score(record) -> sheet.

record (already parsed from YAML/JSON; assumed valid):
    {"players": ["Ana", "Ben"],                       # 2..4 names, seat order
     "rounds": [                                      # exactly 4 rounds
        {"drafts": {"Ana": ["A", ..., "G"], ...},     # 7 letters each, Throw first, Catch last
         "choices": {"Ana": {"activities": "Swimming"}}},   # optional; Europe: "treasures"
        ...]}

sheet:
    {"players": [{"name": "Ana", "total": int,
                  "categories": {key: points over the game, ...},   # every key, sites included
                  "rounds": [{key: points in that round, ...}, ...]}, # 4 dicts, every key but sites
                 ...],                                               # seat order
     "winners": ["Ana"]}                                             # seat order, after tie-breaks
"""

import csv
from pathlib import Path

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "reference"


def read_csv(name):
    """All rows of tests/reference/<name> as a list of dicts."""
    with open(REFERENCE_DIR / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def pair_points(icons, values):
    """Each kind scores its value once per pair: value * (count // 2).

    icons: the icon names on the round's cards (one entry per icon, repeats allowed).
    values: icon name -> points of a pair.
    """
    points = 0
    for kind, value in values.items():
        points += value * (icons.count(kind) // 2)
    return points


# Activities (Australia, USA): icons of the chosen kind on the round's 7 cards -> points.
ACTIVITY_POINTS = {0: 0, 1: 0, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


def activity_points(count):
    return ACTIVITY_POINTS[count]


def race_places(first_round):
    """Place of each seat in a race won at most once per seat.

    first_round: seat name -> index of the round (0..3) in which the seat first qualified, or None.
    Returns seat name -> place (1, 2, ...) for the seats that qualified. Seats qualifying in the
    same round share the place; place = 1 + number of earlier rounds in which someone qualified.
    """
    rounds_with_winners = sorted({r for r in first_round.values() if r is not None})
    places = {}
    for name, r in first_round.items():
        if r is not None:
            places[name] = 1 + rounds_with_winners.index(r)
    return places


def winners(names, totals, tie_breaks):
    """Names (seat order) with the highest total, then the highest of each tie-break in turn.

    totals: name -> total; tie_breaks: list of dicts name -> value, in order of use.
    """
    best = max(totals[n] for n in names)
    left = [n for n in names if totals[n] == best]
    for key_values in tie_breaks:
        if len(left) == 1:
            break
        best = max(key_values[n] for n in left)
        left = [n for n in left if key_values[n] == best]
    return left
