"""Screen a setting of a bot on the ladder's games against greedy bots, paired with the shipped bot (docs/bots.md).

Not a test: run by hand, e.g.
    .venv/bin/python bench/screen.py shipped.jsonl --seed 50 --games 0:300
    .venv/bin/python bench/screen.py plan-off.jsonl --seed 50 --games 0:300 --set plan=false
    .venv/bin/python bench/screen.py --compare shipped.jsonl plan-off.jsonl
Game g is the ladder's (simulate/ladder.py's play_one): game_seed(SEED, g), the bot at seat g mod n (n the edition's
usual player count), greedy bots in the other seats, so a setting screened here meets the very deals that `boom ladder
EDITION --rungs KIND --seed SEED` plays against greedy bots, and two settings screened on the same games are compared
game by game (paired: the luck of the deal cancels, a difference shows on fewer games). A setting is the kind's options
(`--set iterations=150 --set rivals=sampled`): what a kind name cannot say. One JSON line a game is written as it ends
(the bot's share of the win, the CPU ms of its picks as the ladder times them, their number); games already in OUT are
skipped, so a stopped screen goes on where it was. The method that uses it (a rule written before the games, screens
on one seed, a confirmation on fresh seeds): docs/bots.md, "The guided bot".
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesengine.bots.registry import BOTS, SEARCHING, make_bot  # noqa: E402
from rulesengine.bots.tournament import wilson  # noqa: E402
from rulesengine.edition.loader import load_edition  # noqa: E402
from rulesengine.edition.shipped import resolve_edition  # noqa: E402
from rulesengine.errors import BoomError  # noqa: E402
from rulesengine.simulate.ladder import play_one, rung_options, usual_players  # noqa: E402
from rulesengine.simulate.shards import game_seed  # noqa: E402


def value_of(text: str):
    """A --set value as the bot's option takes it: true/false, none, an integer, a number, else the text."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def setting_of(pairs: list) -> dict:
    setting = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"error: --set {pair!r}: give KEY=VALUE")
        setting[key.strip()] = value_of(text)
    return setting


def games_of(text: str) -> range:
    first, sep, last = text.partition(":")
    try:
        games = range(int(first), int(last)) if sep else range(int(first))
    except ValueError:
        raise SystemExit(f"error: --games {text!r}: give FIRST:LAST (games FIRST to LAST - 1) or a number") from None
    if not games or games.start < 0:
        raise SystemExit(f"error: --games {text!r}: no game to play")
    return games


def load(path: Path) -> dict:
    """game -> its line, of a screen's file (none if it does not exist yet)."""
    if not path.exists():
        return {}
    found = {}
    with path.open(encoding="utf-8") as lines:
        for number, text in enumerate(lines, 1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
                found[line["game"]] = {"share": float(line["share"]), "ms": float(line["ms"]),
                                       "picks": int(line["picks"])}
            except (ValueError, TypeError, KeyError) as exc:
                raise SystemExit(f"error: {path}:{number}: not a line of a screen ({type(exc).__name__}: {exc}); "
                                 "remove it to go on") from None
    return found


def screen(out: Path, edition_name: str, kind: str, setting: dict, seed: int, games: range) -> None:
    try:
        edition = load_edition(resolve_edition(edition_name))
    except BoomError as exc:
        raise SystemExit(f"error: --edition {edition_name!r}: {exc}") from None
    players = usual_players(edition.players_min, edition.players_max)
    try:
        name, options = rung_options(kind, None)
    except ValueError:
        raise SystemExit(f"error: --kind {kind!r}: not a seat kind ({', '.join(BOTS)}, or KIND:BUDGET)") from None
    if setting and name not in SEARCHING:
        raise SystemExit(f"error: --set: the {name} bot takes no options (the searching bots do: "
                         f"{', '.join(SEARCHING)})")
    try:   # the setting checked once, before any game: an option the bot does not take
        make_bot(name, edition, 0, **options, **setting)
    except TypeError as exc:
        raise SystemExit(f"error: --set: the {kind} bot says {exc}") from None
    done = load(out)
    for number in games:
        if number in done:
            continue
        at = number % players
        kinds = tuple(kind if seat == at else "greedy" for seat in range(players))
        shares, picks = play_one(edition, kinds, game_seed(seed, number), None, at, setting)
        with out.open("a", encoding="utf-8") as lines:
            lines.write(json.dumps({"game": number, "share": shares[at], "ms": sum(picks), "picks": len(picks)}) + "\n")
    done = load(out)
    summary(out, done, sorted(done))


def summary(name, lines: dict, common: list) -> float:
    """Prints a screen's rate (95% Wilson interval) and mean CPU ms a pick over the common games; its rate."""
    wins = sum(lines[g]["share"] for g in common)
    low, high = wilson(wins, len(common))
    picks = sum(lines[g]["picks"] for g in common)
    ms = sum(lines[g]["ms"] for g in common) / picks if picks else 0.0
    print(f"{name}: {100 * wins / len(common):.1f}% ({100 * low:.1f}-{100 * high:.1f}%) of {len(common)} games, "
          f"{ms:.1f} ms of CPU a pick")
    return wins / len(common)


def compare(base: Path, candidate: Path) -> None:
    """The two screens on their common games and the candidate's paired difference (95% normal interval)."""
    a, b = load(base), load(candidate)
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        raise SystemExit(f"error: {base} and {candidate} have {len(common)} game(s) in common: screen the same games")
    summary(base, a, common)
    summary(candidate, b, common)
    differences = [b[g]["share"] - a[g]["share"] for g in common]
    mean = sum(differences) / len(differences)
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1))
    print(f"{candidate} minus {base}: {100 * mean:+.1f} +- {100 * 1.96 * spread / math.sqrt(len(common)):.1f} points "
          f"(paired, {len(common)} games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", type=Path, help="the screen's file, one JSON line a game (resumed)")
    parser.add_argument("--seed", type=int, default=50, help="the ladder's seed of the games (default 50)")
    parser.add_argument("--games", default="0:300", help="FIRST:LAST, games FIRST to LAST - 1 (default 0:300)")
    parser.add_argument("--edition", default="australia", help="a shipped edition's name or a file (default australia)")
    parser.add_argument("--kind", default="guided", help="the bot screened, a seat kind (default guided)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an option of the bot")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BASE", "CANDIDATE"),
                        help="compare two screens' files, paired, instead of playing")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    elif args.out is None:
        parser.error("give the screen's file (OUT) or --compare BASE CANDIDATE")
    else:
        screen(args.out, args.edition, args.kind, setting_of(args.set), args.seed, games_of(args.games))


if __name__ == "__main__":
    main()
