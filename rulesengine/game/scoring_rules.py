"""The scoring rules, once: what a seat's round, a choice, the races and the game end are worth.

The score sheet (scoring.ScoreKeeper) and the bots (bots/evaluate.py, judging hands that are not
played yet) both call these functions, so a rule of scoring is written here and nowhere else. They
are pure: they keep no sheet and change nothing but the environment they are handed. Every
environment comes from edition/scopes.py. How a failing expression is treated is the caller's:
`run(expression, env, default)` raises a located error for the sheet, and gives `default` to a
bot judging a hand that cannot happen.
"""

from __future__ import annotations

from bisect import insort
from operator import attrgetter

from ..edition.model import GAME_END, ROUND
from ..edition.scopes import (
    Others,
    SeatCards,
    award_env,
    game_end_env,
    line_keys,
    qualifies_env,
    sheet_lines,
    table_env,
)

deck_order = attrgetter("index")  # how visited cards are sorted


def visited_after(visited, seen, cards) -> list:
    """A seat's visited cards once this round's cards are added: each site once, in deck order.
    visited: those of the earlier rounds, in deck order; seen: the same as a set (or a dict)."""
    new = {c.site for c in cards}.difference(seen)  # a copy of a card is the same site (`copies:`)
    merged = [*visited, *new]
    if new:  # the earlier ones are in order: a merge, not a sort of them all
        merged.sort(key=deck_order)
    return merged


def visited_with_site(visited: list, site) -> list:
    """visited_after(visited, visited, [card]) for a card whose site is not in visited: a new list."""
    visited = list(visited)
    insort(visited, site, key=deck_order)
    return visited


def others(drafts: list, seat: int, visited: list | None = None, seat_cards: list | None = None) -> Others:
    """The cards every other seat took this round, seat by seat: a round category's `others`,
    which also knows them seat by seat from this one's left neighbour on (`opponents`); visited:
    every seat's visited cards (None: each seat's own cards of this round only); seat_cards: every
    seat's SeatCards of these, if made already (all_seat_cards: the same list serves each seat)."""
    n = len(drafts)
    order = [(seat + step) % n for step in range(1, n)]
    if seat_cards is not None:
        seats = tuple([seat_cards[other] for other in order])
    else:   # (only the other seats': a bot asks for one seat's)
        seats = tuple([_seat_cards(drafts, visited, other) for other in order])
    return Others([card for other, hand in enumerate(drafts) if other != seat for card in hand], seats)


def all_seat_cards(drafts: list, visited: list | None = None) -> list:
    """Every seat's SeatCards of a round (see others): frozen, so one each serves every other seat."""
    return [_seat_cards(drafts, visited, seat) for seat in range(len(drafts))]


def _seat_cards(drafts: list, visited: list | None, seat: int) -> SeatCards:
    return SeatCards(drafts[seat], drafts[seat] if visited is None else visited[seat])


def round_categories(edition) -> tuple:
    return tuple(c for c in edition.categories if c.when == ROUND)


def race_slots(edition) -> list:
    """(race, region) of every race, a race run once per region once for each, in sheet order."""
    return [(race, region) for race in edition.races for region in (edition.regions if race.each else (None,))]


def allowed_icons(category, env: dict, used, run) -> list:
    """The icons of a choice category a seat may pick: not scored before when once per game, and
    meeting `requires`. env is the seat's requires environment; its `choice` is changed."""
    return [icon for icon, _ in _icons(category, env, used, run, False)]


def icon_points(category, env: dict, used, run):
    """(icon, points) for each icon the seat may pick (env as for allowed_icons)."""
    return _icons(category, env, used, run, True)


def _icons(category, env: dict, used, run, score: bool):
    choice = category.choice
    for icon in choice.family.icons:
        if choice.once_per_game and icon in used:
            continue
        env["choice"] = icon
        if choice.requires is not None and not run(choice.requires, env, False):
            continue
        yield icon, run(category.score, env, 0) if score else None


def category_points(category, env: dict, previous: dict, used, run, choices: dict | None = None):
    """A round category's points for a seat (env: its round environment). A choice category scores
    at the icon in choices (absent or None: no choice, 0 points; the caller checked it is allowed),
    or, without choices, at the best icon it may pick, or 0 by not choosing."""
    env["previous"] = previous.get(category.key, 0)
    if category.choice is None:
        return run(category.score, env, 0)
    if choices is None:
        options = icon_points(category, env, used.get(category.key, ()), run)
        return max(0, max((points for _, points in options), default=0))
    icon = choices.get(category.key)
    if icon is None:
        return 0
    env["choice"] = icon
    return run(category.score, env, 0)


def seat_round(categories, env: dict, previous: dict, used: dict, run, choices: dict | None = None) -> dict:
    """key -> points of each of these round categories for one seat's round (see category_points)."""
    return {category.key: category_points(category, env, previous, used, run, choices) for category in categories}


def race_winners(slots, at, drafts: list, visited: list, runs: list) -> list:
    """For each (race, region, seats that took it before) of slots, the seats that take it this
    round: every seat that qualifies and has not taken it before. They share one place: the next
    one (see race_award)."""
    envs = [qualifies_env(at, cards, seen) for cards, seen in zip(drafts, visited, strict=True)]
    taken = []
    for race, region, winners in slots:
        taken.append([seat for seat, env in enumerate(envs)
                      if seat not in winners and qualifies(race, region, env, runs[seat])])
    return taken


def qualifies(race, region, env: dict, run) -> bool:
    """Whether a seat qualifies for this race (or this region's race) this round; env is the
    seat's qualifies environment, whose `region` is set here."""
    env["region"] = region
    return run(race.qualifies, env, False)


def race_award(race, region, at, place: int, run):
    """What a place of a race pays."""
    return run(race.award, award_env(at, place, region), 0)


def game_end_categories(edition) -> tuple:
    return tuple(c for c in edition.categories if c.when == GAME_END)


def game_end_reads(edition) -> frozenset:
    """Every variable the edition's game-end categories read: what their environment must hold."""
    return frozenset().union(*(c.score.variables for c in game_end_categories(edition) if c.score is not None))


def game_end_inputs(edition, reads: frozenset, others, round_totals, rounds) -> tuple:
    """round_totals, lines, opponents, left and right of a seat's game-end environment, as game_end_env
    makes them, each only where some category reads it (reads: game_end_reads), else None."""
    lines = sheet_lines(line_keys(edition), list(rounds)) if "lines" in reads else None
    seats = table_env(others) if reads & {"opponents", "left", "right"} else {}
    return (list(round_totals) if "round_totals" in reads else None, lines,
            seats.get("opponents"), seats.get("left"), seats.get("right"))


def game_end_points(edition, at, visited: list, run, others=None, round_totals=(), rounds=()) -> dict:
    """key -> points of each game-end category for a seat that has visited these cards (others
    and round_totals: see scopes.game_end_env; rounds: the seat's points per line, one dict per round)."""
    categories = game_end_categories(edition)
    # `lines` is built only for an edition whose game-end lines read it (the bots value hands here, often)
    reads_lines = any("lines" in c.score.variables for c in categories)
    lines = sheet_lines(line_keys(edition), list(rounds)) if reads_lines else None
    env = game_end_env(at, visited, others, round_totals, lines)
    return {c.key: run(c.score, env, 0) for c in categories}
