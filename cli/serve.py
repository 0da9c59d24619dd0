"""`boom serve`: run a server for network play until Ctrl-C."""

from __future__ import annotations

import asyncio

import click

from rulesengine import BoomError, Diagnostic
from rulesengine.escaping import one_line
from rulesengine.net.protocol import Limits

from .common import handles_errors, list_values


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: 0.0.0.0 for every interface (friends on your network; the addresses are printed).",
)
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
    help="SQLite file keeping every table (a restarted server resumes them all), or a PostgreSQL URL "
    "(postgresql://USER@HOST/DB) shared by several servers: a table whose server dies goes on on another.",
)
@click.option(
    "--key",
    "key_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="With PostgreSQL: the key file every server of the database shares (seals running games' seeds, proves "
    "one server to another); created if missing. Default: boom.key here. (An SQLite file keeps its own beside it.)",
)
@click.option(
    "--node-url",
    default=None,
    help="With PostgreSQL: the address the other servers reach this one at (ws://HOST:PORT); default: its own.",
)
@click.option(
    "--lease",
    type=click.FloatRange(0.5, 3600),
    default=3.0,
    show_default=True,
    help="With PostgreSQL: seconds a server's hold on its tables lasts unrenewed; then another takes them over.",
)
@click.option(
    "--public-url",
    default=None,
    help="The address friends use (a forwarded port, a reverse proxy: https://boom.example.org); "
    "the page shares it and only its pages may connect.",
)
@click.option(
    "--certfile", type=click.Path(dir_okay=False), default=None, help="TLS certificate (PEM): wss:// and https://."
)
@click.option(
    "--keyfile", type=click.Path(dir_okay=False), default=None, help="Its private key (PEM), if not in --certfile."
)
@click.option(
    "--allow-origin",
    "--allow-origins",
    "allow_origin",
    multiple=True,
    metavar="URL[,URL...]",
    callback=lambda ctx, param, value: tuple(url for url in list_values(value) if url),
    help="Also accept the WebSocket of pages from this origin (https://site:port): repeat it or give a list.",
)
@click.option(
    "--away-timeout",
    type=click.FloatRange(0, min_open=True),
    default=Limits.away_timeout,
    show_default=True,
    help="Seconds a player may be gone before a bot plays the seat (until the player returns).",
)
@click.option(
    "--max-tables",
    type=click.IntRange(1),
    default=Limits.max_tables,
    show_default=True,
    help="Unfinished tables on the whole server.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(1),
    default=Limits.max_connections,
    show_default=True,
    help="Open connections on the whole server (each seat, spectator or page holds one).",
)
@click.option(
    "--max-tables-per-ip",
    type=click.IntRange(1),
    default=Limits.max_tables_per_ip,
    show_default=True,
    help="Unfinished tables one address may have open at once (remembered across restarts).",
)
@click.option(
    "--workers",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help="Processes playing the tables (each table in one; the connections stay in this one): one per core "
    "spreads the load; 0 plays them in this process.",
)
@click.option(
    "--fsync", is_flag=True, help="Wait for the disk at every decision, so even a power cut loses nothing (slower)."
)
@handles_errors
def serve(
    host,
    port,
    db_path,
    key_path,
    node_url,
    lease,
    public_url,
    certfile,
    keyfile,
    allow_origin,
    away_timeout,
    max_tables,
    max_connections,
    max_tables_per_ip,
    workers,
    fsync,
):
    """Host tables for network play (`boom host` opens one, `boom join` sits at one, or a browser at http://HOST:PORT/)."""
    import logging

    from rulesengine.net.listening import origin_of, serve_forever, share_urls, tls_context
    from rulesengine.net.storage import safe_url
    from rulesengine.net.stores import open_store

    logging.basicConfig(format="%(asctime)s %(name)s %(levelname)s %(message)s", level=logging.WARNING)
    for url in (public_url, *allow_origin):
        if url is not None and origin_of(url) is None:
            raise click.BadParameter(f"'{url}' is not an http(s):// address", param_hint="--public-url/--allow-origin")
    tls = tls_context(certfile, keyfile)
    store = open_store(db_path, fsync=fsync, key=key_path, lease=lease)
    kept = safe_url(db_path) if store.node is not None else db_path

    def ready(actual_port):
        urls = share_urls(host, actual_port, tls is not None, public_url)
        click.echo(one_line(f"boom server on {urls[0][0]} (tables kept in {kept}); Ctrl-C stops it"))
        for socket_url, page in urls:
            also = f" (boom host/join: {socket_url})" if len(urls) > 1 else ""
            click.echo(one_line(f"play in a browser at {page}/{also}"))
        if tls is None and public_url is None:
            click.echo("the connection is not encrypted (ws://): to play over the internet see --certfile (README)")

    try:
        limits = Limits(
            away_timeout=away_timeout,
            max_tables=max_tables,
            max_connections=max_connections,
            max_tables_per_ip=max_tables_per_ip,
        )
        asyncio.run(
            serve_forever(
                store,
                host,
                port,
                limits,
                ready=ready,
                workers=workers,
                db=db_path,
                fsync=fsync,
                tls=tls,
                public_url=public_url,
                allowed=allow_origin,
                node_url=node_url,
            )
        )
    except KeyboardInterrupt:
        click.echo("server stopped", err=True)
    except OSError as exc:
        raise BoomError(Diagnostic(None, f"cannot listen on {host}:{port}: {exc.strerror or exc}", "N203")) from None
    finally:
        store.close()
