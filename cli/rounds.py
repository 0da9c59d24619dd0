"""Each block's part of a seat's screen at the terminal, drawn from the seat's view alone.

A seat's screen is the sheet so far, then one panel per block of the edition's round (by the name its
step declares, in the round's order: a new block adds its panel here), then the decision asked, in the
words its block declares (edition/steps.py: Asked). The prompts, by how a decision is answered (a card,
an icon, a word), are terminal.py's. Only drawing: no game logic, nothing the view does not hold.
"""

from __future__ import annotations

from collections import Counter

from .cards import card_lines
from .sheets import hunt_line


def count(n: int, plural: str) -> str:
    """'1 boomerang', '3 boomerangs' (stocks are named in the plural in editions)."""
    return f"{n} {plural[:-1] if n == 1 and plural.endswith('s') else plural}"


def show(out, edition, view: dict, memory: dict) -> None:
    """Every block's panel (memory: what this seat's screen showed last time)."""
    for step in edition.round.steps:
        panel = PANELS.get(step.name)
        if panel is not None:
            panel(out, edition, view, memory)


# -- the drafting round (a pick's own screen is the terminal's: the table, the seat's cards, the hand) -----
def _hand(out, edition, view: dict, memory: dict) -> None:
    """The hand just dealt, when a word is asked about it (keep it or not)."""
    if view.get("hand"):
        out.print("Your hand:")
        out.print(card_lines(edition, view["hand"], out.width))


# -- every round of an edition with public goals: the goals drawn at the game's start ----------------
def _goals(out, edition, view: dict, memory: dict) -> None:
    said = "; ".join(f"{goal['name']} ({goal['description']})" if goal["description"] else goal["name"]
                     for goal in view["goals"])
    out.print(f"Public goals: {said}")


# -- the 2010 round --------------------------------------------------------------------------------
def _circle(out, edition, view: dict, memory: dict) -> None:
    out.print(f"Deck: {count(view['deck'], 'cards')}. Circle ({count(len(view['circle']), 'cards')}):")
    for letter in view["circle"]:
        out.print(f"  {letter:>3}  {', '.join(edition.card(letter).icons)}")


def _secret(out, edition, view: dict, memory: dict) -> None:
    step = next(step for step in edition.round.steps if step.name == "secret_choice")
    if not step.declares:
        if view["secret"] is not None:
            out.print(f"Your secret choice: {view['secret']}")
        return
    # a drafting round's choice, declared before the deal: last round's, as the choices turned them up
    title = next(c.title for c in edition.choice_categories if c.key == step.key)
    if view["secret"] is not None:
        out.print(f"Declared in secret: {view['secret']} ({title}, turned up at the round's end)")
    elif view["history"]:
        chosen = view["history"][-1]["choices"]
        said = [f"{name} {chosen.get(name, {}).get(step.key) or 'none'}" for name in view["players"]]
        out.print(f"Last round's {title}: {', '.join(said)}.")


def reminded(edition, view: dict) -> list:
    """At a pick, the blocks whose panel recalls what the seat decided earlier in the round (its secret
    choice): one line each."""
    return [step.name for step in edition.round.steps if REMINDERS.get(step.name, lambda v: False)(view)]


def remind(out, edition, view: dict) -> None:
    for name in reminded(edition, view):
        PANELS[name](out, edition, view, {})


def since_last_turn(view: dict) -> str:
    """The bids of this round made since the seat's own last bid (all of them before its first), in words."""
    moves, names = view.get("moves", []), view["players"]
    mine = [i for i, move in enumerate(moves) if move["seat"] == view["seat"]]
    recent = moves[mine[-1] + 1:] if mine else moves
    said = [
        f"{names[m['seat']]} threw{' ' + str(m['tokens']) if m.get('tokens', 1) > 1 else ''} (pot {m['pot']})"
        if m["move"] == "throw"
        else f"{names[m['seat']]} stopped and took {m['took']} from the pot"
        for m in recent
    ]
    return ("Since your last turn: " if mine else "This round: ") + ", ".join(said) + "." if said else ""


def _bids(out, edition, view: dict, memory: dict) -> None:
    for entry in view["history"][-1:]:
        out.print(f"Last round: {hunt_line(entry)}")
    since = since_last_turn(view)
    if since:
        out.print(since)
    for seat, name in enumerate(view["players"]):
        stocks = ", ".join(count(n, stock) for stock, n in view["stocks"][seat].items())
        state = ""
        if view["phase"] == "bid":
            state = " (in)" if seat in view["still_in"] else f" (stopped, {stack_place(view['stack'], seat)})"
            state += " <- to play" if seat == view["turn"] else ""
        out.print(f"  {name}: {stocks}{state}")
    if view["phase"] == "bid":
        out.print(f"Pot: {view['pot']}.")


def stack_place(stack: list, seat: int) -> str:
    """Where a seat that stopped lies on the stack, counted from the top: the stack is revealed top down
    after the last one left, so '1st from the top' hunts second."""
    if seat not in stack:
        return "on the stack"
    place = len(stack) - stack.index(seat)
    return f"{ordinal(place)} from the top of the stack"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _captured(out, edition, view: dict, memory: dict) -> None:
    for seat, name in enumerate(view["players"]):
        kinds = Counter(icon for x in view["captured"][seat] for icon in edition.card(x).icons[:1])
        out.print(f"  {name} captured {', '.join(f'{n} {kind}' for kind, n in sorted(kinds.items())) or 'nothing yet'}")


REMINDERS = {   # block -> whether its panel has something to recall at a pick
    "goals": lambda view: bool(view["goals"]),
    "secret_choice": lambda view: view["secret"] is not None,
}
PANELS = {
    "goals": _goals,
    "deal": _hand,
    "reveal": _circle,
    "bidding": _bids,
    "claim": _captured,
    "secret_choice": _secret,
}
