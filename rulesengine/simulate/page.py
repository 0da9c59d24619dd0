"""report.html: one self-contained page (inline style, plots inlined as base64 PNG), readable offline.

It renders the report's data only, so the page says nothing report.json does not; every text from
the editions is escaped. It loads nothing from the network.
"""

from __future__ import annotations

from html import escape

from .plots import all_plots
from .words import amount, change, describe_change, measure_rows, p_value

STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.flag { background: #fde2c8; font-weight: bold; }
.verdict { background: #eef4fb; border-left: 4px solid #3b6ea8; padding: 0.6em 1em; font-size: 1.05em; }
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


def _correlation(category: dict) -> str:
    r, interval = category["with_winning"], category.get("with_winning_ci95")
    if r is None:
        return ""
    return f"{r:+.2f}" + (f" ({interval[0]:+.2f} to {interval[1]:+.2f})" if interval else "")


def _edition_section(figures: dict, title: str, name: str) -> str:
    parts = [f"<h2>{escape(title)}: {escape(name)}</h2>"]
    rows = []
    for key, category in figures["categories"].items():
        points = category["points"]
        quantiles = points["quantiles"]
        rows.append(
            [
                category.get("title", key),
                category["kind"],
                f"{points['mean']:.2f}",
                f"{points['sd']:.2f}",
                f"{quantiles.get('p5', '')}–{quantiles.get('p95', '')}",
                "not counted" if category["share"]["mean"] is None else f"{category['share']['mean']:.1%}",
                _correlation(category),
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
    parts.append(_table(["sheet line", "kind", "mean", "sd", "5%–95%", "share of points", "r(win) (95% CI)"], rows))
    parts.append("<h3>The game</h3>")
    parts.append(_table(["measure", "value", "95% CI"], [list(row) for row in measure_rows(figures)]))
    parts.append("<h3>Who wins</h3>")
    rows = [[f"seat {i + 1}", _pct(r)] for i, r in enumerate(figures["win_rate_by_position"])]
    rows += [[f"line-up entry {i + 1} ({r['kind']})", _pct(r)] for i, r in enumerate(figures["win_rate_by_seat"])]
    parts.append(_table(["", f"share of the wins, 95% CI (fair share {figures['parity']:.1%})"], rows))
    ties, titles = figures["ties"], {key: c.get("title", key) for key, c in figures["categories"].items()}
    rows = [[f"tie decided by {titles.get(key, key)}", _pct(r)] for key, r in ties["decided_by"].items()]
    if figures["kind"] == "holdings":
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
        rows = [
            [f"{letter} {c.get('name', '')}", str(c["captured_by"]), _pct(c["capturers_win"])]
            for letter, c in figures["cards"].items()
        ]
        parts.append(_table(["card", "captured (games)", "win rate of its capturers"], rows))
        return "\n".join(parts)
    for key, race in figures["races"].items():
        by_round = ", ".join(f"round {r}: {count}" for r, count in race["awards_by_round"].items())
        rows.append([f"{race.get('title', key)}: games awarded", f"{_pct(race['games_awarded'])}; {by_round}"])
    parts.append(_table(["", ""], rows))
    parts.append("<h3>Cards</h3>")
    rows = [
        [
            f"{letter} {c.get('name', '')}",
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
    first, second = (e["name"] for e in data["editions"])
    measures = comparison["measures"]
    parts = [
        f"<h2>Paired comparison: {escape(second)} against {escape(first)} ({comparison['games']} paired games)</h2>",
        f"<p>Test: {escape(comparison['test'])}. A change is one a player would notice when the test flags it "
        "and it is at least the threshold of its row (docs/simulate.md, “Practical thresholds”).</p>",
    ]
    if comparison["noticeable"]:
        parts.append(
            "<p>Changes a player would notice:</p><ul>"
            + "".join(f"<li>{escape(describe_change(name, measures[name]))}</li>" for name in comparison["noticeable"])
            + "</ul>"
        )
    else:
        parts.append("<p>No change a player would notice.</p>")
    names = list(measures)
    rows = [
        [
            m["title"],
            amount(name, m["first"]),
            amount(name, m["second"]),
            change(name, m["difference"]),
            f"{change(name, m['ci95'][0]).split()[0]} to {change(name, m['ci95'][1]).split()[0]}",
            p_value(m["p"]),
            change(name, m["threshold"]).lstrip("+"),
            "yes" if m["flagged"] else "",
            "yes" if m["noticeable"] else "",
        ]
        for name, m in measures.items()
    ]
    parts.append(
        _table(
            ["measure", first, second, "difference", "95% CI", "p", "noticeable from", "flagged", "a player notices"],
            rows,
            [measures[name]["noticeable"] for name in names],
        )
    )
    return "\n".join(parts)


def _skill_section(data: dict) -> str:
    parts = ["<h2>Skill and chance</h2>"]
    if "skill_depth" in data:
        depth = data["skill_depth"]
        parts.append(
            f"<p>Skill depth: {depth['depth']} of {len(depth['rungs'])} rungs beat the one below "
            f"({depth['games_per_rung']} games a rung, one bot of the upper rung among bots of the lower).</p>"
        )
        rows = [
            [
                f"{r['upper']} over {r['lower']}",
                _pct(r["win_rate"]),
                f"{r['parity']:.1%}",
                "yes" if r["beats"] else "no",
            ]
            for r in depth["rungs"]
        ]
        parts.append(_table(["rung", "share of the wins, 95% CI", "fair share", "beats the rung below"], rows))
    if "chance" in data:
        chance = data["chance"]
        rows = [
            [
                title,
                "" if chance[key]["share"] is None else f"{chance[key]['share']:.1%}",
                "" if chance[key]["ci95"] is None else f"{chance[key]['ci95'][0]:.1%}–{chance[key]['ci95'][1]:.1%}",
            ]
            for key, title in (("wins", "who wins"), ("score", "the final score"))
        ]
        parts.append(
            f"<p>Chance against skill: {chance['deals']} deals, each played once per seat by identical "
            f"{escape(chance['bots'])} bots turned around the table.</p>"
        )
        parts.append(_table(["share of the variance explained by the deal", "share", "95% CI"], rows))
    return "\n".join(parts)


def report_html(data: dict) -> str:
    """The whole page for this report data."""
    settings = data["settings"]
    title = " against ".join(e["name"] for e in reversed(data["editions"]))
    verdict = "".join(f"<p>{escape(sentence['text'])}</p>" for sentence in data["verdict"])
    parts = [
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>boom simulate: {escape(title)}</title>',
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Balance report: {escape(title)}</h1>",
        f'<div class="verdict"><h2>Verdict</h2>{verdict}</div>',
        f"<p>{settings['games']} games, {settings['players']} players, seats {escape(', '.join(settings['seats']))} "
        f"(rotated every game), seed {settings['seed']}.</p>",
        _table(["edition", "file", "sha256"], [[e["id"], e["file"], e["sha256"]] for e in data["editions"]]),
    ]
    if "comparison" in data:
        parts.append(_comparison_section(data))
    if "skill_depth" in data or "chance" in data:
        parts.append(_skill_section(data))
    for title_text, png in all_plots(data["figures"]).items():
        parts.append(f'<h2>{escape(title_text)}</h2><img alt="{escape(title_text)}" src="data:image/png;base64,{png}">')
    names = ["Base edition", "Variant"] if len(data["figures"]) == 2 else ["Edition"]
    for name, figures, edition in zip(names, data["figures"], data["editions"], strict=True):
        parts.append(_edition_section(figures, name, edition["name"]))
    versions = ", ".join(f"{k} {v}" for k, v in data["versions"].items())
    parts.append(f"<p><small>{escape(versions)}</small></p></body></html>")
    return "\n".join(parts) + "\n"
