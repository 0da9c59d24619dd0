"""`boom replay --seat NAME`: the game as one seat saw it, drawn with the terminal's renderables.

The game is re-played from its seed and decisions; before each of the seat's decisions the seat's
own view (never another seat's hand or face-down Throw) is drawn as the terminal drew it, then the
answer given, and each round's sheet once the round is scored. Only drawing: no game logic.
"""

from __future__ import annotations

from rich.console import Console

from rulesengine import Game

from . import flow_terminal
from .cards import card_lines, table_view
from .sheets import hunt_line, print_sheet, round_drafts, round_table

WHAT = {"throw": "chose the Throw", "draft": "drafted", "choice": "chose"}


def show_seat(played: Game, seat: int, console: Console) -> None:
    edition = played.edition
    game = Game(edition, played.players, played.seed)
    name, shown = played.players[seat], 0
    for who, answer, category in played.decisions:
        if who == seat:
            decision = next(d for d in game.pending() if d.seat == seat and d.category == category)
            _draw(console, edition, game.view(seat), decision, name, answer)
        game.apply(who, answer, category)
        while shown < game.round and shown < edition.rounds and game.scores.round_index > shown:
            console.print(round_table(edition, game.scores.sheet(), shown))
            shown += 1
    if game.over:
        print_sheet(console, edition, game.scores.sheet(), per_round=False)


def show_all_seats(game: Game, console: Console) -> None:
    """A finished game with every seat: each round's sheet and every seat's cards in the order taken
    (Throw first, Catch last) and its choices, or each round's hunt in a game with a flow; then the
    final sheet. Only for a game that is over: nothing is hidden any more."""
    edition = game.edition
    sheet = game.scores.sheet()
    for index, finished in enumerate(game.history):
        if edition.flow is not None:
            console.print(f"Round {index + 1}: {hunt_line(finished)}")
            continue
        console.print(round_table(edition, sheet, index))
        for line in round_drafts(edition, game.players, finished, verbose=True):
            console.print(line)
    print_sheet(console, edition, sheet, per_round=False)


def _draw(console: Console, edition, view: dict, decision, name: str, answer) -> None:
    console.print()
    if view.get("flow"):  # a game with a flow of its own: its screen, and the answer in words
        flow_terminal.show(console, edition, view, decision)
        said = {"throw": "threw a token into the pot", "stop": "stopped"}
        console.print(f"{name} {said.get(answer, f'chose {answer}') if decision.kind == 'bid' else f'chose {answer}'}")
        return
    console.rule(f"{name} · round {view['round']} of {view['rounds']} · {decision.kind}", characters="─")
    own = ([view["throw"]] if view["throw"] else []) + list(view["table"][view["seat"]]["face_up"])
    if decision.kind == "choice":
        console.print("Cards this round (the first the Throw, the last the Catch):")
        console.print(card_lines(edition, own, console.width))
        console.print(f"{name} chose {answer if answer is not None else 'none'} for {decision.category}")
        return
    console.print(table_view(edition, view))
    if own:
        console.print(f"Cards this round{' (the first, the Throw, face down)' if view['throw'] else ''}:")
        console.print(card_lines(edition, own, console.width))
    console.print("Hand:")
    console.print(card_lines(edition, view["hand"], console.width))
    console.print(f"{name} {WHAT[decision.kind]} {answer} {edition.card(answer).name}")
