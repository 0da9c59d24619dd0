"""`boom ladder`: the bots' strength ladder of an edition, each rung against the one below and against greedy bots."""

from __future__ import annotations

import json
import sys

import click

from .common import (
    SEED,
    InputFile,
    check_think,
    handles_errors,
    jobs_for,
    jobs_option,
    list_values,
    text_console,
    written,
)


def parse_rungs(values) -> tuple[str, ...] | None:
    """--rungs: seat kinds, weakest first (search:N, blend:N, ismcts:N, guided:N for a budget); None: the edition's
    default."""
    from rulesengine.bots.registry import BOTS
    from rulesengine.simulate.games import bot_kind

    rungs = tuple(list_values(values))
    if not rungs:
        return None
    for rung in rungs:
        try:
            bot_kind(rung)
        except ValueError:
            raise click.BadParameter(
                f"unknown rung '{rung}' (kinds: {', '.join(BOTS)}; search:N or blend:N rollouts, ismcts:N or guided:N "
                f"iterations)",
                param_hint="--rungs",
            ) from None
    return rungs


@click.command()
@click.argument("file", type=InputFile(edition=True))
@click.option("--rungs", "--rung", "rungs_text", multiple=True, metavar="KIND[,KIND...]",
              help="The rungs, weakest first (default: random,greedy1,greedy,search,guided:25,guided; "
              "the 2010 game: random,greedy,search,ismcts:400,ismcts:1000).")
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True,
              help="Deals of each paired match (each played once a seat) and games of each rung against greedy bots.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The run's seed: it fixes every game.")
@click.option("--think", type=float, callback=check_think, default=None, metavar="MS",
              help="Searching bots stop at MS milliseconds a pick instead of their budget (not reproducible).")
@jobs_option
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              help="Write report.json, report.txt and report.html here (the page's plot needs the report extra).")
@click.option("--journal", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Keep each finished shard of games in FILE; the same command run again with it goes on where an "
              "interrupted ladder stopped (its games are not played again).")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def ladder(file, rungs_text, games, seed, think, jobs, report_dir, journal, output):
    """Measure the bots' strength ladder of EDITION, each rung against the one below and against greedy bots.

    Ratings are Elo-style, from paired games against the rung below; every rate has its 95% interval."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from rulesengine.simulate import SettingsError
    from rulesengine.simulate.ladder import run_ladder
    from rulesengine.simulate.ladder_journal import JournalError
    from rulesengine.simulate.ladder_report import text, write
    from rulesengine.simulate.report import check_report_folder, missing_plotting

    if report_dir is not None and missing_plotting():   # one line, before any game: what to install
        click.echo(f"error: {missing_plotting()}", err=True)
        sys.exit(2)
    rungs = parse_rungs(rungs_text)
    try:
        if report_dir is not None:
            check_report_folder(report_dir)
        with Progress(TextColumn("ladder"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=text_console(stderr=True), transient=True) as progress:
            task = progress.add_task("ladder", total=None)
            data = run_ladder(str(file), rungs, games, seed, jobs_for(jobs, games), think,
                              on_games=lambda done: progress.advance(task, done), journal=journal)
    except JournalError as exc:
        raise click.BadParameter(str(exc), param_hint="--journal") from None
    except KeyboardInterrupt:
        kept = (f"the finished shards are kept in {journal}: run the same command to go on" if journal else
                "nothing kept (--journal FILE keeps a ladder's finished games)")
        click.echo(f"interrupted: {kept}", err=True)
        sys.exit(130)
    except SettingsError as exc:
        raise (click.BadParameter(str(exc), param_hint=exc.option) if exc.option
               else click.UsageError(str(exc))) from None
    if report_dir is not None:
        for path in write(data, report_dir):
            written("report", path)
    if output == "json":
        click.echo(json.dumps(data, indent=1, ensure_ascii=False))
        return
    click.echo(text(data), nl=False)
