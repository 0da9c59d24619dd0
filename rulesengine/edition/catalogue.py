"""What `boom editions` lists: every shipped edition by the name that selects it, checked and summed up.

It loads each shipped file with the ordinary loader, so a listed edition is one that plays; it
never changes or writes a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .loader import check_edition
from .shipped import shipped_editions


@dataclass(frozen=True, slots=True)
class Entry:
    name: str  # what `boom run NAME` takes
    id: str
    title: str
    players_min: int
    players_max: int
    reconstructed_facts: int
    path: Path

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "id": self.id,
            "title": self.title,
            "players": [self.players_min, self.players_max],
            "reconstructed_facts": self.reconstructed_facts,
            "path": str(self.path),
        }


def catalogue() -> list[Entry]:
    """The shipped editions that load, base editions first, then the variants."""
    entries = []
    for name, path in shipped_editions().items():
        edition, _ = check_edition(path)
        if edition is not None:
            entries.append(
                Entry(
                    name,
                    edition.id,
                    edition.name,
                    edition.players_min,
                    edition.players_max,
                    edition.reconstructed_facts,
                    path,
                )
            )
    return entries


def reconstructed_notice(edition, name: str | None = None) -> str | None:
    """The one line `run`, `score` and `rules` print first for an edition with reconstructed facts."""
    if not edition.reconstructed_facts:
        return None
    return (
        f"Note: {edition.reconstructed_facts} facts of {edition.name} are reconstructed, not printed cards; "
        f"if your cards differ, correct them in the YAML (boom validate --verbose {name or edition.file} lists them)."
    )
