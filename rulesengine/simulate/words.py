"""Every measure of a report, defined once: its name in the players' words, its unit, and the least
change a player would notice (the practical threshold that the verdict adds to the statistical test).

The thresholds are judgement, written down where a designer can read and argue with them (and in
docs/simulate.md, "Practical thresholds"); the tests hold the report to them. A difference is
*noticeable* when the paired test flags it and it is at least this large.
"""

from __future__ import annotations

from dataclasses import dataclass

PERCENT, POINTS, COUNT, ROUND = "percent", "points", "count", "round"


@dataclass(frozen=True)
class Measure:
    """How one measure is named, printed and judged."""

    title: str  # in the players' words; {line} is a sheet line's title, {seat} a seat, {kind} a bot kind
    unit: str  # PERCENT: a share from 0 to 1, printed as %, its changes in percentage points
    absolute: float  # the least noticeable change, in the measure's own unit
    relative: float = 0.0  # ... or this share of the base value, whichever is larger

    def threshold(self, base: float) -> float:
        return max(self.absolute, self.relative * abs(base))


MEASURES = {
    "total": Measure("points per player", POINTS, 1.0, 0.05),
    "points": Measure("{line} points per player", POINTS, 0.5, 0.10),
    "share": Measure("the share of the points from {line}", PERCENT, 0.03),
    "margin": Measure("the winning margin", POINTS, 1.0, 0.10),
    "tie": Measure("games with a tied best total", PERCENT, 0.02),
    "lead_changes": Measure("lead changes per game", COUNT, 0.2),
    "late_leader_lost": Measure("games the leader before the last round loses", PERCENT, 0.05),
    "drama": Measure("how far the winner trailed (drama)", POINTS, 1.0, 0.10),
    "decisiveness": Measure("the round from which the winner is clear (decisiveness)", ROUND, 0.25),
    "decisions": Measure("real decisions per player and game", COUNT, 1.0),
    "branching": Measure("options per decision", COUNT, 0.5),
    "clarity": Measure("how clearly the best card stands out (clarity)", POINTS, 0.1, 0.10),
    "rounds_played": Measure("rounds played", COUNT, 0.5),
    "winner_kept": Measure("{line} kept by the winner", COUNT, 0.5, 0.10),
    "position": Measure("seat {seat}'s share of the wins", PERCENT, 0.015),
    "entry": Measure("the {kind} player's share of the wins (line-up entry {seat})", PERCENT, 0.02),
}
CORRELATION_CHANGE = 0.1  # a line's correlation with winning: the least noticeable change
DOMINANT_LINE = 0.5  # a line whose correlation with winning is at least this ...
DOMINANT_GAP = 0.2  # ... and this much above every other line's decides games by itself
DOMINANT_CARD = 1.5  # a card whose drafters win at least this many times the parity rate dominates


def measure_of(name: str) -> Measure:
    """The definition of a paired measure by its name (e.g. share.animals, win.position1)."""
    head, _, rest = name.partition(".")
    if head == "win":
        return MEASURES["position" if rest.startswith("position") else "entry"]
    return MEASURES[head]


def title_of(name: str, layout) -> str:
    """A measure's name in the players' words: share.animals -> "the share of the points from Animals"."""
    head, _, rest = name.partition(".")
    measure = measure_of(name)
    if head == "win":
        number = int(rest.removeprefix("position").removeprefix("entry"))
        kind = layout.kinds[number - 1] if rest.startswith("entry") else ""
        return measure.title.format(seat=number, kind=kind)
    return measure.title.format(line=layout.title(rest) if rest else "")


def amount(name: str, value: float) -> str:
    """A value of the measure as players read it: 45.7%, 17.1 points, 2.9."""
    unit = measure_of(name).unit
    if unit == PERCENT:
        return f"{value:.1%}"
    if unit == POINTS:
        return f"{value:.1f} points"
    return f"{value:.2f}"


def change(name: str, difference: float) -> str:
    """A difference of the measure: +23.7 percentage points, +9.8 points, -0.31."""
    unit = measure_of(name).unit
    if unit == PERCENT:
        return f"{difference * 100:+.1f} percentage points"
    if unit == POINTS:
        return f"{difference:+.1f} points"
    return f"{difference:+.2f}"


def p_value(p: float) -> str:
    """A p-value as a reader should see it: never 0, only below a bound."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _interval(entry: dict, percent: bool = False) -> str:
    low, high = entry["ci95"]
    return f"{low:.1%} to {high:.1%}" if percent else f"{low:.2f} to {high:.2f}"


def measure_rows(figures: dict) -> list[tuple[str, str, str]]:
    """The game's measures of one edition as (what, value, 95% interval) rows, in the players' words."""
    rows = []
    margin = figures["winning_margin"]
    rows.append(("winning margin (points)", f"{margin['mean']:.2f}", _interval(margin)))
    tied = figures["ties"]["games_tied"]
    rows.append(("games with a tied best total", f"{tied['rate']:.1%}", _interval(tied, True)))
    if figures["kind"] != "holdings":
        leads = figures["lead_changes"]
        rows.append(("lead changes per game", f"{leads['mean']:.2f}", _interval(leads)))
        late = figures["leader_before_last_round_loses"]
        rows.append(("games the leader before the last round loses", f"{late['rate']:.1%}", _interval(late, True)))
        for key, what in (
            ("drama", "drama: how far the winner trailed (points)"),
            ("decisiveness", f"decisiveness: the round from which the winner is clear (of {figures['rounds']})"),
        ):
            rows.append((what, f"{figures[key]['mean']:.2f}", _interval(figures[key])))
    for key, what in (
        ("decisions", "real decisions per player and game (two options or more)"),
        ("branching", "options per decision (branching)"),
        ("clarity", "clarity: spread of a greedy or search bot's card values (points)"),
    ):
        if figures.get(key):
            rows.append((what, f"{figures[key]['mean']:.2f}", _interval(figures[key])))
    return rows


def describe_change(name: str, test: dict) -> str:
    """A flagged difference in words: 'the share of the points from Animals 22.0% → 45.7% (+23.7
    percentage points, 95% CI +23.6 to +23.9, p < 0.001)'."""
    low, high = test["ci95"]
    interval = f"{change(name, low).split()[0]} to {change(name, high).split()[0]}"
    return (
        f"{test['title']} {amount(name, test['first'])} → {amount(name, test['second'])} "
        f"({change(name, test['difference'])}, 95% CI {interval}, {p_value(test['p'])})"
    )
