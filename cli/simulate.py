"""`boom simulate`: thousands of bot games of an edition, or of a variant against its base, in figures."""

from __future__ import annotations

import json
import sys

import click

from rulesengine.bots.registry import BOTS
from rulesengine.escaping import one_line

from .common import (
    PLAYERS_HELP,
    SEED,
    InputFile,
    Players,
    handles_errors,
    jobs_for,
    jobs_option,
    seat_kinds,
    seat_option_option,
    seat_options_given,
    text_console,
)


def parse_seats(texts, players: int | None) -> tuple[str, ...]:
    """The line-up: the kinds given (--seats a,b or --seat a --seat b), then random bots up to --players."""
    kinds = seat_kinds([texts] if isinstance(texts, str) else texts or (), list(BOTS), "--seats", budgets=True)
    if players is None:
        if not kinds:
            raise click.UsageError("give --players, or one seat kind per player with --seats")
        return tuple(kinds)
    if len(kinds) > players:
        raise click.BadParameter(f"{len(kinds)} seats given for {players} players", param_hint="--seats")
    return tuple(kinds) + ("random",) * (players - len(kinds))


def summary_table(figures: dict) -> tuple:
    """One edition's sheet lines, then the game's measures, then who wins, in the players' words
    (two rich Tables and a line)."""
    from rich.table import Table

    from rulesengine.simulate.words import measure_rows

    name = figures.get("name", figures["edition"])
    table = Table(title=f"{name}: {figures['games']} games", title_justify="left")
    for column in ("sheet line", "mean", "sd", "share of points", "r(win)", "r(win) 95% CI"):
        table.add_column(column, justify="left" if column == "sheet line" else "right")
    for key, category in figures["categories"].items():
        r, interval = category["with_winning"], category.get("with_winning_ci95")
        table.add_row(
            category.get("title", key),
            f"{category['points']['mean']:.2f}",
            f"{category['points']['sd']:.2f}",
            "not counted" if category["share"]["mean"] is None else f"{category['share']['mean']:.1%}",
            "-" if r is None else f"{r:+.2f}",
            "" if interval is None else f"{interval[0]:+.2f} to {interval[1]:+.2f}",
        )
    table.add_row("total", f"{figures['total']['mean']:.2f}", f"{figures['total']['sd']:.2f}", "100%", "", "")
    measures = Table(title="The game", title_justify="left")
    for column in ("measure", "value", "95% CI"):
        measures.add_column(column, justify="left" if column == "measure" else "right")
    for row in measure_rows(figures):
        measures.add_row(*row)
    wins = ", ".join(
        f"seat {seat + 1} {r['rate']:.1%} ({r['ci95'][0]:.1%} to {r['ci95'][1]:.1%})"
        for seat, r in enumerate(figures["win_rate_by_position"])
    )
    line = f"Share of the wins (fair share {figures['parity']:.1%}): {wins}; by line-up entry: " + ", ".join(
        f"{r['kind']} {r['rate']:.1%}" for r in figures["win_rate_by_seat"]
    )
    if figures["kind"] == "holdings":
        line += f"; rounds played {figures['rounds_played']['mean']:.2f}/game" + "".join(
            f"; {stock} kept {v['mean']:.2f}/player (sd {v['sd']:.2f}, by the winner {v['by_winner']:.2f})"
            for stock, v in figures["kept"].items()
        )
    return table, measures, line


def parse_ladder(text: str) -> tuple[str, ...]:
    """--ladder: bot kinds, weakest first; a search bot's rollouts as search:N."""
    from rulesengine.simulate.games import bot_kind

    rungs = tuple(k.strip() for k in text.split(",") if k.strip())
    for rung in rungs:
        try:
            bot_kind(rung)
        except ValueError:
            raise click.BadParameter(
                f"unknown rung '{rung}' (kinds: {', '.join(BOTS)}; search:N for N rollouts)", param_hint="--ladder"
            ) from None
    if len(rungs) < 2:
        raise click.BadParameter("a ladder has two rungs or more, weakest first", param_hint="--ladder")
    return rungs


def skill_lines(data: dict) -> list[str]:
    """Skill depth and chance, when measured, as lines of text."""
    lines = []
    if "skill_depth" in data:
        depth = data["skill_depth"]
        lines.append(
            f"Skill depth {depth['depth']} ({depth['games_per_rung']} games a rung; one upper bot among lower ones):"
        )
        for rung in depth["rungs"]:
            won = rung["win_rate"]
            lines.append(
                f"  {rung['upper']} over {rung['lower']}: {won['rate']:.1%} of the wins "
                f"(95% CI {won['ci95'][0]:.1%} to {won['ci95'][1]:.1%}; fair share {rung['parity']:.1%})"
                + (" beats it" if rung["beats"] else " does not beat it")
            )
    if "chance" in data:
        chance = data["chance"]
        for what, title in (("wins", "who wins"), ("score", "the final score")):
            found = chance[what]
            if found["share"] is not None:
                lines.append(
                    f"Chance: the deal explains {found['share']:.1%} of {title} (95% CI {found['ci95'][0]:.1%} to "
                    f"{found['ci95'][1]:.1%}; {chance['deals']} deals, each played by {chance['bots']} bots turned "
                    "through every seat)"
                )
    return lines


def print_comparison(console, data: dict) -> None:
    """The paired differences a player would notice, then those only the test sees."""
    from rulesengine.simulate.words import describe_change

    comparison = data["comparison"]
    names = [edition["name"] for edition in data["editions"]]
    noticeable, measures = comparison["noticeable"], comparison["measures"]
    console.print(
        f"{names[1]} against {names[0]} ({comparison['games']} paired games): "
        + (f"{len(noticeable)} changes a player would notice" if noticeable else "no change a player would notice"),
        highlight=False,
    )
    for name in noticeable:
        console.print(f"  {describe_change(name, measures[name])}", highlight=False)
    quiet = [name for name in measures if measures[name]["flagged"] and not measures[name]["noticeable"]]
    if quiet:
        console.print(f"Found by the test but below what a player notices ({len(quiet)}):", highlight=False)
        for name in quiet:
            console.print(f"  {describe_change(name, measures[name])}", highlight=False)


@click.command()
@click.argument("editions", nargs=-1, required=True, type=InputFile(edition=True), metavar="EDITION [EDITION2]")
@click.option(
    "--players", "-p", type=Players(), default=None, help=PLAYERS_HELP + " Default: one per --seats entry."
)
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
    "--seat",
    "seats_text",
    multiple=True,
    metavar="BOT[,BOT...]",
    help="The line-up, rotated every game: repeat it or give a list, e.g. greedy,random (kinds: "
    + ", ".join(BOTS)
    + "; a searching bot's budget as blend:40, search:40, ismcts:100); seats not given are random bots.",
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed of the run, 0 or more; each game's seed derives from it and the game's index.",
)
@jobs_option
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
@click.option(
    "--depth",
    is_flag=True,
    help="Also measure skill depth: each rung of --ladder against the one below (--games games a rung).",
)
@click.option(
    "--ladder",
    default="random,greedy,search:40,search:160",
    show_default=True,
    help="The bot ladder of --depth, weakest first (search:N is a search bot of N rollouts).",
)
@click.option(
    "--chance",
    is_flag=True,
    help="Also measure chance against skill: --games / players deals, each played once per seat with the "
    "bots turned, by the first --seats kind in every seat.",
)
@click.option(
    "--engine",
    is_flag=True,
    help="Play every game through the engine, even where the batch simulator would (numpy): with random seats "
    "the same figures, slower; with greedy seats the same policy with the engine's own random draws.",
)
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@seat_option_option
@handles_errors
def simulate(
    editions, players, games, seats_text, seed, jobs, backend, address, depth, ladder, chance, report_dir, engine,
    output, seat_options
):
    """Play many bot games of EDITION (and of EDITION2 on the same seeds and seats) and report the balance."""
    # imported here, not at the top: `boom` and `boom simulate --help` start without what only a run needs
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    from rulesengine.game.outputs import lock_outputs
    from rulesengine.simulate import Settings, SettingsError, report_data, run_simulation, write_report
    from rulesengine.simulate.depth import chance_and_skill, skill_depth
    from rulesengine.simulate.report import check_report_folder, missing_plotting, report_files

    if report_dir is not None and missing_plotting():   # one line, before any game: what to install
        click.echo(f"error: {missing_plotting()}", err=True)
        sys.exit(2)
    if len(editions) > 2:
        raise click.UsageError(f"give one edition, or a base and its variant, not {len(editions)}")
    if games < 1:
        raise click.BadParameter(f"play at least one game, not {games}", param_hint="--games")
    kinds = parse_seats(seats_text, players)
    rungs = parse_ladder(ladder) if depth else ()
    jobs = jobs_for(jobs, games)
    table = seat_options_given(seat_options)   # the seats are P1, P2...: checked against the editions when loaded
    if table and (depth or chance):
        raise click.UsageError("--seat-option sets the games of the line-up; --depth and --chance play every seat "
                               "option at its default: measure them in another run")
    settings = Settings(tuple(editions), kinds, games, seed, table)
    console = text_console(stderr=output == "json")
    held = []  # report.json and report.html, locked from the check until written
    try:
        if report_dir is not None:
            check_report_folder(report_dir)
            held = lock_outputs(*report_files(report_dir))
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

            simulation = run_simulation(settings, jobs, backend, address, on_games=advance, engine=engine)
            extra = {}
            if depth:
                progress.update(task, description="skill depth", completed=0, total=games * (len(rungs) - 1))
                extra["skill_depth"] = skill_depth(
                    editions[-1], len(kinds), rungs, games, seed, jobs, backend, address, advance
                )
            if chance:
                deals = max(1, games // len(kinds))
                progress.update(task, description="chance", completed=0, total=deals * len(kinds))
                extra["chance"] = chance_and_skill(
                    editions[-1], kinds[0], len(kinds), deals, seed, jobs, backend, address, advance
                )
        data = report_data(simulation, extra, with_versions=output == "json")
        if report_dir is not None:
            write_report(simulation, report_dir, extra)
    except SettingsError as exc:
        raise (
            click.BadParameter(str(exc), param_hint=exc.option) if exc.option else click.UsageError(str(exc))
        ) from None
    finally:
        for lock in held:
            lock.release()
    if output == "json":
        click.echo(json.dumps(data, indent=1, ensure_ascii=False))
        return
    console.print("Verdict", style="bold")
    for sentence in data["verdict"]:
        console.print(f"  {sentence['text']}", highlight=False)
    for figures, edition in zip(data["figures"], data["editions"], strict=True):
        table, measures, line = summary_table(dict(figures, name=edition["name"]))
        console.print(table)
        console.print(measures)
        console.print(line, highlight=False)
    if "comparison" in data:
        print_comparison(console, data)
    for line in skill_lines(data):
        console.print(line, highlight=False)
    where = one_line(f"; report in {report_dir}") if report_dir else ""
    console.print(
        f"{games} games in {simulation.seconds:.1f} s ({simulation.games_per_second:,.0f} games/s, "
        f"{backend}, {jobs if backend == 'local' else 'ray'} jobs){where}"
    )
    console.print(played_by_line(data), highlight=False)


def played_by_line(data: dict) -> str:
    """Who played the games: the batch simulator, or the engine (the fallback) and why, edition by edition."""
    editions = data["editions"]
    if len({edition["played_by"] for edition in editions}) == 1:
        return f"Played by {editions[0]['played_by']}."
    return "Played by " + "; ".join(f"{edition['name']}: {edition['played_by']}" for edition in editions) + "."
