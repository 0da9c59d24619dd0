"""The final ranking: totals first, then the edition's tie-breaks in order; what is still equal is shared.

The one place the ranking rule lives: the score sheet (games played here and records scored from a
real table), the tournament and every printed sheet read its result. It compares numbers only; it
never scores and never prints.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Place:
    rank: int  # 1 for the best; tied seats share a rank (1, 1, 3)
    seat: int
    shared: bool  # another seat has the same rank


@dataclass(frozen=True, slots=True)
class Decider:
    """The tie-break that separated the winner from the last seats tied with it on total."""

    key: str
    winner: int  # the winner's points in that category or race
    runner_up: int  # the best of the seats it beat there


@dataclass(frozen=True, slots=True)
class Ranking:
    places: tuple[Place, ...]  # best first; equal ranks in seat order
    winners: tuple[int, ...]  # seats, in seat order
    decided_by: Decider | None  # None when the totals alone decide, or the victory is shared


def rank_seats(totals: list[int], categories: list[dict], tie_breaks, lowest_first=frozenset()) -> Ranking:
    """Rank seats by total, then by each tie-break key (a category or race key) in order; a key in
    lowest_first (a tie-break with `order: lowest`) ranks the fewest points first."""
    tie_breaks = tuple(tie_breaks)
    lowest_first = frozenset(lowest_first)

    def key(seat: int) -> tuple:
        return (totals[seat],) + tuple(-categories[seat].get(k, 0) if k in lowest_first else categories[seat].get(k, 0)
                                       for k in tie_breaks)

    keys = [key(seat) for seat in range(len(totals))]
    order = sorted(range(len(totals)), key=lambda seat: (tuple(-v for v in keys[seat]), seat))
    places = []
    for position, seat in enumerate(order):
        rank = position + 1
        if position and keys[order[position - 1]] == keys[seat]:
            rank = places[-1].rank
        places.append(Place(rank, seat, sum(keys[other] == keys[seat] for other in order) > 1))
    winners = tuple(sorted(p.seat for p in places if p.rank == 1))
    return Ranking(tuple(places), winners, _decider(order, totals, categories, tie_breaks, winners, lowest_first))


def _decider(order, totals, categories, tie_breaks, winners, lowest_first=frozenset()) -> Decider | None:
    if len(winners) != 1 or not order:
        return None
    best = order[0]
    contenders = [seat for seat in order if totals[seat] == totals[best]]
    for k in tie_breaks:
        if len(contenders) == 1:
            return None
        mine = categories[best].get(k, 0)
        beaten = [seat for seat in contenders if categories[seat].get(k, 0) != mine]
        if beaten:
            contenders = [seat for seat in contenders if seat not in beaten]
            if len(contenders) == 1:
                best_beaten = min if k in lowest_first else max
                return Decider(k, mine, best_beaten(categories[seat].get(k, 0) for seat in beaten))
    return None


def rank_teams(totals: list[int], categories: list[dict], tie_breaks, lowest_first, members) -> Ranking:
    """Rank teams (members: each team's seats) on the sums of their members' totals and lines, the
    same way as seats. Its places and decided_by speak of teams (Place.seat is the team's index in
    members); its winners are the seats of the winning team(s), in seat order."""
    keys = set().union(*categories) if categories else set()
    team_totals = [sum(totals[seat] for seat in team) for team in members]
    team_lines = [{k: sum(categories[seat].get(k, 0) for seat in team) for k in keys} for team in members]
    ranked = rank_seats(team_totals, team_lines, tie_breaks, lowest_first)
    winners = tuple(sorted(seat for team in ranked.winners for seat in members[team]))
    return Ranking(ranked.places, winners, ranked.decided_by)
