"""`boom export`: a finished table from a server's database, as a record (and optionally a game log)."""

from __future__ import annotations

import click

from .common import InputFile, handles_errors, written


class Database(InputFile):
    """The server's store: an SQLite file that exists, or a PostgreSQL URL (taken as it is)."""

    def convert(self, value, param, ctx):
        if str(value).startswith(("postgresql://", "postgres://")):
            return value
        return super().convert(value, param, ctx)


@click.command()
@click.option(
    "--db",
    "db_path",
    required=True,
    type=Database(what="database"),
    help="The server's SQLite file, or its PostgreSQL URL (postgresql://USER@HOST/DB).",
)
@click.argument("table")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the record here (YAML, or JSON by extension) instead of printing it as YAML.",
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the game log for `boom replay` (its edition is written beside it).",
)
@handles_errors
def export(db_path, table, out_path, log_path):
    """Export the record of finished TABLE, for `boom score` (and `boom replay` with --log)."""
    from rulesengine.game.outputs import holding
    from rulesengine.game.records import write_record
    from rulesengine.net.export import export_table, log_edition_path, write_log
    from rulesengine.net.stores import open_existing

    with holding(out_path, log_path, log_edition_path(log_path) if log_path else None):
        store = open_existing(db_path)
        try:
            record = export_table(store, table.upper())
            if log_path:
                edition_path = write_log(store, table.upper(), log_path)
                written("log", f"{log_path} (edition: {edition_path})")
        finally:
            store.close()
        if out_path:
            write_record(out_path, record)
            written("record", out_path)
            return
    import yaml

    click.echo(yaml.safe_dump(record, sort_keys=False, allow_unicode=True, default_flow_style=None), nl=False)
