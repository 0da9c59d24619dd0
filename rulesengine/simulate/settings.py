"""What fixes a simulation's figures, and the error for settings that cannot be simulated: read by the
runner, the Ray backend, the balance report and `boom tune` alike."""

from __future__ import annotations

from dataclasses import dataclass, field


class SettingsError(ValueError):
    """Settings that cannot be simulated; `option` names the command-line option at fault."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class Settings:
    """Everything that fixes a simulation's figures (the backend and the number of jobs do not)."""

    editions: tuple  # one or two edition paths
    kinds: tuple  # the line-up, one bot kind per seat
    games: int
    seed: int = 0
    seat_options: dict = field(default_factory=dict)  # name (P1..Pn) -> option -> number, as --seat-option set them
