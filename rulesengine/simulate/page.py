"""report.html: one self-contained page (inline style, plots inlined as base64 PNG), readable offline.

It renders the report's data only, so the page says nothing report.json does not; every text from
the editions is escaped. It loads nothing from the network.
"""

from __future__ import annotations

from html import escape

from .plots import all_plots

STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.flag { background: #fde2c8; font-weight: bold; }
img { max-width: 100%; }
"""


def _table(header: list, rows: list, flags: list | None = None) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = []
    for index, row in enumerate(rows):
        marked = ' class="flag"' if flags and flags[index] else ""
        body.append(f"<tr{marked}>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in row) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _pct(rate: dict) -> str:
    return f"{rate['rate']:.1%} ({rate['ci95'][0]:.1%}–{rate['ci95'][1]:.1%})"


def _edition_section(figures: dict, title: str) -> str:
    parts = [f"<h2>{escape(title)}: {escape(figures['edition'])}</h2>"]
    rows = []
    for key, category in figures["categories"].items():
        points = category["points"]
        quantiles = points["quantiles"]
        rows.append(
            [
                key,
                category["kind"],
                f"{points['mean']:.2f}",
                f"{points['sd']:.2f}",
                f"{quantiles.get('p5', '')}–{quantiles.get('p95', '')}",
                f"{category['share']['mean']:.1%}",
                "" if category["with_winning"] is None else f"{category['with_winning']:+.2f}",
            ]
        )
    total = figures["total"]
    rows.append(
        [
            "total",
            "",
            f"{total['mean']:.2f}",
            f"{total['sd']:.2f}",
            f"{total['quantiles'].get('p5', '')}–{total['quantiles'].get('p95', '')}",
            "100%",
            "",
        ]
    )
    parts.append(
        _table(["sheet line", "kind", "mean", "sd", "5%–95%", "share of points", "correlation with winning"], rows)
    )
    parts.append("<h3>Who wins</h3>")
    rows = [[f"seat {i + 1}", _pct(r)] for i, r in enumerate(figures["win_rate_by_position"])]
    rows += [[f"line-up entry {i + 1} ({r['kind']})", _pct(r)] for i, r in enumerate(figures["win_rate_by_seat"])]
    parts.append(_table(["", f"win rate, 95% CI (parity {figures['parity']:.1%})"], rows))
    ties, margin = figures["ties"], figures["winning_margin"]
    rows = [
        ["winning margin (mean, median)", f"{margin['mean']:.2f}, {margin['quantiles'].get('median', '')}"],
        ["games with a tied best total", _pct(ties["games_tied"])],
    ]
    rows += [[f"tie decided by {key}", _pct(r)] for key, r in ties["decided_by"].items()]
    if figures["kind"] == "flow":
        rows.append(["rounds played (mean)", f"{figures['rounds_played']['mean']:.2f}"])
        rows += [
            [
                f"{stock} kept per player (mean, sd; the winner's mean)",
                f"{k['mean']:.2f}, {k['sd']:.2f}; {k['by_winner']:.2f}",
            ]
            for stock, k in figures["kept"].items()
        ]
        parts.append(_table(["", ""], rows))
        parts.append("<h3>Cards</h3>")
        rows = [[letter, str(c["captured_by"]), _pct(c["capturers_win"])] for letter, c in figures["cards"].items()]
        parts.append(_table(["card", "captured (games)", "win rate of its capturers"], rows))
        return "\n".join(parts)
    leads = figures["lead_changes"]
    rows += [
        ["lead changes per game (mean)", f"{leads['mean']:.2f}"],
        ["sole leader before the last round loses", _pct(leads["that_leader_loses"])],
    ]
    for key, race in figures["races"].items():
        by_round = ", ".join(f"round {r}: {count}" for r, count in race["awards_by_round"].items())
        rows.append([f"race {key}: games awarded", f"{_pct(race['games_awarded'])}; {by_round}"])
    parts.append(_table(["", ""], rows))
    parts.append("<h3>Cards</h3>")
    rows = [
        [
            letter,
            f"{c['thrown']['rate']:.1%}",
            f"{c['taken_first']['rate']:.1%}",
            f"{c['caught']['rate']:.1%}",
            _pct(c["drafters_win"]),
        ]
        for letter, c in figures["cards"].items()
    ]
    parts.append(
        _table(
            ["card", "thrown (per round)", "taken first after the Throw", "kept as Catch", "win rate of its drafters"],
            rows,
        )
    )
    return "\n".join(parts)


def _comparison_section(data: dict) -> str:
    comparison = data["comparison"]
    first, second = (f["edition"] for f in data["figures"])
    parts = [
        f"<h2>Paired comparison: {escape(second)} against {escape(first)} ({comparison['games']} paired games)</h2>",
        f"<p>Test: {escape(comparison['test'])}.</p>",
    ]
    if comparison["flagged"]:
        parts.append(
            "<p>Meaningful differences:</p><ul>"
            + "".join(f"<li>{escape(line)}</li>" for line in comparison["flagged"])
            + "</ul>"
        )
    else:
        parts.append("<p>No difference is statistically meaningful.</p>")
    names = list(comparison["measures"])
    rows = [
        [
            name,
            m["first"],
            m["second"],
            f"{m['difference']:+.4f}",
            f"{m['ci95'][0]:+.4f} – {m['ci95'][1]:+.4f}",
            f"{m['p']:.4g}",
            "yes" if m["flagged"] else "",
        ]
        for name, m in comparison["measures"].items()
    ]
    parts.append(
        _table(
            ["measure", first, second, "difference", "95% CI", "p", "flagged"],
            rows,
            [comparison["measures"][name]["flagged"] for name in names],
        )
    )
    return "\n".join(parts)


def report_html(data: dict) -> str:
    """The whole page for this report data."""
    settings = data["settings"]
    title = " vs ".join(e["id"] for e in data["editions"])
    parts = [
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>boom simulate: {escape(title)}</title>',
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Balance report: {escape(title)}</h1>",
        f"<p>{settings['games']} games, {settings['players']} players, seats {escape(', '.join(settings['seats']))} "
        f"(rotated every game), seed {settings['seed']}.</p>",
        _table(["edition", "file", "sha256"], [[e["id"], e["file"], e["sha256"]] for e in data["editions"]]),
    ]
    if "comparison" in data:
        parts.append(_comparison_section(data))
    for title_text, png in all_plots(data["figures"]).items():
        parts.append(f'<h2>{escape(title_text)}</h2><img alt="{escape(title_text)}" src="data:image/png;base64,{png}">')
    names = ["Base edition", "Variant"] if len(data["figures"]) == 2 else ["Edition"]
    for name, figures in zip(names, data["figures"], strict=True):
        parts.append(_edition_section(figures, name))
    versions = ", ".join(f"{k} {v}" for k, v in data["versions"].items())
    parts.append(f"<p><small>{escape(versions)}</small></p></body></html>")
    return "\n".join(parts) + "\n"
