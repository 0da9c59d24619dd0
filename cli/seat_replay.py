"""`boom replay --seat NAME`: the game as one seat saw it, drawn with the terminal's renderables.

The game is re-played from its seed and decisions; before each of the seat's decisions the seat's
own view (never another seat's hand or face-down Throw) is drawn as the terminal drew it, then the
answer given, and each round's sheet once the round is scored. Only drawing: no game logic.
"""

from __future__ import annotations

from rich.console import Console

from rulesengine import Game
from rulesengine.edition.steps import CARD
from rulesengine.game.blocks import round_plan

from . import rounds
from .cards import card_lines, table_view
from .sheets import hunt_line, print_sheet, round_drafts, round_table


def show_seat(played: Game, seat: int, console: Console) -> None:
    edition = played.edition
    # the same file format and seat options as the played game: an older log deals (and mulligans) as it did
    game = Game(edition, played.players, played.seed, deal_version=played.deal_version,
                seat_options=played.seat_options)
    name, shown, memory = played.players[seat], 0, {}
    for who, answer, category in played.decisions:
        if who == seat:
            decision = next(d for d in game.pending() if d.seat == seat and d.category == category)
            _draw(console, edition, game.view(seat), decision, name, answer, memory)
        game.apply(who, answer, category)
        while shown < game.round and shown < edition.rounds and game.scores.round_index > shown:
            console.print(round_table(edition, game.scores.sheet(), shown))
            shown += 1
    if game.over:
        print_sheet(console, edition, game.scores.sheet(), per_round=False)


def show_all_seats(game: Game, console: Console) -> None:
    """A finished game with every seat: each round's sheet and every seat's cards in the order taken
    (Throw first, Catch last) and its choices, or each round's hunt in a round that claims cards; then the
    final sheet. Only for a game that is over: nothing is hidden any more."""
    edition = game.edition
    sheet = game.scores.sheet()
    for index, finished in enumerate(game.history):
        if not round_plan(edition).scores_rounds:
            console.print(f"Round {index + 1}: {hunt_line(finished)}")
            continue
        console.print(round_table(edition, sheet, index))
        for line in round_drafts(edition, game.players, finished, verbose=True):
            console.print(line)
    print_sheet(console, edition, sheet, per_round=False)


def _draw(console: Console, edition, view: dict, decision, name: str, answer, memory: dict) -> None:
    """The seat's screen before this decision, as the terminal drew it, then the answer in its block's words."""
    asked = round_plan(edition).asks[decision.kind]
    console.print()
    if asked.answer != CARD and not asked.points:  # a word or an icon: each block's panel, and the answer in words
        of = f" of {view['rounds']}" if view["rounds"] else ""
        console.rule(f"{name} · round {view['round']}{of} · {asked.title}", characters="─")
        rounds.show(console, edition, view, memory)
        what = f" {decision.category}:" if decision.category else ""
        console.print(f"{name} {asked.said}{what} {asked.options.get(answer, answer)}")
        return
    console.rule(f"{name} · round {view['round']} of {view['rounds']} · {decision.kind}", characters="─")
    own = ([view.get("throw")] if view.get("throw") else []) + list(view["table"][view["seat"]]["face_up"])
    if decision.kind == "choice":
        console.print("Cards this round (the first the Throw, the last the Catch):")
        console.print(card_lines(edition, own, console.width))
        console.print(f"{name} {asked.said} {answer if answer is not None else 'none'} for {decision.category}")
        return
    console.print(table_view(edition, view))
    if own:
        console.print(f"Cards this round{' (the first, the Throw, face down)' if view['throw'] else ''}:")
        console.print(card_lines(edition, own, console.width))
    console.print("Hand:")
    console.print(card_lines(edition, view["hand"], console.width))
    console.print(f"{name} {asked.said} {answer} {edition.card(answer).name}")
