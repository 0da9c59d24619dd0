"""A ladder's journal: every finished shard of `boom ladder` kept as a line of a file, so that an interrupted
ladder goes on where it stopped instead of starting again (the default rungs take hours of games).

The first line names the ladder (the edition and its rules' digest, the rungs, the games, the seed, the think
time, the journal's format): a file of another ladder is refused, saying what differs, never mixed into this
one. Each further line is one shard: its task key and its result, as the ladder's tally adds them up. A shard's
games are fixed by the seed and its index (with a rollout budget), so a shard read back is the shard that would
be played again; with a think time it is a shard played as validly, only not reproducibly. A line written in part
when the process was stopped is dropped (and the file rewritten without it): its shard is played again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FORMAT = 1   # the journal's layout; a file of another format is refused


class JournalError(ValueError):
    """A journal that cannot be used for this ladder: the message says why and what to do."""


class Journal:
    """The shards of a ladder already played (`done`: task key -> result) and the file new ones are added to."""

    def __init__(self, path: str | os.PathLike, ladder: dict):
        self.path = Path(path)
        self.header = {"journal": "boom ladder", "format": FORMAT, **ladder}
        self.done: dict = {}
        lines, cut = self._read()
        if lines or cut:
            self._check((lines or [cut])[0])
            for number, line in enumerate(lines[1:], start=2):
                try:
                    entry = json.loads(line)
                    self.done[tuple(entry["shard"])] = _result(entry["result"])
                except (ValueError, KeyError, TypeError):
                    raise JournalError(f"{self.path}:{number}: not a shard of a ladder's journal") from None
            if cut:   # a line written in part when the process was stopped: its shard is played again
                self.path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        try:
            self._file = self.path.open("w" if not lines else "a", encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot write it ({exc.strerror or exc})") from None
        if not lines:
            self._write(self.header)

    def _read(self) -> tuple[list[str], str]:
        """The file's whole lines, and a last line without its newline (cut by an interruption) or ''."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return [], ""
        except (OSError, UnicodeDecodeError) as exc:
            raise JournalError(f"{self.path}: cannot read it as a ladder's journal ({exc})") from None
        lines = text.split("\n")
        return [line for line in lines[:-1] if line], lines[-1]

    def _check(self, first: str) -> None:
        try:
            header = json.loads(first)
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("journal") != "boom ladder":
            raise JournalError(f"{self.path}:1: not a ladder's journal (give a new file, or the one an earlier "
                               f"`boom ladder --journal` wrote)")
        differs = [name for name in self.header if header.get(name) != self.header[name]]
        if differs:
            said = ", ".join(f"{name} {header.get(name)!r} there, {self.header[name]!r} here" for name in differs)
            raise JournalError(f"{self.path}:1: the journal of another ladder ({said}): run that ladder again, or "
                               f"give a new file")

    def check_shards(self, keys: set) -> None:
        """JournalError if the journal holds a shard that is not one of `keys` (the ladder's tasks)."""
        unknown = sorted(map(list, set(self.done) - keys), key=str)
        if unknown:
            raise JournalError(f"{self.path}: the shard {unknown[0]} is not one of this ladder's")

    def record(self, key: tuple, result) -> None:
        """Keep a finished shard: written and flushed to the disk before the next is counted."""
        self._write({"shard": list(key), "result": result})

    def _write(self, entry: dict) -> None:
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def _result(value) -> tuple:
    """A shard's result as the ladder's tasks return it: (wins, games) or (wins, games, pick times); ValueError for
    anything else (a line edited by hand), which the journal reports at its line."""
    if not isinstance(value, list) or len(value) not in (2, 3) or not all(map(_number, value[:2])) or \
            (len(value) == 3 and not (isinstance(value[2], list) and all(map(_number, value[2])))):
        raise ValueError(value)
    return tuple(value)


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
