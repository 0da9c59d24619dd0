"""The figures of a simulation as data (report.json) and the writing of the report folder.

The data holds every figure, both editions' hashes, the seeds, the line-up and the versions, and
nothing that changes from one run to the next (no timings, no dates, no paths of temporary files):
the same seed and settings give the same report.json byte for byte.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

from .. import DISTRIBUTION
from ..game.outputs import check_outputs, create_new, write_atomic
from .batched import GREEDY_BATCH, GREEDY_STREAM
from .figures import WIN_UNIT
from .settings import SettingsError
from .statistics import correlation_interval, describe, paired_test, pearson, rate
from .tally import EditionTally, Layout
from .verdict import verdict
from .words import describe_change, measure_of, title_of

GAME_SEEDS = "game g plays with seed shards.game_seed(seed, g); line-up entry i sits at seat (i + g) mod players"
PAIRED_TEST = (
    "paired large-sample t-test on the per-game differences (second edition minus first) of each measure, "
    "both editions playing the same games (same seeds, same seats); 95% intervals; a difference is flagged "
    "when its two-sided p-value is below 0.05 divided by the number of measures compared (Bonferroni)"
)


def _r(value, digits: int = 4):
    return None if value is None else round(value, digits)


def _mean(tally: EditionTally, name: str) -> dict | None:
    """A per-game measure's mean over the games with its 95% interval; None where it was not measured."""
    moments = tally.measures.get(name)
    if moments is None or not moments.n:
        return None
    return {"mean": _r(moments.mean), "ci95": [_r(x) for x in moments.interval()], "games": moments.n}


def edition_figures(tally: EditionTally) -> dict:
    """Every figure of one edition's games."""
    layout, games = tally.layout, tally.games
    n = layout.players
    categories = {}
    for key in layout.sheet_keys:
        share = None if key in layout.uncounted else tally.measures[f"share.{key}"]  # `counts: false`: no share
        r = pearson(tally.with_winning[key])
        interval = correlation_interval(r, tally.with_winning[key][0])
        categories[key] = {
            "title": layout.title(key),
            "kind": "race" if key in layout.race_keys else "category" if share is not None else "not counted",
            "points": describe(tally.points[key]),
            "share": {"mean": _r(share.mean), "ci95": [_r(x) for x in share.interval()]} if share is not None
            else {"mean": None, "ci95": None},
            "with_winning": _r(r),
            "with_winning_ci95": None if interval is None else [_r(x) for x in interval],
        }
    races = {}
    for key in layout.race_keys:
        rounds = tally.race_rounds[key]
        races[key] = {
            "title": layout.title(key),
            "games_awarded": rate(tally.race_games[key], games),
            "awards_per_game": _r(sum(rounds.values()) / games if games else 0.0),
            "awards_by_round": {str(r): rounds.get(r, 0) for r in range(1, layout.rounds + 1)},
        }
    figures = {
        "edition": layout.edition,
        "name": layout.name or layout.edition,
        "kind": "holdings" if layout.holdings else "rounds",
        "rounds": layout.rounds,
        "games": games,
        "total": describe(tally.points["total"]),
        "categories": categories,
        "win_rate_by_position": [rate(w / WIN_UNIT, games) for w in tally.wins_by_position],
        "win_rate_by_seat": [
            dict(rate(w / WIN_UNIT, games), kind=layout.kinds[i]) for i, w in enumerate(tally.wins_by_entry)
        ],
        "parity": _r(1 / n),
        "winning_margin": dict(describe(tally.margins), ci95=_mean(tally, "margin")["ci95"]),
        "ties": {
            "games_tied": rate(tally.ties, games),
            "decided_by": {key: rate(tally.decided_by.get(key, 0), games) for key in (*layout.tie_breaks, "shared")},
        },
        "decisions": _mean(tally, "decisions"),
        "branching": _mean(tally, "branching"),
        "clarity": _mean(tally, "clarity"),
    }
    if layout.holdings:
        return figures | _holding_figures(tally)
    cards = {}
    for (letter, (thrown, first, caught, drafted, drafted_wins)), name in zip(
        tally.cards.items(), layout.card_names, strict=False
    ):
        cards[letter] = {
            "name": name,
            "thrown": rate(thrown, games * layout.rounds),
            "taken_first": rate(first, games * layout.rounds),
            "caught": rate(caught, games * layout.rounds),
            "drafted_by": drafted,
            "drafters_win": rate(drafted_wins / WIN_UNIT, drafted),
        }
    return figures | {
        "races": races,
        "lead_changes": dict(describe(tally.lead_changes), ci95=_mean(tally, "lead_changes")["ci95"]),
        "leader_before_last_round_loses": rate(round(tally.measures["late_leader_lost"].total), games),
        "drama": _mean(tally, "drama"),
        "decisiveness": _mean(tally, "decisiveness"),
        "cards": cards,
    }


def _holding_figures(tally: EditionTally) -> dict:
    """What only the games scored over holdings say: how long the deck lasted, the tokens kept, who captured
    each card."""
    measures = tally.measures
    return {
        "rounds_played": {"mean": _r(measures["rounds_played"].mean)},
        "kept": {
            stock: dict(describe(tally.kept[stock]), by_winner=_r(measures[f"winner_kept.{stock}"].mean))
            for stock in tally.layout.stocks
        },
        "cards": {
            letter: {"name": name, "captured_by": captured, "capturers_win": rate(wins / WIN_UNIT, captured)}
            for (letter, (_, _, _, captured, wins)), name in zip(
                tally.cards.items(), tally.layout.card_names, strict=False
            )
        },
    }


def comparison(simulation) -> dict:
    """The paired differences, second edition minus first, with their tests and flags."""
    return paired_comparison(simulation.paired, simulation.tallies, simulation.layouts[1])


def paired_comparison(paired, tallies: tuple, layout: Layout) -> dict:
    """Each measure's paired difference with its test, its title and whether a player would notice it."""
    names = sorted(paired.differences)
    tests = {}
    for name in names:
        test = paired_test(paired.differences[name], len(names))
        first = tallies[0].measures[name].mean
        second = tallies[1].measures[name].mean
        threshold = measure_of(name).threshold(first)
        tests[name] = {
            "title": title_of(name, layout),
            "first": _r(first),
            "second": _r(second),
            "difference": _r(test["difference"]),
            "ci95": [_r(x) for x in test["ci95"]],
            "p": _r(test["p"], 6),
            "flagged": test["flagged"],
            "threshold": _r(threshold),
            "noticeable": bool(test["flagged"] and abs(test["difference"]) >= threshold),
        }
    flagged = [describe_change(name, tests[name]) for name in names if tests[name]["flagged"]]
    noticeable = [name for name in names if tests[name]["noticeable"]]
    return {"games": paired.games, "test": PAIRED_TEST, "measures": tests, "flagged": flagged, "noticeable": noticeable}


def versions() -> dict:
    from importlib import metadata

    found = {"python": platform.python_version()}
    for package, distribution in (("boom", DISTRIBUTION), ("lark", "lark"), ("matplotlib", "matplotlib")):
        try:
            found[package] = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found


def report_data(simulation, extra: dict | None = None, with_versions: bool = True) -> dict:
    """Everything the simulation found, as JSON-ready data (deterministic for the same settings); extra:
    the figures of separate runs on the same edition (skill_depth, chance), reported and judged too.
    with_versions=False leaves out "versions" (for the tables printed: reading the installed packages'
    versions costs ~30 ms, a tenth of a short run)."""
    settings = simulation.settings
    data = {
        "settings": {
            "games": settings.games,
            "players": len(settings.kinds),
            "seats": list(settings.kinds),
            "seed": settings.seed,
            "game_seeds": GAME_SEEDS,
            **({"seat_options": {name: dict(values) for name, values in simulation.layouts[0].seat_options}}
               if settings.seat_options else {}),
        },
        "editions": [
            {"file": source.name, "id": layout.edition, "name": layout.name or layout.edition, "sha256": source.sha256,
             "played_by": who, **({"random_stream": GREEDY_STREAM} if who == GREEDY_BATCH else {})}
            for source, layout, who in zip(simulation.sources, simulation.layouts,
                                           simulation.played_by or ("the engine",) * len(simulation.sources),
                                           strict=True)
        ],
        **({"versions": versions()} if with_versions else {}),
        "figures": [edition_figures(tally) for tally in simulation.tallies],
    }
    if simulation.paired is not None:
        data["comparison"] = comparison(simulation)
    data |= extra or {}
    return {"verdict": verdict(data), **data}


def missing_plotting() -> str | None:
    """What to install when report.html cannot draw its plots (matplotlib is the `report` extra), or None."""
    try:
        import matplotlib  # noqa: F401 - only asked whether it is there
    except ImportError:
        return (f"--report draws its plots with matplotlib, which the base install leaves out: "
                f"pip install '{DISTRIBUTION}[report]'")
    return None


def check_report_folder(folder: str | Path) -> None:
    """Make sure the report can be written there before any game is played (SettingsError if not;
    OutputError if report.json or report.html is there but not a regular file). The probe is a new
    file of our own (O_EXCL|O_NOFOLLOW): a link planted at any name there is never written through."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = create_new(folder, "boom-simulate-probe")
        os.close(fd)
        probe.unlink()
    except OSError as exc:
        raise SettingsError(f"cannot write the report in '{folder}': {exc.strerror or exc}", "--report") from None
    check_outputs(*report_files(folder))


def report_files(folder: str | Path) -> tuple[Path, Path]:
    """report.json and report.html in folder: locked by the caller from the check until they are written."""
    return Path(folder) / "report.json", Path(folder) / "report.html"


def write_report(simulation, folder: str | Path, extra: dict | None = None) -> tuple[Path, Path]:
    """Write report.json and report.html into folder (created if missing); their paths."""
    from .page import report_html

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    data = report_data(simulation, extra)
    json_path, html_path = report_files(folder)
    write_atomic(json_path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    write_atomic(html_path, report_html(data))
    return json_path, html_path
