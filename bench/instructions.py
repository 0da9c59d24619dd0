"""Machine instructions per game (valgrind's callgrind): the engine against the hand-written game.

Not a test: run by hand. Games per CPU-second (games_per_second.py, bots.py) move by 5-10% on a
2-core machine that is doing anything else; an instruction count does not (the same total twice,
whatever else runs), so a change worth 1% shows. Each figure is two runs of this script under
callgrind, with `--warm` games and with `--warm` + `--games` games, their difference divided by
`--games`: Python's start, the imports and the first game's compiling are left out. Random bots
(as games_per_second.py) for the engine and the hand-written game; --greedy adds four greedy
seats (as bots.py). Slow: callgrind runs Python about 50 times slower.
"""

from __future__ import annotations

import argparse
import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ana", "Ben", "Cy", "Dee"]


def play_games(side: str, name: str, players: int, games: int) -> None:
    """The games one callgrind run counts (run in the child process)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    if side == "hand":
        from handwritten.game import play as play_by_hand

        rules = importlib.import_module(f"handwritten.{name}")
        for seed in range(games):
            play_by_hand(rules, players, seed)
        return
    from rulesengine import Game, load_edition
    from rulesengine.bots.registry import RandomAgent, agent_seed, make_bot
    from rulesengine.game.loop import play

    edition = load_edition(ROOT / "editions" / f"{name}.yaml")
    for seed in range(games):
        game = Game(edition, NAMES[:players], seed, events=False)
        if side == "greedy":
            agents = [make_bot("greedy", edition, agent_seed(seed, s)) for s in range(players)]
        else:
            agents = [RandomAgent(agent_seed(seed, s)) for s in range(players)]
        play(game, agents)
        game.record()


def instructions(side: str, name: str, players: int, games: int) -> int:
    """Instructions callgrind counts for this script playing `games` games of one side."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
               "--child", side, "--editions", name, "--players", str(players), "--games", str(games)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"callgrind failed ({' '.join(command)}):\n{done.stderr[-2000:]}")
    return int(found[1])


def per_game(side: str, name: str, players: int, warm: int, games: int) -> float:
    return (instructions(side, name, players, warm + games) - instructions(side, name, players, warm)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games counted per figure (default 200)")
    parser.add_argument("--warm", type=int, default=20, help="games played first and left out (default 20)")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--editions", nargs="+", default=["australia"])
    parser.add_argument("--greedy", type=int, default=0, metavar="GAMES",
                        help="also count this many games of four greedy seats per edition (default none)")
    parser.add_argument("--child", choices=["engine", "hand", "greedy"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play_games(args.child, args.editions[0], args.players[0], args.games)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    print(f"millions of instructions per game (callgrind), {args.games} games after {args.warm} left out")
    print(f"{'edition':<11}{'players':>8}{'engine':>10}{'hand':>10}{'ratio':>8}")
    for name in args.editions:
        for players in args.players:
            engine = per_game("engine", name, players, args.warm, args.games)
            hand = per_game("hand", name, players, args.warm, args.games)
            print(f"{name:<11}{players:>8}{engine / 1e6:>10.3f}{hand / 1e6:>10.3f}{hand / engine:>7.2f}x")
        if args.greedy:
            greedy = per_game("greedy", name, 4, 1, args.greedy)
            print(f"{name:<11}{'greedy 4':>8}{greedy / 1e6:>10.1f}")


if __name__ == "__main__":
    main()
