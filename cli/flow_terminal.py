"""A human seat's screen and prompt in an edition with a flow: the circle, the pot, the stocks, the stack.

Shows only the seat's view (its own secret choice, never another's before the claim) and reads an
answer by number or by name; TerminalAgent calls it for a flow's decisions. No game logic here.
"""

from __future__ import annotations

from collections import Counter


def show(out, edition, view: dict, decision) -> None:
    names = view["players"]
    what = "your secret choice" if decision.kind == "secret" else "throw or stop"
    out.rule(f"{names[view['seat']]}: round {view['round']}, {what}")
    for event in view["history"][-1:]:
        taken = "; ".join(
            f"{name} ({event['choices'][name]}) took {count(len(cards), 'cards')}"
            for name, cards in event["captured"].items()
        )
        out.print(f"Last round: {event['last_left']} was left last. {taken}.")
    since = since_last_turn(view)
    if since:
        out.print(since)
    out.print(f"Deck: {count(view['deck'], 'cards')}. Circle ({count(len(view['circle']), 'cards')}):")
    for letter in view["circle"]:
        card = edition.card(letter)
        out.print(f"  {letter:>3}  {', '.join(card.icons)}")
    for seat, name in enumerate(names):
        kinds = Counter(icon for x in view["captured"][seat] for icon in edition.card(x).icons[:1])
        stocks = ", ".join(count(n, stock) for stock, n in view["stocks"][seat].items())
        state = ""
        if view["phase"] == "bid":
            state = (
                " (in)" if seat in view["still_in"] else f" (stopped, #{view['stack'].index(seat) + 1} on the stack)"
            )
            state += " <- to play" if seat == view["turn"] else ""
        captured = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "nothing yet"
        out.print(f"  {name}: {stocks}; captured {captured}{state}")
    if view["phase"] == "bid":
        out.print(f"Pot: {view['pot']}. Your secret choice: {view['secret']}")


def count(n: int, plural: str) -> str:
    """'1 boomerang', '3 boomerangs' (stocks are named in the plural in editions)."""
    return f"{n} {plural[:-1] if n == 1 and plural.endswith('s') else plural}"


def since_last_turn(view: dict) -> str:
    """The bids of this round made since the seat's own last bid (all of them before its first), in words."""
    moves, names = view.get("moves", []), view["players"]
    mine = [i for i, move in enumerate(moves) if move["seat"] == view["seat"]]
    recent = moves[mine[-1] + 1:] if mine else moves
    said = [
        f"{names[m['seat']]} threw (pot {m['pot']})"
        if m["move"] == "throw"
        else f"{names[m['seat']]} stopped and took {m['took']} from the pot"
        for m in recent
    ]
    return ("Since your last turn: " if mine else "This round: ") + ", ".join(said) + "." if said else ""


def ask(agent, view: dict, decision):
    options = list(decision.options)
    shown = ", ".join(f"{i}. {o}" for i, o in enumerate(options, 1))
    while True:
        answer = agent._ask(f"{shown}").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        matches = [o for o in options if str(o).lower() == answer.lower()]
        if matches:
            return matches[0]
        agent.console.print(f"'{answer}' is not an option; type one of: {', '.join(map(str, options))} (or its number)")
