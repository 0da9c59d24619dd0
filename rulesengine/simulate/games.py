"""Plays the games of a simulation: the one place that seats bots, plays and reads the figures.

play_games(edition, layout, deals) is the seam for a faster game runner: it plays a shard of
games, each given by its seed, where each line-up entry sits and whose bot seed each seat gets, and
returns each game's figures. Everything above it (tallies, paired comparison, depth, chance, tune)
sees only figures, so a compiled runner that returns the same figures drops in here: the batch
simulator does, for random seats (batched.py).

It watches what the seats are asked (decisions, options) through a thin wrapper that changes no
answer, and reads the option values that the greedy and search bots compute anyway (their public
`gains` and `values` calls), never computing a value twice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ..bots.registry import agent_seed, bot_kind, make_bot
from ..edition.model import Edition
from .batched import engine_reason, play_batch
from .figures import GameFigures, Play, game_figures, holding_figures
from .generated import GENERATED, play_generated
from .tally import Layout

# the bot's call that values every option of a pick (the ismcts bot's values are visits: not a value)
VALUED_BY = {"greedy": "gains", "search": "values", "greedy1": "values", "blend": "values"}


@dataclass(frozen=True)
class Deal:
    """One game to play: its seed, the line-up entry at each seat, and the turn of the bot seeds
    (seat s gets the bot seeded for seat (s + shift) mod n: the same deal with the bots rotated)."""

    seed: int
    entry_at: tuple
    shift: int = 0


def seat_names(players: int) -> list[str]:
    return [f"P{seat + 1}" for seat in range(players)]


class _Watched:
    """An agent that counts what it is asked and hands every decision on unchanged."""

    def __init__(self, agent, watch: _Watch):
        self.agent, self.watch = agent, watch
        self.reads_view = getattr(agent, "reads_view", True)
        self.lazy_view = getattr(agent, "lazy_view", False)
        call = VALUED_BY.get(getattr(agent, "kind", ""))
        if call is not None:  # the bot's own valuation, recorded as it returns (the bot reads self.<call>)
            setattr(agent, call, watch.recording(getattr(agent, call)))

    def decide(self, view, decision):
        watch, options = self.watch, len(decision.options)    # _Watch.ask, written out: once a decision
        watch.asked += 1
        watch.options += options
        watch.choices += options > 1
        return self.agent.decide(view, decision)


class _Watch:
    """The running counts of one game (see figures.Play)."""

    def __init__(self):
        self.asked = self.choices = self.options = self.valued = 0
        self.spread = 0.0

    def ask(self, options: int) -> None:
        self.asked += 1
        self.options += options
        self.choices += options > 1

    def recording(self, values):
        def recorded(view, decision, rng):
            valued = values(view, decision, rng)
            self.value(list(valued.values()))
            return valued

        return recorded

    def value(self, values: list) -> None:
        """One decision's option values: their population standard deviation (0 for a single option)."""
        self.valued += 1
        self.spread += spread(values)

    def play(self) -> Play:
        return Play(self.asked, self.choices, self.options, self.valued, self.spread)


def spread(values: list) -> float:
    """The population standard deviation of some option values: 0 when they are all equal."""
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return math.sqrt(max(0.0, sum((v - mean) ** 2 for v in values) / len(values)))


@cache
def _engine() -> tuple:
    """The engine's entry points, imported on the first game it plays (games the batch plays never load it)."""
    from ..game.loop import play
    from ..game.state import Game

    return play, Game


@cache
def _kinds(kinds: tuple) -> tuple:
    """Each line-up entry as bot_kind reads it, once a line-up."""
    return tuple(bot_kind(kind) for kind in kinds)


def play_game(edition: Edition, layout: Layout, deal: Deal) -> GameFigures:
    """One game of this edition with the line-up seated as the deal says; its figures."""
    play, Game = _engine()
    n, watch = layout.players, _Watch()
    agents = []
    for seat in range(n):
        kind, options = _kinds(layout.kinds)[deal.entry_at[seat]]
        bot = make_bot(kind, edition, agent_seed(deal.seed, (seat + deal.shift) % n), **options)
        agents.append(_Watched(bot, watch))
    table = {name: dict(values) for name, values in layout.seat_options} or None   # each seat's, not each entry's
    if layout.holdings:  # its figures count the rounds from the events
        game = play(Game(edition, seat_names(n), deal.seed, seat_options=table), agents)
        return holding_figures(
            game.record(), game.events_for(None), game.scores.sheet(), layout.sheet_keys, layout.stocks, watch.play()
        )
    game = play(Game(edition, seat_names(n), deal.seed, events=False, seat_options=table), agents)
    return game_figures(game.record(), game.scores.sheet(), layout.sheet_keys, layout.race_keys, watch.play())


def play_games(edition: Edition, layout: Layout, deals: Iterable[Deal],
               batch: bool | str | None = None) -> list[GameFigures]:
    """Games of a shard (or a block of shards): all at once by the batch simulator where it plays this
    edition's line-up (batch=None: as batched.engine_reason says for these deals; True: the caller asked
    it, for the whole run), a game whose scoring met an error again by the engine (which raises it,
    located); by the generated game where the caller says GENERATED (runner.runners); otherwise each deal
    played in turn by the engine."""
    deals = list(deals)
    if batch is None:
        batch = engine_reason(edition, layout.kinds, len(deals)) is None
    if batch == GENERATED:   # random seats the batch does not play: the generated game (generated.py)
        return play_generated(edition, layout, deals)
    if batch:
        batch = play_batch(edition, layout, deals)
        return [figures or play_game(edition, layout, deal) for figures, deal in zip(batch, deals, strict=True)]
    return [play_game(edition, layout, deal) for deal in deals]
