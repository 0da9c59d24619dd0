"""The report's pictures: matplotlib on the Agg backend, each figure as PNG bytes in base64.

It draws from the report's data only (never from games or tallies), needs no display, and keeps
no figure open after drawing it.
"""

from __future__ import annotations

import base64
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = ("#3b6ea8", "#d0763a")
DPI = 80


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _labels(figures: list) -> list[str]:
    names = [f.get("name", f["edition"]) for f in figures]
    return [name if i == 0 or name != names[0] else f"{name} (2)" for i, name in enumerate(names)]


def _title(figures: list, key: str) -> str:
    return "total" if key == "total" else figures[0]["categories"][key].get("title", key)


def score_distributions(figures: list) -> str:
    """One small histogram per category and for the total, editions overlaid."""
    keys = [*figures[0]["categories"], "total"]
    columns = 3
    rows = (len(keys) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(4 * columns, 2.6 * rows), squeeze=False)
    for ax in axes.flat[len(keys) :]:
        ax.set_visible(False)
    for ax, key in zip(axes.flat, keys, strict=False):
        for index, (label, edition) in enumerate(zip(_labels(figures), figures, strict=True)):
            described = edition["total"] if key == "total" else edition["categories"].get(key, {}).get("points")
            if not described or not described["histogram"]:
                continue
            values = [v for v, _ in described["histogram"]]
            counts = [c / described["n"] for _, c in described["histogram"]]
            ax.step(values, counts, where="mid", color=COLOURS[index % 2], label=label)
        ax.set_title(_title(figures, key), fontsize=10)
        ax.tick_params(labelsize=8)
    axes.flat[0].legend(fontsize=7)
    figure.subplots_adjust(hspace=0.5)
    figure.suptitle("Points a player scores on each line in a game (share of player-games)", fontsize=11)
    return _png(figure)


def win_rate_by_position(figures: list) -> str:
    figure, ax = plt.subplots(figsize=(6, 3.2))
    width = 0.8 / len(figures)
    for index, (label, edition) in enumerate(zip(_labels(figures), figures, strict=True)):
        rates = edition["win_rate_by_position"]
        xs = [p + index * width for p in range(len(rates))]
        heights = [r["rate"] for r in rates]
        errors = [[r["rate"] - r["ci95"][0] for r in rates], [r["ci95"][1] - r["rate"] for r in rates]]
        ax.bar(xs, heights, width, yerr=errors, capsize=3, color=COLOURS[index % 2], label=label)
    ax.axhline(figures[0]["parity"], color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks([p + width * (len(figures) - 1) / 2 for p in range(len(figures[0]["win_rate_by_position"]))])
    ax.set_xticklabels([f"seat {p + 1}" for p in range(len(figures[0]["win_rate_by_position"]))])
    ax.set_ylabel("share of the wins (95% CI)")
    ax.legend(fontsize=7)
    return _png(figure)


def category_shares(figures: list) -> str:
    keys = list(figures[0]["categories"])
    figure, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / len(figures)
    for index, (label, edition) in enumerate(zip(_labels(figures), figures, strict=True)):
        shares = [edition["categories"].get(key, {}).get("share", {}).get("mean", 0) or 0 for key in keys]
        ax.bar([k + index * width for k in range(len(keys))], shares, width, color=COLOURS[index % 2], label=label)
    ax.set_xticks([k + width * (len(figures) - 1) / 2 for k in range(len(keys))])
    ax.set_xticklabels([_title(figures, key) for key in keys], rotation=20, fontsize=8)
    ax.set_ylabel("share of all points")
    ax.legend(fontsize=7)
    return _png(figure)


def lead_changes(figures: list) -> str:
    """Lead changes per game (editions scored round by round only: one scored over holdings scores at game end)."""
    figure, ax = plt.subplots(figsize=(6, 3.2))
    width = 0.8 / len(figures)
    for index, (label, edition) in enumerate(zip(_labels(figures), figures, strict=True)):
        described = edition["lead_changes"]
        ax.bar(
            [v + index * width for v, _ in described["histogram"]],
            [c / described["n"] for _, c in described["histogram"]],
            width,
            color=COLOURS[index % 2],
            label=label,
        )
    most = max((v for edition in figures for v, _ in edition["lead_changes"]["histogram"]), default=0)
    ax.set_xticks([v + width * (len(figures) - 1) / 2 for v in range(most + 1)])
    ax.set_xticklabels([str(v) for v in range(most + 1)])
    ax.set_xlabel("lead changes in a game")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=7)
    return _png(figure)


def with_winning(figures: list) -> str:
    """Each line's correlation with winning, with its 95% interval: a line far above the others decides games."""
    keys = [key for key in figures[0]["categories"] if figures[0]["categories"][key]["with_winning"] is not None]
    figure, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / len(figures)
    for index, (label, edition) in enumerate(zip(_labels(figures), figures, strict=True)):
        lines = [edition["categories"].get(key, {}) for key in keys]
        rs = [line.get("with_winning") or 0.0 for line in lines]
        intervals = [line.get("with_winning_ci95") or [r, r] for line, r in zip(lines, rs, strict=True)]
        errors = [
            [r - i[0] for r, i in zip(rs, intervals, strict=True)],
            [i[1] - r for r, i in zip(rs, intervals, strict=True)],
        ]
        xs = [k + index * width for k in range(len(keys))]
        ax.bar(xs, rs, width, yerr=errors, capsize=3, color=COLOURS[index % 2], label=label)
    ax.axhline(0, color="grey", linewidth=1)
    ax.set_xticks([k + width * (len(figures) - 1) / 2 for k in range(len(keys))])
    ax.set_xticklabels([_title(figures, key) for key in keys], rotation=20, fontsize=8)
    ax.set_ylabel("r(win), 95% CI")
    ax.legend(fontsize=7)
    return _png(figure)


def all_plots(figures: list) -> dict:
    """Every plot of the report: its title in the players' words -> base64 PNG."""
    plots = {
        "Where the points come from": category_shares(figures),
        "What goes with winning: each line's correlation with the win": with_winning(figures),
        "Who wins: the share of the wins by seat": win_rate_by_position(figures),
        "How many points each line gives a player": score_distributions(figures),
    }
    if all("lead_changes" in edition for edition in figures):
        plots["How often the lead changes hands"] = lead_changes(figures)
    return plots
