"""The figures of a simulation as data (report.json) and the writing of the report folder.

The data holds every figure, both editions' hashes, the seeds, the line-up and the versions, and
nothing that changes from one run to the next (no timings, no dates, no paths of temporary files):
the same seed and settings give the same report.json byte for byte.
"""

from __future__ import annotations

import json
import platform
from importlib import metadata
from pathlib import Path

from ..game.outputs import check_outputs, write_atomic
from .figures import WIN_UNIT
from .runner import SettingsError
from .statistics import describe, paired_test, pearson, rate
from .tally import EditionTally

GAME_SEEDS = "game g plays with seed runner.game_seed(seed, g); line-up entry i sits at seat (i + g) mod players"
PAIRED_TEST = (
    "paired large-sample t-test on the per-game differences (second edition minus first) of each measure, "
    "both editions playing the same games (same seeds, same seats); 95% intervals; a difference is flagged "
    "when its two-sided p-value is below 0.05 divided by the number of measures compared (Bonferroni)"
)


def _r(value, digits: int = 4):
    return None if value is None else round(value, digits)


def edition_figures(tally: EditionTally) -> dict:
    """Every figure of one edition's games."""
    layout, games = tally.layout, tally.games
    n = layout.players
    categories = {}
    for key in layout.sheet_keys:
        share = tally.measures[f"share.{key}"]
        categories[key] = {
            "kind": "race" if key in layout.race_keys else "category",
            "points": describe(tally.points[key]),
            "share": {"mean": _r(share.mean), "ci95": [_r(x) for x in share.interval()]},
            "with_winning": _r(pearson(tally.with_winning[key])),
        }
    races = {}
    for key in layout.race_keys:
        rounds = tally.race_rounds[key]
        races[key] = {
            "games_awarded": rate(tally.race_games[key], games),
            "awards_per_game": _r(sum(rounds.values()) / games if games else 0.0),
            "awards_by_round": {str(r): rounds.get(r, 0) for r in range(1, layout.rounds + 1)},
        }
    figures = {
        "edition": layout.edition,
        "kind": "flow" if layout.flow else "rounds",
        "games": games,
        "total": describe(tally.points["total"]),
        "categories": categories,
        "win_rate_by_position": [rate(w / WIN_UNIT, games) for w in tally.wins_by_position],
        "win_rate_by_seat": [
            dict(rate(w / WIN_UNIT, games), kind=layout.kinds[i]) for i, w in enumerate(tally.wins_by_entry)
        ],
        "parity": _r(1 / n),
        "winning_margin": describe(tally.margins),
        "ties": {
            "games_tied": rate(tally.ties, games),
            "decided_by": {key: rate(tally.decided_by.get(key, 0), games) for key in (*layout.tie_breaks, "shared")},
        },
    }
    if layout.flow:
        return figures | _flow_figures(tally)
    sole_leaders = tally.late_leader[0] + tally.late_leader[1]
    cards = {}
    for letter, (thrown, first, caught, drafted, drafted_wins) in tally.cards.items():
        cards[letter] = {
            "thrown": rate(thrown, games * layout.rounds),
            "taken_first": rate(first, games * layout.rounds),
            "caught": rate(caught, games * layout.rounds),
            "drafted_by": drafted,
            "drafters_win": rate(drafted_wins / WIN_UNIT, drafted),
        }
    return figures | {
        "races": races,
        "lead_changes": dict(
            describe(tally.lead_changes),
            games_with_sole_leader_before_last_round=sole_leaders,
            that_leader_loses=rate(tally.late_leader[1], sole_leaders),
        ),
        "cards": cards,
    }


def _flow_figures(tally: EditionTally) -> dict:
    """What only a flow edition's games say: how long the deck lasted, the tokens kept, who captured each card."""
    measures = tally.measures
    return {
        "rounds_played": {"mean": _r(measures["rounds_played"].mean)},
        "kept": {
            stock: dict(describe(tally.kept[stock]), by_winner=_r(measures[f"winner_kept.{stock}"].mean))
            for stock in tally.layout.stocks
        },
        "cards": {
            letter: {"captured_by": captured, "capturers_win": rate(wins / WIN_UNIT, captured)}
            for letter, (_, _, _, captured, wins) in tally.cards.items()
        },
    }


def comparison(simulation) -> dict:
    """The paired differences, second edition minus first, with their tests and flags."""
    paired = simulation.paired
    names = sorted(paired.differences)
    tests = {}
    for name in names:
        test = paired_test(paired.differences[name], len(names))
        first = simulation.tallies[0].measures[name].mean
        second = simulation.tallies[1].measures[name].mean
        tests[name] = {
            "first": _r(first),
            "second": _r(second),
            "difference": _r(test["difference"]),
            "ci95": [_r(x) for x in test["ci95"]],
            "p": _r(test["p"], 6),
            "flagged": test["flagged"],
        }
    flagged = [describe_change(name, tests[name]) for name in names if tests[name]["flagged"]]
    return {"games": paired.games, "test": PAIRED_TEST, "measures": tests, "flagged": flagged}


def describe_change(name: str, test: dict) -> str:
    """A flagged difference in words, e.g. 'share.collections 31.0% → 38.0% (+7.0 points, ±1.2)'."""
    half = (test["ci95"][1] - test["ci95"][0]) / 2
    if name.startswith(("share.", "win.")) or name in ("tie", "late_leader_lost"):
        return (
            f"{name} {test['first']:.1%} → {test['second']:.1%} "
            f"({test['difference'] * 100:+.1f} points, ±{half * 100:.{1 if half >= 0.001 else 2}f})"
        )
    return f"{name} {test['first']:.2f} → {test['second']:.2f} ({test['difference']:+.2f}, ±{half:.2f})"


def versions() -> dict:
    found = {"python": platform.python_version()}
    for package in ("boom", "lark", "matplotlib"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found


def report_data(simulation) -> dict:
    """Everything the simulation found, as JSON-ready data (deterministic for the same settings)."""
    settings = simulation.settings
    data = {
        "settings": {
            "games": settings.games,
            "players": len(settings.kinds),
            "seats": list(settings.kinds),
            "seed": settings.seed,
            "game_seeds": GAME_SEEDS,
        },
        "editions": [
            {"file": source.name, "id": layout.edition, "sha256": source.sha256}
            for source, layout in zip(simulation.sources, simulation.layouts, strict=True)
        ],
        "versions": versions(),
        "figures": [edition_figures(tally) for tally in simulation.tallies],
    }
    if simulation.paired is not None:
        data["comparison"] = comparison(simulation)
    return data


def check_report_folder(folder: str | Path) -> None:
    """Make sure the report can be written there before any game is played (SettingsError if not;
    OutputError if report.json or report.html is there but not a regular file)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".boom-simulate-probe"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise SettingsError(f"cannot write the report in '{folder}': {exc.strerror or exc}", "--report") from None
    check_outputs(folder / "report.json", folder / "report.html")


def write_report(simulation, folder: str | Path) -> tuple[Path, Path]:
    """Write report.json and report.html into folder (created if missing); their paths."""
    from .page import report_html

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    data = report_data(simulation)
    json_path, html_path = folder / "report.json", folder / "report.html"
    write_atomic(json_path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    write_atomic(html_path, report_html(data))
    return json_path, html_path
