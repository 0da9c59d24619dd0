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
    return [
        f["edition"] if i == 0 or f["edition"] != figures[0]["edition"] else f"{f['edition']} (2)"
        for i, f in enumerate(figures)
    ]


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
        ax.set_title(key, fontsize=10)
        ax.tick_params(labelsize=8)
    axes.flat[0].legend(fontsize=7)
    figure.subplots_adjust(hspace=0.5)
    figure.suptitle("Points per seat and game (share of seat-games)", fontsize=11)
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
    ax.axhline(figures[0]["parity"], color="grey", linestyle="--", linewidth=1, label="parity")
    ax.set_xticks([p + width * (len(figures) - 1) / 2 for p in range(len(figures[0]["win_rate_by_position"]))])
    ax.set_xticklabels([f"seat {p + 1}" for p in range(len(figures[0]["win_rate_by_position"]))])
    ax.set_ylabel("win rate (95% CI)")
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
    ax.set_xticklabels(keys, rotation=20, fontsize=8)
    ax.set_ylabel("share of all points")
    ax.legend(fontsize=7)
    return _png(figure)


def lead_changes(figures: list) -> str:
    """Lead changes per game (editions scored round by round only: a flow edition scores at game end)."""
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


def all_plots(figures: list) -> dict:
    """Every plot of the report: title -> base64 PNG."""
    plots = {
        "Score distributions per category": score_distributions(figures),
        "Win rate by seat position": win_rate_by_position(figures),
        "Category shares": category_shares(figures),
    }
    if all("lead_changes" in edition for edition in figures):
        plots["Lead changes"] = lead_changes(figures)
    return plots
