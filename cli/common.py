"""What every command shares: turning failures into located messages and an exit status."""

from __future__ import annotations

import functools
import math
import os
import sys

import click

from rulesengine import BoomError, render
from rulesengine.game.save_fields import MAX_ROLLOUTS, MAX_SEARCH_SECONDS, name_problem


def fail(diagnostics, code: int = 1):
    for diagnostic in diagnostics:
        click.echo(render(diagnostic), err=True)
    sys.exit(code)


def handles_errors(command):
    """Every user-facing failure ends as located messages and a non-zero exit, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except BoomError as exc:
            fail(exc.diagnostics, getattr(exc, "exit_code", 1))
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except BrokenPipeError:  # the reader went away (`| head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except Exception as exc:  # noqa: BLE001 - last line of defence: say so, do not dump a stack
            if os.environ.get("BOOM_DEBUG"):
                raise
            click.echo(
                f"internal error: {type(exc).__name__}: {exc} (set BOOM_DEBUG=1 for details; please report it)",
                err=True,
            )
            sys.exit(3)

    return wrapper


def check_seconds(ctx, param, value):
    """--search-seconds: a finite number of seconds, above 0 and at most MAX_SEARCH_SECONDS (nan and inf refused)."""
    if value is not None and not (math.isfinite(value) and 0 < value <= MAX_SEARCH_SECONDS):
        raise click.BadParameter(f"{value} is not a number of seconds above 0 and at most {MAX_SEARCH_SECONDS:g}")
    return value


def check_names(ctx, param, value):
    """--name: some text, not empty or only spaces, without control characters."""
    for name in value:
        problem = name_problem(name)
        if problem:
            raise click.BadParameter(f"{name!r}: {problem}")
    return value


ROLLOUTS = click.IntRange(1, MAX_ROLLOUTS)
def search_budget_options(command):
    """--search-rollouts and --search-seconds: the search bots' budget, as `run` and `tournament` take it."""
    from rulesengine.bots.search import DEFAULT_ROLLOUTS  # here: `boom --help` imports no bot

    command = click.option(
        "--search-seconds",
        type=float,
        callback=check_seconds,
        default=None,
        help="Search bots: seconds per decision (a game so played does not replay exactly).",
    )(command)
    return click.option(
        "--search-rollouts",
        type=ROLLOUTS,
        default=None,
        help=f"Search bots: rollouts per decision (default {DEFAULT_ROLLOUTS}).",
    )(command)


def seat_kinds(values, kinds, option: str) -> list[str]:
    """Seat kinds from an option given several times, each a kind or a comma-separated list of kinds."""
    seats = [k.strip() for value in values for k in value.split(",") if k.strip()]
    unknown = [k for k in seats if k not in kinds]
    if unknown:
        raise click.BadParameter(f"unknown seat kind '{unknown[0]}' (kinds: {', '.join(kinds)})", param_hint=option)
    return seats


def text_console(**options):
    """A rich Console that prints text as it is: player names, edition titles and card names come from
    users and files, and a `[` in them must never be read as rich markup (a `[/x]` would even crash it)."""
    from rich.console import Console

    return Console(highlight=False, markup=False, **options)
