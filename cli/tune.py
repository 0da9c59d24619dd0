"""`boom tune`: the smallest change to a house rule's numbers that brings its balance back to the base's."""

from __future__ import annotations

import json
import os

import click

from rulesengine.bots.registry import BOTS

from .common import PLAYERS_HELP, SEED, InputFile, Players, handles_errors, jobs_option, list_values, text_console
from .simulate import parse_seats


def parse_target(texts: tuple) -> dict:
    """--target seats=1.5 (points), lines, margin=10 (percent); none given: all three at those values."""
    if not texts:
        return {"seats": 0.015, "lines": True, "margin": 0.10}
    targets = {"seats": None, "lines": False, "margin": None}
    for text in texts:
        name, _, value = text.partition("=")
        name = name.strip()
        try:
            if name == "seats":
                targets["seats"] = float(value or 1.5) / 100
            elif name == "margin":
                targets["margin"] = float(value or 10) / 100
            elif name == "lines" and not value:
                targets["lines"] = True
            else:
                raise ValueError
        except ValueError:
            raise click.BadParameter(
                f"{text!r}: a target is seats=POINTS, lines or margin=PERCENT", param_hint="--target"
            ) from None
        if (targets["seats"] is not None and targets["seats"] <= 0) or (
            targets["margin"] is not None and targets["margin"] <= 0
        ):
            raise click.BadParameter(f"{text!r}: a tolerance is above 0", param_hint="--target")
    return targets


@click.command()
@click.argument("base", type=InputFile(edition=True))
@click.argument("rule", type=InputFile(edition=True))
@click.option(
    "--vary",
    "vary",
    multiple=True,
    metavar="PATH=LOW..HIGH[,...]",
    callback=lambda ctx, param, value: tuple(v for v in list_values(value) if v),
    help="A number that may change and its range: families.animal.icons.Kangaroos=1..9, regions.Tasmania.bonus=0..6, "
    "tables.activity_points.6=5..20; * for every key (families.animal.icons.*=1..9). Repeat it or give a list; "
    "added to the rule file's own `tune:` section.",
)
@click.option(
    "--target",
    "--targets",
    "targets",
    multiple=True,
    metavar="TARGET[,TARGET...]",
    callback=lambda ctx, param, value: tuple(v for v in list_values(value) if v),
    help="seats=POINTS (each seat's share of the wins within ±POINTS of parity), lines (no line's r(win) above the "
    "base's interval), margin=PERCENT (the winning margin within PERCENT of the base's). Default: "
    "seats=1.5, lines, margin=10.",
)
@click.option(
    "--players", "-p", type=Players(), default=None, help=PLAYERS_HELP + " Default: one per --seats entry."
)
@click.option(
    "--seats",
    "--seat",
    "seats_text",
    multiple=True,
    metavar="BOT[,BOT...]",
    help="The line-up, rotated every game: repeat it or give a list (kinds: " + ", ".join(BOTS) + ").",
)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(50),
    default=1600,
    show_default=True,
    help="Games of the last round of the search, of the base and of the final report.",
)
@click.option(
    "--candidates",
    type=click.IntRange(1, 512),
    default=32,
    show_default=True,
    help="Rules tried in the first round of the search.",
)
@click.option(
    "--shrink",
    type=click.IntRange(0, 20),
    default=3,
    show_default=True,
    help="Passes that move the winner's numbers back toward the rule's while the targets hold.",
)
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Seed of the games, 0 or more (the same for every rule)."
)
@jobs_option
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--address", default=None, help="Ray: the cluster to join ('auto' for the running one).")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Where to write the tuned house rule (default: RULE's name with -tuned, here).",
)
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write the tuned rule's paired report (report.json, report.html) here.",
)
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@handles_errors
def tune(
    base,
    rule,
    vary,
    targets,
    players,
    seats_text,
    games,
    candidates,
    shrink,
    seed,
    jobs,
    backend,
    address,
    out_path,
    report_dir,
    output,
):
    """Find the smallest change to RULE's numbers that meets the balance targets against BASE."""
    from pathlib import Path

    from rulesengine.edition.extends import load_with_extends
    from rulesengine.edition.loader import load_edition
    from rulesengine.edition.shipped import resolve_edition
    from rulesengine.game.outputs import check_outputs
    from rulesengine.simulate import SettingsError, write_report
    from rulesengine.simulate.knobs import KnobError, read_knobs
    from rulesengine.simulate.report import check_report_folder
    from rulesengine.simulate.tune import Search, Targets, tune_rule

    kinds = parse_seats(seats_text, players)
    chosen = Targets(**parse_target(targets))
    rule_path = resolve_edition(rule)
    load_edition(rule_path)  # a broken rule is reported at its line first
    data = load_with_extends(rule_path)[0]
    written = [f"{path}={bounds}" for path, bounds in (data.get("tune") or {}).items()]
    try:
        knobs = read_knobs([*written, *vary], data)
    except KnobError as exc:
        raise click.BadParameter(str(exc), param_hint="--vary") from None
    if not knobs:
        raise click.UsageError("name the numbers that may change: --vary PATH=LOW..HIGH (or a tune: section)")
    out_path = out_path or f"{Path(rule_path).stem}-tuned.yaml"
    check_outputs(Path(out_path))
    console = text_console(stderr=output == "json")
    search = Search(
        data,
        knobs,
        kinds,
        chosen,
        seed,
        games,
        candidates,
        shrink,
        min(jobs or os.cpu_count() or 1, 64),
        backend,
        address,
    )
    from rich.progress import Progress, TextColumn, TimeElapsedColumn  # here: `boom tune --help` starts without it

    try:
        if report_dir is not None:
            check_report_folder(report_dir)
        with Progress(
            TextColumn("{task.description}"),
            TextColumn("{task.completed:,.0f} games"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            console=text_console(stderr=True),
            transient=True,
        ) as progress:
            task = progress.add_task("tuning", total=None, rate="")

            def advance(done: int) -> None:
                progress.advance(task, done)
                elapsed = progress.tasks[0].elapsed or 0
                progress.update(task, rate=f"{progress.tasks[0].completed / elapsed:,.0f} games/s" if elapsed else "")

            search.on_games = advance
            tuned = tune_rule(str(resolve_edition(base)), str(rule_path), out_path, search)
    except SettingsError as exc:
        raise (
            click.BadParameter(str(exc), param_hint=exc.option) if exc.option else click.UsageError(str(exc))
        ) from None
    if report_dir is not None:
        write_report(tuned.simulation, report_dir)
    summary = {
        "rule": str(out_path),
        "changes": [{"number": name, "from": old, "to": new} for name, old, new in tuned.changes()],
        "targets": chosen.describe(),
        "met": tuned.met,
        "missed": {name: round(value, 4) for name, value in tuned.missed.items()},
        "games_played": tuned.search.played + tuned.simulation.settings.games * 2,
        "seconds": {"search": round(tuned.search_seconds, 1), "report": round(tuned.report_seconds, 1)},
        "report": tuned.report,
    }
    if output == "json":
        click.echo(json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        changes = "; ".join(f"{name} {old} → {new}" for name, old, new in tuned.changes()) or "no change needed"
        console.print(f"Tuned rule: {out_path} ({changes})", highlight=False)
        console.print(
            ("Every target is met: " if tuned.met else "Not every target is met (the closest rule found): ")
            + "; ".join(chosen.describe())
            + ("" if tuned.met else " — missed: " + ", ".join(k for k, v in tuned.missed.items() if v)),
            highlight=False,
        )
        console.print("Verdict of the tuned rule against the base", style="bold")
        for sentence in tuned.report["verdict"]:
            console.print(f"  {sentence['text']}", highlight=False)
        console.print(
            f"{summary['games_played']:,} games: search {tuned.search_seconds:.0f} s, "
            f"report {tuned.report_seconds:.0f} s"
            + (f"; report in {report_dir}" if report_dir else ""),
            highlight=False,
        )
    if not tuned.met:
        raise SystemExit(1)
