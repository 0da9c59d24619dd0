"""The ladder's report in words and on a page: the table `boom ladder` prints, report.txt and report.html.

Everything here is read from the report's data (ladder.report), so the text, the page and report.json
never disagree. The page is self-contained (inline style; the ratings drawn by matplotlib, the
`report` extra, as an inline PNG) and escapes every text that comes from an edition.
"""

from __future__ import annotations

import base64
import io
import json
from html import escape
from pathlib import Path

from ..game.outputs import write_atomic


def columns(data: dict) -> tuple:
    return ("rung", "rating (95% CI)", f"vs the rung below, {data['players_paired']}p paired",
            f"vs {data['players_against_greedy'] - 1} greedy", "CPU ms a pick: mean, median, p90")


def _rate(match: dict | None) -> str:
    if match is None:
        return "-"
    low, high = match["ci95"]
    return f"{match['win_rate']:.1%} ({low:.1%}-{high:.1%}) of {match['games']}"


def _rating(row: dict) -> str:
    if row["rating"] is None:
        return "-"
    low, high = row["rating_ci95"]
    return f"{row['rating']:+.0f} ({low:+.0f} to {high:+.0f})"


def _pace(row: dict) -> str:
    pace = row["pick_ms"]
    return "-" if pace is None else f"{pace['mean']:.1f}, {pace['median']:.1f}, {pace['p90']:.1f}"


def rows(data: dict) -> list[list[str]]:
    """The table's rows, one a rung, weakest first."""
    return [[row["rung"], _rating(row), _rate(row["against_below"]), _rate(row["against_greedy"]), _pace(row)]
            for row in data["rungs"]]


def heading(data: dict) -> str:
    budget = f"think {data['think_ms']:g} ms a pick" if data["think_ms"] is not None else "fixed budgets"
    return (f"{data['name']}: bot ladder, {data['date']}, seed {data['seed']}, {data['games_per_match']} games a "
            f"match ({data['games']} in all), {budget}")


def caption(data: dict) -> str:
    players = data["players_against_greedy"]
    return (f"vs greedy bots: the rung in one of {players} seats, greedy bots in the others (parity "
            f"{1 / players:.1%}); ratings: Elo from the paired {data['players_paired']}-player matches, the bottom "
            f"rung 0; 95% Wilson intervals; {data['seconds']:.0f} s")


def text(data: dict) -> str:
    """The report as plain text (report.txt): the heading, the table with aligned columns, the caption."""
    table = [list(columns(data)), *rows(data)]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = [heading(data), ""]
    for number, line in enumerate(table):
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)).rstrip())
        if number == 0:
            lines.append("  ".join("-" * width for width in widths))
    return "\n".join([*lines, "", caption(data)]) + "\n"


def page(data: dict) -> str:
    """report.html: the heading, the table, the ratings drawn with their intervals, the caption."""
    head = "".join(f"<th>{escape(c)}</th>" for c in columns(data))
    body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows(data))
    picture = _plot(data)
    image = f'<img alt="ratings with their 95% intervals" src="data:image/png;base64,{picture}">' if picture else ""
    return (
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>"
        f"{escape(heading(data))}</title><style>body{{font-family:sans-serif;margin:2em auto;max-width:1000px}}"
        "table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}"
        "th:first-child,td:first-child{text-align:left}</style></head><body>"
        f"<h1>{escape(heading(data))}</h1><table><tr>{head}</tr>{body}</table>{image}"
        f"<p>{escape(caption(data))}</p></body></html>\n"
    )


def _plot(data: dict) -> str | None:
    """The ratings with their intervals as a base64 PNG, or None without matplotlib or ratings."""
    rated = [row for row in data["rungs"] if row["rating"] is not None]
    if not rated:
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    figure, axes = plt.subplots(figsize=(7, 3.2))
    ratings = [row["rating"] for row in rated]
    errors = [[r - row["rating_ci95"][0] for r, row in zip(ratings, rated, strict=True)],
              [row["rating_ci95"][1] - r for r, row in zip(ratings, rated, strict=True)]]
    axes.errorbar(range(len(rated)), ratings, yerr=errors, fmt="o", capsize=4)
    axes.set_xticks(range(len(rated)), [row["rung"] for row in rated])
    axes.set_ylabel("Elo rating")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def write(data: dict, folder: str | Path) -> list[Path]:
    """report.json, report.txt and report.html in folder (made if missing); their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, content in (("report.json", json.dumps(data, indent=1, ensure_ascii=False) + "\n"),
                          ("report.txt", text(data)), ("report.html", page(data))):
        write_atomic(folder / name, content)
        written.append(folder / name)
    return written
