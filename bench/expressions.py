"""Evaluations per second of every compiled expression of the shipped editions, best of a few runs.

Not a test: run by hand (`python bench/expressions.py`). It uses only what an Edition gives (each
expression's run), so the same script measures any version of the compiler; compare two trees by
running each tree's copy, one after the other, a few times (the machine is shared: take the best).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine import load_edition  # noqa: E402


def expressions(edition):
    for category in edition.categories:
        yield "round" if category.when == "round" else "end", category, category.score
        if category.choice is not None and category.choice.requires is not None:
            yield "round", category, category.choice.requires
    for race in edition.races:
        yield "race", race, race.qualifies
        yield "award", race, race.award


def environments(edition, count: int, seed: int = 1):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(edition.cards)
        rng.shuffle(deck)
        cards, others, visited = deck[:7], deck[7:28], sorted(deck[:rng.randint(7, 28)], key=lambda c: c.index)
        env = {"cards": cards, "throw": cards[0], "catch": cards[-1], "others": others, "visited": visited,
               "players": 4, "round": rng.randint(1, 4), "previous": rng.randint(0, 12), "place": rng.randint(1, 3)}
        env["region"] = rng.choice(edition.regions)
        out.append(env)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--environments", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name in ("australia", "europe", "usa"):
        edition = load_edition(ROOT / "editions" / f"{name}.yaml")
        envs = environments(edition, args.environments)
        runs = []
        for _, owner, expression in expressions(edition):
            choice = getattr(owner, "choice", None)
            for env in envs:
                env = dict(env)
                if choice is not None:
                    env["choice"] = choice.family.icons[env["round"] % len(choice.family.icons)]
                runs.append((expression.run, env))
        best = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            for run, env in runs:
                try:
                    run(env)
                except Exception:  # noqa: BLE001 - a missing table row on a random environment counts as an evaluation
                    pass
            best = min(best, time.process_time() - start)
        rate = len(runs) / best
        print(f"{name:<10} {len(runs):>6} evaluations  {rate:>12,.0f} per CPU second (best of {args.repeat})")


if __name__ == "__main__":
    main()
