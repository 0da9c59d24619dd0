"""`boom simulate`: thousands of bot games of an edition, or of a variant against its base, in figures."""

from __future__ import annotations

import json
import os

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from rulesengine.bots.registry import BOTS

from .common import handles_errors, seat_kinds, text_console


def parse_seats(text: str | None, players: int | None) -> tuple[str, ...]:
    """The line-up: the kinds given, then random bots up to --players."""
    kinds = seat_kinds([text or ""], list(BOTS), "--seats")
    if players is None:
        if not kinds:
            raise click.UsageError("give --players, or one seat kind per player with --seats")
        return tuple(kinds)
    if len(kinds) > players:
        raise click.BadParameter(f"{len(kinds)} seats given for {players} players", param_hint="--seats")
    return tuple(kinds) + ("random",) * (players - len(kinds))


def summary_table(figures: dict) -> tuple[Table, str]:
    table = Table(title=f"{figures['edition']}: {figures['games']} games", title_justify="left")
    for column in ("sheet line", "mean", "sd", "share", "r(win)"):
        table.add_column(column, justify="left" if column == "sheet line" else "right")
    for key, category in figures["categories"].items():
        r = category["with_winning"]
        table.add_row(
            key,
            f"{category['points']['mean']:.2f}",
            f"{category['points']['sd']:.2f}",
            f"{category['share']['mean']:.1%}",
            "-" if r is None else f"{r:+.2f}",
        )
    table.add_row("total", f"{figures['total']['mean']:.2f}", f"{figures['total']['sd']:.2f}", "100%", "")
    wins = ", ".join(
        f"{r['rate']:.1%} ({r['ci95'][0]:.0%}–{r['ci95'][1]:.0%})" for r in figures["win_rate_by_position"]
    )
    wins += "; by line-up entry: " + ", ".join(f"{r['kind']} {r['rate']:.1%}" for r in figures["win_rate_by_seat"])
    ties = figures["ties"]
    line = (
        f"win rate by seat position: {wins}; margin {figures['winning_margin']['mean']:.1f}; "
        f"ties {ties['games_tied']['rate']:.1%}; "
    )
    if figures["kind"] == "flow":
        kept = "".join(
            f"; {stock} kept {v['mean']:.2f}/player (sd {v['sd']:.2f}, by the winner {v['by_winner']:.2f})"
            for stock, v in figures["kept"].items()
        )
        return table, line + f"rounds played {figures['rounds_played']['mean']:.2f}/game{kept}"
    leads = figures["lead_changes"]
    return table, line + (
        f"lead changes {leads['mean']:.2f}/game; late leader loses {leads['that_leader_loses']['rate']:.1%}"
    )


@click.command()
@click.argument("editions", nargs=-1, required=True, type=click.Path(dir_okay=False), metavar="EDITION [EDITION2]")
@click.option("--players", "-p", type=int, default=None, help="Number of seats (default: one per --seats entry).")
@click.option(
    "--games",
    "-n",
    type=int,
    default=1000,
    show_default=True,
    help="Number of games (each edition plays the same ones).",
)
@click.option(
    "--seats",
    "seats_text",
    default=None,
    help="The line-up, rotated every game: e.g. greedy,random (kinds: "
    + ", ".join(BOTS)
    + "); seats not given are random bots.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Seed of the run; each game's seed derives from it and the game's index.",
)
@click.option(
    "--jobs", "-j", type=click.IntRange(1), default=None, help="Local worker processes (default: the number of CPUs)."
)
@click.option(
    "--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True, help="Where the games run."
)
@click.option(
    "--address", default=None, help="Ray: the cluster to join ('auto' for the running one; default: start a local one)."
)
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write report.json and report.html here.",
)
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def simulate(editions, players, games, seats_text, seed, jobs, backend, address, report_dir, output):
    """Play many bot games of EDITION (and of EDITION2 on the same seeds and seats) and report the balance."""
    # imported here, not at the top: `boom` starts without loading what only this command needs
    from rulesengine.simulate import Settings, SettingsError, report_data, run_simulation, write_report
    from rulesengine.simulate.report import check_report_folder

    if len(editions) > 2:
        raise click.UsageError(f"give one edition, or a base and its variant, not {len(editions)}")
    if games < 1:
        raise click.BadParameter(f"play at least one game, not {games}", param_hint="--games")
    if players is not None and not 1 <= players <= 12:
        raise click.BadParameter(f"{players} is not a number of players from 1 to 12", param_hint="--players")
    kinds = parse_seats(seats_text, players)
    jobs = min(jobs or os.cpu_count() or 1, games)
    settings = Settings(tuple(editions), kinds, games, seed)
    console = text_console(stderr=output == "json")
    try:
        if report_dir is not None:
            check_report_folder(report_dir)
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            console=text_console(stderr=True),
            transient=True,
        ) as progress:
            task = progress.add_task(", ".join(kinds), total=games, rate="")

            def advance(done: int) -> None:
                progress.advance(task, done)
                elapsed = progress.tasks[0].elapsed or 0
                progress.update(task, rate=f"{progress.tasks[0].completed / elapsed:,.0f} games/s" if elapsed else "")

            simulation = run_simulation(settings, jobs, backend, address, on_games=advance)
    except SettingsError as exc:
        raise (
            click.BadParameter(str(exc), param_hint=exc.option) if exc.option else click.UsageError(str(exc))
        ) from None
    data = report_data(simulation)
    if report_dir is not None:
        write_report(simulation, report_dir)
    if output == "json":
        click.echo(json.dumps(data, indent=1, ensure_ascii=False))
        return
    for figures in data["figures"]:
        table, line = summary_table(figures)
        console.print(table)
        console.print(line)
    if "comparison" in data:
        flagged = data["comparison"]["flagged"]
        console.print(
            f"{data['figures'][1]['edition']} against {data['figures'][0]['edition']} "
            f"({data['comparison']['games']} paired games): "
            + ("no meaningful difference" if not flagged else f"{len(flagged)} meaningful differences")
        )
        for line in flagged:
            console.print(f"  {line}")
    where = f"; report in {report_dir}" if report_dir else ""
    console.print(
        f"{games} games in {simulation.seconds:.1f} s ({simulation.games_per_second:,.0f} games/s, "
        f"{backend}, {jobs if backend == 'local' else 'ray'} jobs){where}"
    )
