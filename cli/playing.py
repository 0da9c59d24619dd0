"""Playing a session at the terminal, shared by `boom run` and `boom resume`.

It wires agents to seats, prints the sheets as rounds end, writes the save file and the log after
every decision, and turns an interruption or a failure into a saved game and a resume command.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from rulesengine import BoomError, render
from rulesengine.bots.registry import agent_seed, bot_options, make_bot
from rulesengine.bots.seeding import seeding_for
from rulesengine.escaping import one_line
from rulesengine.game.blocks import round_plan
from rulesengine.game.loop import play
from rulesengine.game.outputs import check_outputs, lock_outputs
from rulesengine.game.records import write_record
from rulesengine.game.saves import Session

from .common import text_console, written
from .sheets import hunt_line, print_sheet, round_drafts, round_table
from .terminal import GameAbandoned, TerminalAgent


def make_agents(session: Session):
    """One agent per seat; several humans share the terminal in turn (hot seat). The search budget
    is kept in the session's options, so a resumed game is played with the same one."""
    edition, seed = session.game.edition, session.game.seed
    hot_seat = session.seats.count("human") > 1
    rollouts, seconds = session.options.get("search_rollouts"), session.options.get("search_seconds")
    seeding = seeding_for(session.game.deal_version)      # the file format: a resumed old game draws as it did
    return [TerminalAgent(edition, hot_seat=hot_seat) if kind == "human"
            else make_bot(kind, edition, agent_seed(seed, seat), seeding=seeding,
                          **bot_options(kind, rollouts, seconds))
            for seat, kind in enumerate(session.seats)]


def default_save_path(session: Session) -> str:
    """Named by the seed, except when a human plays (the seed stays a secret until the game ends);
    then `-2`, `-3`... after it: an earlier save is never overwritten."""
    if "human" in session.seats:
        stem = f"boom-{session.game.edition.id}-{time.strftime('%Y%m%d-%H%M%S')}"
    else:
        stem = f"boom-{session.game.edition.id}-{session.game.seed}"
    path, number = Path(f"{stem}.json"), 1
    while path.exists():
        number += 1
        path = Path(f"{stem}-{number}.json")
    return str(path)


def play_session(session: Session, quiet: bool = False, save_record: str | None = None, verbose: bool = False) -> None:
    game = session.game
    edition = game.edition
    console = text_console()
    shown, hunted = [game.round], [len(game.history)]
    hunts = not round_plan(edition).scores_rounds  # a round that claims cards is told as its hunt

    def after_step(game):
        session.checkpoint()
        while hunts and hunted[0] < len(game.history) and not quiet:  # the last round's hunt too
            console.print(f"Round {hunted[0] + 1}: {hunt_line(game.history[hunted[0]])}")
            hunted[0] += 1
        while shown[0] < game.scores.round_index and not quiet:  # each round scored, once
            console.print(round_table(edition, game.scores.sheet(), shown[0]))
            for line in round_drafts(edition, game.players, game.history[shown[0]], verbose):
                console.print(line)
            shown[0] += 1

    try:
        try:
            play(game, make_agents(session), after_step)
        except (GameAbandoned, KeyboardInterrupt):
            path = _save_for_later(session)
            click.echo("\n" + one_line(f"Game stopped in round {game.round + 1}; saved to {path}. "
                                        f"Resume it with: boom resume {path}"), err=True)
            sys.exit(130)
        except BoomError as exc:
            path = _save_for_later(session)
            for diagnostic in exc.diagnostics:
                click.echo(render(diagnostic), err=True)
            click.echo(one_line(f"The game stopped; its state is saved to {path} "
                                f"(boom resume {path} after fixing the edition)."), err=True)
            sys.exit(1)
        session.checkpoint()
    finally:
        session.unlock()
    print_sheet(console, edition, game.scores.sheet(), per_round=False)
    if "human" in session.seats:  # kept secret while the game ran: with it anyone could replay every deal
        console.print(f"seed {game.seed}")
    if save_record:
        write_record(save_record, game.record())
    for what, path in (("save", session.save_path), ("log", session.log_path), ("record", save_record)):
        if path:
            written(what, path)      # on standard error, not wrapped: a path is copied whole


def _save_for_later(session: Session) -> str:
    if not session.save_path:
        path = default_save_path(session)
        try:
            check_outputs(path)
            session._locks += lock_outputs(path)
        except BoomError:  # the default name is taken by another file or game: one of our own
            path = f"boom-{session.game.edition.id}-{session.game.seed}-{os.getpid()}.json"
        session.save_path = path
    session.checkpoint()
    return session.save_path

