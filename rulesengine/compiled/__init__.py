"""The generated whole game (#35): an edition's bot-only game as one generated Python function.

game.py puts the function together from the compiled forms of the round's blocks (forms.py) and
the edition's scoring program; it plays the engine's games with random seats, seed for seed, on
the engine's own score sheet. An edition with a part that has no compiled form falls back to the
engine: fallback(edition) names the part, and play_random() plays it through the engine then.
"""

from __future__ import annotations

from typing import NamedTuple

from ..game.blocks import round_plan
from .forms import Unsupported
from .game import fallback, generated, random_keys

# games: fewer are played by the engine sooner than the generated game is compiled (about 80 ms for four players,
# some 150 of the engine's random games)
GENERATED_FROM = 200


class Played(NamedTuple):
    """A finished bot-only game: its score sheet (the engine's ScoreKeeper) and, when asked for, its
    decisions as the engine logs them ([seat, answer, category], in the order applied), how many options
    each had, and its record (what the engine's Game.record() gives). A named tuple: made once a game, in a
    game of about a hundred microseconds (a frozen dataclass's fields cost a microsecond more)."""

    scores: object
    decisions: list | None
    engine: bool          # played by the engine (the edition has a part without a compiled form)
    offered: list | None = None
    record: dict | None = None


class GeneratedGameError(RuntimeError):
    """The generated game failed on a game the engine plays: an internal error of the compiler."""


def play_random(edition, names: list[str], seed: int, bots: list[int] | None = None, *,
                record: bool = False) -> Played:
    """The engine's game of this seed with a random bot at every seat (bots[s]: the seat whose bot seed
    (agent_seed) seat s gets; by default its own), by the generated game where the edition has one, else
    by the engine. A scoring expression that fails is played again by the engine, which raises its located
    error; if the engine plays it through, the generated code is wrong and GeneratedGameError says so (never
    a silent fallback that would only show as lost speed)."""
    n = len(names)
    try:
        made = generated(edition, n)
    except Unsupported:
        return _by_engine(edition, names, seed, bots, record)
    keys = None
    if bots is not None:
        own = random_keys(seed, n)
        keys = [own[bot] for bot in bots]
    scores = made.sheets.fresh(names)
    try:
        if not record:
            return Played(made.play(seed, keys, scores), None, False)
        decisions, offered, history = [], [], []
        made.recorded(seed, keys, scores, decisions, offered, history)
    except Exception as failure:   # noqa: BLE001 - the engine plays it again and raises the expression's located error
        _by_engine(edition, names, seed, bots, record)
        raise GeneratedGameError(
            f"the generated game of {edition.id} failed where the engine did not (seed {seed}): a bug in "
            f"rulesengine/compiled, not in the edition") from failure
    return Played(scores, decisions, False, offered, _record(edition, names, history))


def _record(edition, names: list[str], history: list) -> dict:
    """The game's record as the engine's blocks write it (each round's drafts by letter, the choices made)."""
    keys = [c.key for c in edition.choice_categories]
    rounds = []
    for drafts, chosen in history:
        entry = {"drafts": {name: [card.letter for card in cards] for name, cards in zip(names, drafts, strict=True)}}
        if round_plan(edition).index.get("choices") is not None:
            made = [{key: icon for key, icon in zip(keys, icons, strict=True) if icon is not None} for icons in chosen]
            entry["choices"] = {name: mine for name, mine in zip(names, made, strict=True) if mine}
        rounds.append(entry)
    return {"edition": edition.id, "players": list(names), "rounds": rounds}


def _by_engine(edition, names, seed, bots, record) -> Played:
    from ..bots.registry import RandomAgent, agent_seed
    from ..game.loop import play
    from ..game.state import Game

    bots = range(len(names)) if bots is None else bots
    offered: list = []
    agents = [_Counted(RandomAgent(agent_seed(seed, bot), edition), offered) for bot in bots]
    game = play(Game(edition, list(names), seed, events=False), agents)
    if not record:
        return Played(game.scores, None, True)
    return Played(game.scores, game.decisions, True, offered, game.record())


class _Counted:
    """A seat's bot, noting how many options each decision it answers had."""

    def __init__(self, bot, offered: list):
        self.bot, self.offered = bot, offered
        self.reads_view, self.lazy_view = bot.reads_view, bot.lazy_view

    def decide(self, view, decision):
        self.offered.append(len(decision.options))
        return self.bot.decide(view, decision)


__all__ = ["GENERATED_FROM", "Played", "Unsupported", "fallback", "generated", "play_random", "random_keys"]
