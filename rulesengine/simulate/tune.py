"""`boom tune`: the smallest change to a rule's numbers that brings its balance back to the base's.

The author names the numbers that may change (knobs.py) and the targets; the search plays every
candidate on the same paired seeds as the base (common random numbers: a difference between two
candidates is never the luck of their deals) and keeps, among the candidates that meet the targets,
the one whose numbers moved least.

Why successive halving (Jamieson and Talwalkar 2016), written here, and not CMA-ES or NTBEA from a
library: the knobs are a handful of small whole numbers, the evaluations are noisy and costly (a
greedy game is some 25 ms), and the question is "which of these few rules meets the targets with
the least change", a ranking, not the optimum of a smooth function. Halving spends few games on
hopeless candidates and many on the close ones; every candidate plays the same games, so its
ranking is paired; and it is some twenty lines. Its pool: the rule itself, the rule's numbers all
scaled by a common factor (the fix of a rule that multiplies a line), single numbers moved, and
seeded random draws in the ranges. After it, a shrink step moves the winner's numbers back toward
the rule's one at a time while the targets still hold (the smallest change, not only a good one).

Targets (each relative to the base, played on the same seeds):
- seats: no seat whose 95% interval of the share of the wins lies outside parity ± the tolerance;
- lines: no sheet line whose r(win) is above the base's 95% interval for that line;
- margin: the mean winning margin within the tolerance (a share) of the base's.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .knobs import change_size, with_values
from .report import edition_figures
from .runner import map_shards, prepare
from .shards import SHARD_GAMES, ShardFailure, ShardResult, layout_of
from .source import EditionSource, compiled

SCALES = (0.2, 0.25, 0.33, 0.4, 0.5, 0.6, 0.67, 0.75, 0.85, 1.2, 1.5)


@dataclass(frozen=True)
class Targets:
    """What a tuned rule must meet; None leaves a target out."""

    seats: float | None = 0.015  # each seat's share of the wins within parity ± this (its 95% interval)
    lines: bool = True  # no line's r(win) above the base's 95% interval
    margin: float | None = 0.10  # the winning margin within this share of the base's

    def describe(self) -> list[str]:
        said = []
        if self.seats is not None:
            said.append(f"every seat's share of the wins within ±{self.seats * 100:g} points of parity")
        if self.lines:
            said.append("no line with r(win) above the base's interval")
        if self.margin is not None:
            said.append(f"the winning margin within {self.margin:.0%} of the base's")
        return said


def misses(figures: dict, base: dict, targets: Targets) -> dict:
    """How far a rule's figures are from each target, in units of its tolerance (0: met)."""
    found = {}
    if targets.seats is not None:
        parity, band = figures["parity"], targets.seats
        over = [
            max(0.0, r["ci95"][0] - (parity + band), (parity - band) - r["ci95"][1]) / band
            for r in figures["win_rate_by_position"]
        ]
        found["seats"] = sum(over)
    if targets.lines:
        over = 0.0
        for key, line in figures["categories"].items():
            ceiling = (base["categories"].get(key) or {}).get("with_winning_ci95")
            if line["with_winning"] is not None and ceiling is not None:
                over += max(0.0, line["with_winning"] - ceiling[1]) / 0.1
        found["lines"] = over
    if targets.margin is not None:
        mine, theirs = figures["winning_margin"]["mean"], base["winning_margin"]["mean"]
        allowed = targets.margin * max(abs(theirs), 1e-9)
        found["margin"] = max(0.0, abs(mine - theirs) - allowed) / allowed
    return found


@dataclass
class Candidate:
    """One set of values for the knobs, its edition, and what its games so far say."""

    values: tuple
    change: float
    source: EditionSource | None = None
    layout: object = None
    result: ShardResult | None = None
    shards: int = 0
    missed: dict = field(default_factory=dict)
    failure: str | None = None  # the first error its games met

    @property
    def miss(self) -> float:
        return sum(self.missed.values())

    def rank(self) -> tuple:
        """Met targets first, by the least change; then by how little they miss."""
        return (0, self.change) if self.miss == 0 else (1, self.miss, self.change)


def pool(knobs: tuple, size: int, seed: int) -> list[tuple]:
    """The candidates' values: the rule's own, common scalings, single moves, then seeded draws."""
    base = tuple(knob.base for knob in knobs)
    seen, values = set(), []

    def add(candidate) -> None:
        candidate = tuple(min(k.high, max(k.low, int(v))) for k, v in zip(knobs, candidate, strict=True))
        if candidate not in seen and len(values) < size:
            seen.add(candidate)
            values.append(candidate)

    add(base)
    for scale in SCALES:
        add(tuple(round(k.base * scale) for k in knobs))
    for knob_index, knob in enumerate(knobs):
        for value in (knob.low, (knob.low + knob.base) // 2, (knob.base + knob.high + 1) // 2, knob.high):
            add(tuple(value if i == knob_index else v for i, v in enumerate(base)))
    rng = random.Random(f"boom-tune/{seed}")
    tries = 0
    while len(values) < size and tries < 100 * size:
        tries += 1
        add(tuple(rng.randint(k.low, k.high) for k in knobs))
    return values


@dataclass
class Search:
    """A tuning run: the rule's document, its knobs, the line-up, and where the games are played."""

    rule: dict  # the rule's resolved document
    knobs: tuple
    kinds: tuple
    targets: Targets
    seed: int = 0
    games: int = 1600  # the games of the last rung (and of the base)
    candidates: int = 32
    shrink: int = 3  # passes of moving the winner's numbers back toward the rule's
    jobs: int = 1
    backend: str = "local"
    address: str | None = None
    on_games: Callable[[int], None] | None = None
    base: dict | None = None  # the base's figures on the search's games
    played: int = 0  # games played in all

    def edition(self, values: tuple) -> tuple[EditionSource, object]:
        data = with_values(self.rule, self.knobs, values)
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        label = ", ".join(f"{k.name}={v}" for k, v in zip(self.knobs, values, strict=True))
        source = EditionSource(f"{self.rule['id']} with {label}", text, hashlib.sha256(text.encode()).hexdigest())
        return source, layout_of(compiled(source), self.kinds)

    def play(self, work: list) -> None:
        """Play [(candidate, shards)] up to that many shards each, merging into what it had."""
        tasks = []
        for candidate, shards in work:
            if candidate.source is None:
                candidate.source, candidate.layout = self.edition(candidate.values)
            for index in range(candidate.shards, shards):
                tasks.append(
                    (candidate, (candidate.source,), (candidate.layout,), self.seed, index, shards * SHARD_GAMES)
                )
        arrived: dict = {}
        for key, result in map_shards(tasks, self.jobs, self.backend, self.address):
            if isinstance(result, ShardFailure):  # a value that breaks a rule (say, a division by zero)
                key.failure = result.message
                continue
            arrived.setdefault(id(key), (key, []))[1].append(result)
            self.played += SHARD_GAMES
            if self.on_games:
                self.on_games(SHARD_GAMES)
        for candidate, _ in work:
            if candidate.failure is not None:
                candidate.missed = {"broken": float("inf")}
                candidate.shards = max(candidate.shards, max(shards for c, shards in work if c is candidate))
                arrived.pop(id(candidate), None)
        for candidate, results in arrived.values():
            for result in sorted(results, key=lambda r: r.index):
                if candidate.result is None:
                    candidate.result = result
                else:
                    candidate.result.tallies[0].merge(result.tallies[0])
            candidate.shards = max(candidate.shards, max(r.index for r in results) + 1)
            if self.base is not None:  # the base itself is played first, against nothing
                candidate.missed = misses(edition_figures(candidate.result.tallies[0]), self.base, self.targets)

    def halve(self, candidates: list) -> Candidate:
        """Successive halving: every candidate plays the first rung, the better half twice as many games, and
        so on until one is left, played on the full games."""
        final = max(1, self.games // SHARD_GAMES)
        shards = max(1, final >> max(1, (len(candidates) - 1).bit_length()))
        while True:
            self.play([(c, shards) for c in candidates])
            candidates.sort(key=Candidate.rank)
            if shards >= final:
                return candidates[0]
            candidates = candidates[: max(1, len(candidates) // 2)]
            shards = min(final, shards * 2)

    def shrunk(self, best: Candidate) -> Candidate:
        """Move the winner's numbers back toward the rule's, one number a step at a time (the moves halved as
        the candidates are), keeping a move only while it meets the targets on the full games."""
        for _ in range(self.shrink):
            if best.miss:
                return best
            neighbours = []
            for index, knob in enumerate(self.knobs):
                value = best.values[index]
                if value != knob.base:
                    step = 1 if knob.base > value else -1
                    values = tuple(v + step if i == index else v for i, v in enumerate(best.values))
                    neighbours.append(Candidate(values, change_size(self.knobs, values)))
            if not neighbours:
                return best
            found = self.halve(neighbours)
            if found.miss:
                return best
            best = found
        return best

    def run(self, base_source: EditionSource, base_layout) -> Candidate:
        final = max(1, self.games // SHARD_GAMES)
        base = Candidate((), 0.0, base_source, base_layout)
        self.play([(base, final)])
        self.base = edition_figures(base.result.tallies[0])
        candidates = [
            Candidate(values, change_size(self.knobs, values))
            for values in pool(self.knobs, self.candidates, self.seed)
        ]
        return self.shrunk(self.halve(candidates))


def tune(base_path: str, rule_path: str, search: Search) -> Candidate:
    """Run the search for the rule at rule_path (already read into search.rule) against the base at base_path;
    the best candidate (its values, change and misses; search.base holds the base's figures)."""
    from .settings import Settings

    sources, layouts, _ = prepare(Settings((base_path, rule_path), search.kinds, search.games, search.seed))
    return search.run(sources[0], layouts[0])


@dataclass
class Tuned:
    """What `boom tune` found: the values, the house rule that sets them, and its paired report."""

    best: Candidate
    search: Search
    rule_text: str  # the YAML of the house rule (written to the output file)
    simulation: object  # the paired simulation of the tuned rule against the base
    report: dict  # its report data
    missed: dict  # the targets on that report (0: met)
    search_seconds: float
    report_seconds: float

    @property
    def met(self) -> bool:
        return not any(self.missed.values())

    def changes(self) -> list[tuple[str, int, int]]:
        return [
            (knob.name, knob.base, value)
            for knob, value in zip(self.search.knobs, self.best.values, strict=True)
            if value != knob.base
        ]


def tune_rule(base_path: str, rule_path: str, out_path: str, search: Search) -> Tuned:
    """Search, write the house rule to out_path (checked by load_edition), and play its paired report."""
    import time
    from pathlib import Path

    from ..edition.loader import load_edition
    from ..game.outputs import write_atomic
    from .knobs import house_rule
    from .report import report_data
    from .runner import run_simulation
    from .settings import Settings

    start = time.perf_counter()
    best = tune(base_path, rule_path, search)
    searched = time.perf_counter() - start
    label = ", ".join(
        f"{k.name} {k.base} -> {v}" for k, v in zip(search.knobs, best.values, strict=True) if v != k.base
    )
    note = (
        f"boom tune: {Path(rule_path).name} tuned against {Path(base_path).name} "
        f"(seats {','.join(search.kinds)}, {search.games} games, seed {search.seed}).\n"
        f"Targets: {'; '.join(search.targets.describe())}.\n"
        f"Changed: {label or 'nothing (the rule meets the targets as it is)'}."
    )
    text = house_rule(rule_path, out_path, search.rule, search.knobs, best.values, note)
    write_atomic(Path(out_path), text)
    load_edition(out_path)  # what `boom validate` reads: an error here is located in the written file
    start = time.perf_counter()
    settings = Settings((base_path, str(out_path)), search.kinds, search.games, search.seed)
    simulation = run_simulation(settings, search.jobs, search.backend, search.address, on_games=search.on_games)
    data = report_data(simulation)
    missed = misses(data["figures"][1], data["figures"][0], search.targets)
    return Tuned(best, search, text, simulation, data, missed, searched, time.perf_counter() - start)
