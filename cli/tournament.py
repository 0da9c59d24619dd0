"""`boom tournament`: bots against bots over many games, win rates with 95% confidence intervals."""

from __future__ import annotations

import json

import click

from rulesengine.bots.registry import BOTS, SEARCHING, bot_options

from .common import (
    SEED,
    InputFile,
    budget_seconds,
    handles_errors,
    jobs_for,
    jobs_option,
    search_budget_options,
    seat_kinds,
    text_console,
)


def parse_seats(texts) -> list[str]:
    """The line-up from --seats a,b,c, or --seat a --seat b (both forms, as in `boom run`)."""
    kinds = seat_kinds([texts] if isinstance(texts, str) else texts, list(BOTS), "--seats", budgets=True)
    if not kinds:
        raise click.BadParameter("name at least one bot", param_hint="--seats")
    return kinds


def result_table(result):
    """The tournament's result (bots.tournament.Tournament) as a rich Table."""
    from rich.table import Table

    table = Table(
        title=f"{result.edition}: {result.games} games, seats rotated, seed {result.seed}", title_justify="left"
    )
    for column, justify in (
        ("seat", "left"),
        ("bot", "left"),
        ("wins", "right"),
        ("win rate", "right"),
        ("95% CI", "right"),
        ("mean points", "right"),
    ):
        table.add_column(column, justify=justify)
    for entry in result.entries:
        low, high = entry.interval
        table.add_row(
            str(entry.position + 1),
            entry.kind,
            f"{entry.wins:g}",
            f"{entry.rate:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{entry.mean_points:.1f}",
        )
    parity = 1 / len(result.entries)
    table.caption = (f"parity {parity:.1%}; {result.games_per_second:.2f} games/s ({result.seconds:.1f} s); "
                     f"played by {result.played_by}")
    return table


@click.command()
@click.argument("file", type=InputFile(edition=True))
@click.option(
    "--seats",
    "--seat",
    "seats_text",
    required=True,
    multiple=True,
    metavar="BOT[,BOT...]",
    help="The line-up, one bot per seat: greedy,random,random,random, or --seat greedy --seat random ... "
    "(bots: " + ", ".join(BOTS) + "; a searching bot with its own budget: blend:40, search:40, ismcts:100).",
)
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True, help="Number of games.")
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Seed of the first game, 0 or more; game g uses seed + g."
)
@search_budget_options
@jobs_option
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def tournament(file, seats_text, games, seed, search_rollouts, search_seconds, think, jobs, output):
    """Play bots against each other and print their win rates (a benchmark, not a test)."""
    # imported here, not at the top: `boom tournament --help` starts without the engine and the bots
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from rulesengine.bots.tournament import run_tournament

    kinds = parse_seats(seats_text)
    seconds = budget_seconds(search_seconds, think)
    options = {kind: bot_options(kind, search_rollouts, seconds) for kind in SEARCHING}
    console = text_console(stderr=output == "json")
    jobs = jobs_for(jobs, games)
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=text_console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task(f"{', '.join(kinds)}", total=games)
        result = run_tournament(
            file, kinds, games, seed, options, jobs, on_game=lambda done: progress.advance(task, done)
        )
    if output == "json":
        click.echo(json.dumps(result.as_dict(), indent=2))
        return
    console.print(result_table(result))
