"""What every command shares: turning failures into located messages and an exit status, and the
options and arguments several commands take, declared once so they read and check alike (the README's
"Command-line conventions"; tests/test_cli_convention.py checks every command against them)."""

from __future__ import annotations

import functools
import math
import os
import sys
from pathlib import Path

import click

from rulesengine import BoomError, render
from rulesengine.escaping import one_line
from rulesengine.game.save_fields import MAX_PLAYERS, MAX_ROLLOUTS, MAX_SEARCH_SECONDS, MAX_SEED, name_problem


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
        except KeyboardInterrupt:   # Ctrl-C or `kill -INT`: the shell's exit code for it, not click's "Aborted!" 1
            click.echo("interrupted: nothing kept", err=True)
            sys.exit(130)
        except BrokenPipeError:  # the reader went away (`| head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except Exception as exc:  # noqa: BLE001 - last line of defence: say so, do not dump a stack
            if os.environ.get("BOOM_DEBUG"):
                raise
            click.echo(
                one_line(f"internal error: {type(exc).__name__}: {exc}")
                + " (set BOOM_DEBUG=1 for details; please report it)",
                err=True,
            )
            sys.exit(3)

    return wrapper


def check_seconds(ctx, param, value):
    """--search-seconds: a finite number of seconds, above 0 and at most MAX_SEARCH_SECONDS (nan and inf refused)."""
    if value is not None and not (math.isfinite(value) and 0 < value <= MAX_SEARCH_SECONDS):
        raise click.BadParameter(f"{value} is not a number of seconds above 0 and at most {MAX_SEARCH_SECONDS:g}")
    return value


def list_values(values) -> list[str]:
    """A list option given several times, each a value or a comma-separated list: `--seat a --seat b` is
    `--seats a,b` (every list option reads its values so)."""
    return [part.strip() for value in values for part in value.split(",")]


def check_names(ctx, param, value):
    """--name/--names: some text each, not empty or only spaces, without control characters, no name twice
    (seat names are read without regard to case: `--seat ana` is Ana)."""
    names = list_values(value)
    seen: dict[str, str] = {}
    for name in names:
        problem = name_problem(name)
        if problem:
            raise click.BadParameter(f"{name!r}: {problem}")
        if name.casefold() in seen:
            raise click.BadParameter(f"{name!r} is given twice (as {seen[name.casefold()]!r} already): "
                                     "each player needs a name of their own")
        seen[name.casefold()] = name
    return tuple(names)


class InputFile(click.ParamType):
    """A file the command reads: a missing one is a usage error (exit 2) before anything runs. With
    edition=True the bare name of a shipped edition (`australia`) is taken too."""

    name = "file"

    def __init__(self, edition: bool = False, what: str = "file"):
        self.edition, self.what = edition, what

    def get_metavar(self, param, ctx=None) -> str:
        return "EDITION" if self.edition else "FILE"

    def convert(self, value, param, ctx):
        path = Path(value)
        if path.is_dir():
            self.fail(f"'{value}' is a folder, not a file", param, ctx)
        if os.path.lexists(path):
            return value
        if self.edition:
            from rulesengine.edition.shipped import is_bare_name, shipped_editions
            from rulesengine.errors import suggest

            if is_bare_name(value):
                known = shipped_editions()
                if value in known:
                    return value
                hint = suggest(value, known)
                self.fail(f"no file '{value}' and no shipped edition of that name "
                          f"({hint + ' ' if hint else ''}`boom editions` lists them)", param, ctx)
        self.fail(f"no {self.what} '{value}'", param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(incomplete, type="file")]


class Seed(click.ParamType):
    """A game's seed: a whole number from 0 up (64 bits at most; the help does not print the bound)."""

    name = "seed"

    def get_metavar(self, param, ctx=None) -> str:
        return "N"

    def convert(self, value, param, ctx):
        try:
            seed = value if isinstance(value, int) else int(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if not 0 <= seed < MAX_SEED:
            self.fail(f"{seed} is not a seed: a whole number from 0 up, below 2**63", param, ctx)
        return seed


class Players(click.ParamType):
    """A number of seats, 1 to MAX_PLAYERS; the edition decides how many it allows (checked once loaded)."""

    name = "players"

    def get_metavar(self, param, ctx=None) -> str:
        return "N"

    def convert(self, value, param, ctx):
        try:
            players = value if isinstance(value, int) else int(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if not 1 <= players <= MAX_PLAYERS:
            self.fail(f"{players} is not a number of players from 1 to {MAX_PLAYERS}", param, ctx)
        return players


SEED = Seed()
PLAYERS_HELP = ("Number of seats: the edition decides how many (2-4 in the Almes editions, 3-5 in the 2010 game; "
                "`boom editions` lists each).")


def jobs_option(command):
    """--jobs/-j: worker processes, by default one per CPU (tournament and simulate alike)."""
    return click.option("--jobs", "-j", type=click.IntRange(1), default=None, metavar="N",
                        help="Worker processes (default: the number of CPUs).")(command)


def jobs_for(jobs: int | None, games: int) -> int:
    """The processes to start: as asked (default one per CPU), never more than the games."""
    return max(1, min(jobs or os.cpu_count() or 1, games))


def echo_wrapped(text: str) -> None:
    """A note of a paragraph, wrapped at words to the terminal's width (80 columns when it cannot tell,
    100 at most): the terminal would cut it mid-word."""
    import shutil
    import textwrap

    click.echo(textwrap.fill(one_line(text), width=min(shutil.get_terminal_size().columns, 100) - 1,
                             break_long_words=False, break_on_hyphens=False))


def written(what: str, path) -> None:
    """Every command that writes a file says so, on standard error (standard output stays the data)."""
    click.echo(one_line(f"{what} written to {path}"), err=True)


ROLLOUTS = click.IntRange(1, MAX_ROLLOUTS)


def check_think(ctx, param, value):
    """--think: milliseconds a pick, above 0 and within MAX_SEARCH_SECONDS (nan and inf refused)."""
    if value is not None and not (math.isfinite(value) and 0 < value <= 1000 * MAX_SEARCH_SECONDS):
        raise click.BadParameter(f"{value} is not a number of milliseconds above 0 and at most "
                                 f"{1000 * MAX_SEARCH_SECONDS:g}")
    return value


def budget_seconds(search_seconds: float | None, think: float | None) -> float | None:
    """The searching bots' time a decision from --search-seconds or --think (one of them at most)."""
    if think is None:
        return search_seconds
    if search_seconds is not None:
        raise click.UsageError("give --think (milliseconds) or --search-seconds (seconds), not both")
    return think / 1000


def search_budget_options(command):
    """--search-rollouts, --search-seconds and --think: the searching bots' budget, as `run` and `tournament`
    take it (--think MS is --search-seconds MS/1000, for the ismcts and guided bots too)."""
    from rulesengine.bots.registry import DEFAULT_ROLLOUTS  # here: `boom --help` imports no bot

    command = click.option(
        "--think",
        type=float,
        callback=check_think,
        default=None,
        metavar="MS",
        help="Searching bots (search, ismcts, blend, guided): milliseconds a pick (a game so played does not replay "
        "exactly).",
    )(command)
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
        help=f"Search bots: rollouts per decision (default {DEFAULT_ROLLOUTS}; the blend bot's 100 in an edition "
             "whose round categories read the other seats' cards, as Europe's).",
    )(command)


def seat_option_option(command):
    """--seat-option NAME.OPTION=N: a seat option of the edition (`seat_options:`) set for one player; repeat
    it or give a list. Checked against the edition and the players by seat_options_for."""
    return click.option(
        "--seat-option",
        "--seat-options",
        "seat_options",
        multiple=True,
        metavar="NAME.OPTION=N[,...]",
        help="Set a seat option the edition declares for one player (--seat-option Ana.handicap=-5): repeat it or "
        "give a list. `boom rules EDITION` lists the edition's seat options; unset ones are at their defaults.",
    )(command)


def seat_options_given(values, option: str = "--seat-option") -> dict:
    """name -> option -> number as --seat-option values write them, not yet checked against an edition; a usage
    error (exit 2) for the first that is not NAME.OPTION=N."""
    from rulesengine.edition.seat_options import parse

    try:
        return parse(list_values(values))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None


def seat_options_for(values, edition, players: list[str], option: str = "--seat-option") -> dict:
    """name -> option -> number from --seat-option values, each checked against the edition's seat options and
    these players (a name read without regard to case, as --seat); a usage error (exit 2) for the first bad one."""
    from rulesengine.edition.seat_options import as_named, problems

    named = as_named(seat_options_given(values, option), players)
    found = problems(edition, players, named)
    if found:
        raise click.BadParameter(found[0], param_hint=option)
    return named


def seat_kinds(values, kinds, option: str, *, budgets: bool = False) -> list[str]:
    """Seat kinds from an option given several times, each a kind or a comma-separated list of kinds;
    budgets: a searching bot's kind may carry its budget (blend:40, bots.registry.bot_kind)."""
    from rulesengine.bots.registry import KINDS_HELP, unknown_kind

    seats = [k.lower() for k in list_values(values) if k]
    unknown = [k for k in seats if k not in kinds and not (budgets and unknown_kind([k]) is None)]
    if unknown:
        hint = f"; {KINDS_HELP}" if budgets else ""
        raise click.BadParameter(f"unknown seat kind '{unknown[0]}' (kinds: {', '.join(kinds)}{hint})",
                                 param_hint=option)
    return seats


def text_console(**options):
    """A rich Console that prints text as it is, escaped: player names, edition titles, card names and
    file names come from users and files. A `[` in them is never read as rich markup (a `[/x]` would
    even crash it), and every piece of text it prints goes through escaping.shown, so no escape
    sequence or bidirectional control reaches the terminal, whatever built the line (a table, a Text)."""
    from rich.console import Console
    from rich.segment import Segment

    from rulesengine.escaping import shown

    class EscapingConsole(Console):
        def render(self, renderable, options=None):
            for segment in super().render(renderable, options):
                if segment.control or segment.text.isprintable() or segment.text == "\n":
                    yield segment  # rich's own controls (a cleared screen, a progress bar's cursor)
                else:
                    yield Segment(shown(segment.text), segment.style)

    return EscapingConsole(highlight=False, markup=False, **options)
