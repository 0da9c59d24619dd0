"""`boom serve`: run a server for network play until Ctrl-C."""

from __future__ import annotations

import asyncio

import click

from rulesengine import BoomError, Diagnostic
from rulesengine.net.protocol import Limits

from .common import handles_errors


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0: any free port, printed).",
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    default="boom.sqlite",
    show_default=True,
    help="SQLite file keeping every table; a restarted server resumes them all.",
)
@click.option(
    "--away-timeout",
    type=click.FloatRange(0, min_open=True),
    default=Limits.away_timeout,
    show_default=True,
    help="Seconds a player may be gone before a bot plays the seat (until the player returns).",
)
@click.option(
    "--max-tables-per-ip",
    type=click.IntRange(1),
    default=Limits.max_tables_per_ip,
    show_default=True,
    help="Unfinished tables one address may have open at once.",
)
@click.option(
    "--fsync", is_flag=True, help="Wait for the disk at every decision, so even a power cut loses nothing (slower)."
)
@handles_errors
def serve(host, port, db_path, away_timeout, max_tables_per_ip, fsync):
    """Host tables for network play (`boom host` opens one, `boom join` sits at one, or a browser at http://HOST:PORT/)."""
    from rulesengine.net.server import serve_forever
    from rulesengine.net.storage import Store

    store = Store(db_path, fsync=fsync)

    def ready(actual_port):
        click.echo(f"boom server on ws://{host}:{actual_port} (tables kept in {db_path}); Ctrl-C stops it", err=False)
        click.echo(f"play in a browser at http://{host}:{actual_port}/", err=False)

    try:
        limits = Limits(away_timeout=away_timeout, max_tables_per_ip=max_tables_per_ip)
        asyncio.run(serve_forever(store, host, port, limits, ready=ready))
    except KeyboardInterrupt:
        click.echo("server stopped", err=True)
    except OSError as exc:
        raise BoomError(Diagnostic(None, f"cannot listen on {host}:{port}: {exc.strerror or exc}", "N203")) from None
    finally:
        store.close()
