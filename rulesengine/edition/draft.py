"""The drafting round's options, read from an edition's `draft:` section (issue #15).

The drafting round's steps are blocks declared under `flow:` (edition/flow.py: deal, throw,
pick_and_pass with its picks per pass, catch, choices; the default list when none is declared);
the options here are what is not a step, set under `draft:` and read by the blocks they concern
(rulesengine/game/blocks) and by the score sheet. Today: teams and ghost hands; a new option is a
field here, its schema entry under `draft`, and its effect in the block it changes.
It holds data only; the game and the score sheet decide what the options mean.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DraftOptions:
    teams: int = 0                    # 0: every seat for itself; k: k teams, seats alternating
    ghosts: int = 0                   # hands after the players' that pass with theirs, each taking a random card

    def team_of(self, seat: int) -> int | None:
        return seat % self.teams if self.teams else None

    def members(self, players: int) -> list[list[int]]:
        """The seats of each team, in seat order ([] without teams)."""
        return [[seat for seat in range(players) if seat % self.teams == team] for team in range(self.teams)]

    def fits(self, players: int) -> bool:
        """Whether this many players can play: teams need the same number of seats each, two at least."""
        return not self.teams or (players % self.teams == 0 and players >= 2 * self.teams)


def draft_options(spec) -> DraftOptions:
    """The options of a `draft:` mapping the schema has checked (absent: the published round)."""
    spec = spec if isinstance(spec, dict) else {}
    return DraftOptions(teams=spec.get("teams", 0), ghosts=spec.get("ghosts", 0))
