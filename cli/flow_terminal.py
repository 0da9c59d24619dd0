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
            f"{name} ({event['choices'][name]}) took {len(cards)}" for name, cards in event["captured"].items()
        )
        out.print(f"Last round: {event['last_left']} was left last. {taken}.")
    out.print(f"Deck: {view['deck']} cards. Circle ({len(view['circle'])} cards):")
    for letter in view["circle"]:
        card = edition.card(letter)
        out.print(f"  {letter:>3}  {', '.join(card.icons)}")
    for seat, name in enumerate(names):
        kinds = Counter(icon for x in view["captured"][seat] for icon in edition.card(x).icons[:1])
        stocks = ", ".join(f"{n} {stock}" for stock, n in view["stocks"][seat].items())
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
