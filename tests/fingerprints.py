"""Fingerprints of bot games of every shipped edition and variant: "the same games" made checkable.

A refactoring of the engine, the scoring or the bots must leave every game of a fixed seed as it was:
the same decisions, the same score sheet, the same events, the same views. This module plays a fixed
set of games (random seats at two player counts and three seeds, all-greedy seats, one search seat in
the four base editions) and hashes each of those four parts apart, so that a change of view shape
(which a new file format may explain) is told from a change of play. tests/golden/fingerprints.json
holds the hashes; test_fingerprints.py compares them.

    python tests/fingerprints.py            # compare with tests/golden/fingerprints.json, list what differs
    python tests/fingerprints.py --write    # write them again (say why in the commit)
    python tests/fingerprints.py --runner reference   # the same games, scored by the reference interpreter
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from shipped import SHIPPED  # noqa: E402

from rulesengine import load_edition  # noqa: E402
from rulesengine.bots.registry import agent_seed, make_bot  # noqa: E402
from rulesengine.game.state import Game  # noqa: E402

GOLDEN = HERE / "golden" / "fingerprints.json"
PARTS = ("decisions", "sheet", "events", "views")
RANDOM_SEEDS = (1, 2, 3)
BASE = ("australia", "europe", "usa", "boomerang-2010")
SEARCH_OPTIONS = {"rollouts": 16}


def player_counts(edition) -> list[int]:
    """The smallest and the largest player count (up to 5) the edition seats."""
    fitting = [n for n in range(edition.players_min, min(edition.players_max, 5) + 1) if edition.draft.fits(n)]
    return sorted({fitting[0], fitting[-1]})


def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def play_fingerprint(edition, kinds: list[str], seed: int, every_view: bool) -> dict:
    """One game's four hashes: its decisions, final sheet, events and the seats' views (at every
    decision when every_view, else at the end)."""
    n = len(kinds)
    agents = [make_bot(kind, edition, agent_seed(seed, seat), **(SEARCH_OPTIONS if kind == "search" else {}))
              for seat, kind in enumerate(kinds)]
    game = Game(edition, [f"P{seat + 1}" for seat in range(n)], seed)
    views = []
    while not game.over:
        for decision in game.pending():
            seat = decision.seat
            view = game.view(seat)
            if every_view:
                views.append(view)
            game.apply(seat, agents[seat].decide(view, decision), decision.category)
    views.extend(game.view(seat) for seat in range(n))
    return {"decisions": _digest(game.decisions), "sheet": _digest(game.scores.sheet()),
            "events": _digest(game.events), "views": _digest(views)}


def cases(path: Path, edition=None) -> list[tuple[str, list[str], int, bool]]:
    """(name, seat kinds, seed, every view) of each game fingerprinted for this edition file."""
    edition = edition or load_edition(path)
    counts = player_counts(edition)
    out = [(f"random-{n}p-seed{seed}", ["random"] * n, seed, seed == 1) for n in counts for seed in RANDOM_SEEDS]
    out.append((f"greedy-{counts[0]}p", ["greedy"] * counts[0], 1, False))
    if path.stem in BASE:
        n = counts[0]
        out.append((f"search-{n}p", ["search"] + ["greedy"] * (n - 1), 1, False))
    return out


def fingerprints(paths=SHIPPED, runner: str = "compiled") -> dict:
    """file stem -> case name -> part -> hash; runner: how the editions' scoring runs (game/program.py)."""
    found = {}
    for path in paths:
        edition = load_edition(path, runner=runner)
        found[path.stem] = {name: play_fingerprint(edition, kinds, seed, every)
                            for name, kinds, seed, every in cases(path, edition)}
    return found


def differences(expected: dict, found: dict) -> list[str]:
    """Each (edition, case, part) whose hash differs, as a line."""
    lines = []
    for stem in sorted(set(expected) | set(found)):
        want, got = expected.get(stem, {}), found.get(stem, {})
        for case in sorted(set(want) | set(got)):
            for part in PARTS:
                a, b = want.get(case, {}).get(part), got.get(case, {}).get(part)
                if a != b:
                    lines.append(f"{stem} {case} {part}: {a} -> {b}")
    return lines


def main(argv: list[str]) -> int:
    runner = argv[argv.index("--runner") + 1] if "--runner" in argv else "compiled"
    found = fingerprints(runner=runner)
    if "--write" in argv:
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN.relative_to(ROOT)}: {sum(len(v) for v in found.values())} games")
        return 0
    lines = differences(json.loads(GOLDEN.read_text(encoding="utf-8")), found)
    print("\n".join(lines) if lines else "the same games")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
