"""`boom`: validate editions, play games, score games played on a real table.

Each command lives in its own module; this one only assembles the group.
"""

from __future__ import annotations

import click

from .editions import editions
from .export import export
from .host import host
from .join import join
from .replay import replay
from .resume import resume
from .rules import rules
from .run import run
from .score import score
from .serve import serve
from .simulate import simulate
from .tournament import tournament
from .validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boom", message="boom %(version)s")
def main():
    """boom: play, score and check the Boomerang family of card-drafting games."""


for command in (validate, run, score, resume, replay):
    main.add_command(command)
main.add_command(rules)
main.add_command(tournament)
main.add_command(simulate)
for command in (serve, host, join, export):
    main.add_command(command)
main.add_command(editions)


if __name__ == "__main__":  # pragma: no cover
    main()
