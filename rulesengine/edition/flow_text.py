"""A flow's round in words, for `boom rules`: each declared step as a player would read it.

Generated from the checked Flow alone (its blocks and their parameters, a condition in words, and
as written only when formulas are asked for); it never plays a step and never names a game.
"""

from __future__ import annotations

from .flow import Bidding, Catch, Choices, Claim, Deal, Mulligan, PickAndPass, Reveal, SecretChoice, Throw
from .in_words import in_words


def flow_lines(edition, wrap, formulas: bool = False) -> list[str]:
    """'The game' section of an edition with a flow: who plays, each step of a round, the end."""
    flow = edition.flow
    players = (
        f"{edition.players_min} to {edition.players_max} players"
        if edition.players_min != edition.players_max
        else f"{edition.players_min} players"
    )
    stocks = ", ".join(f"{count} {name}" for name, count in edition.stocks.items())
    lines = wrap(
        f"{players}. The deck is shuffled face down{'; each player starts with ' + stocks if stocks else ''}. "
        "The game is played in rounds, each made of these steps:"
    )
    for number, step in enumerate(flow.steps, 1):
        lines += wrap(f"{number}. {_step(step, edition)}", "  ")
        if isinstance(step, Reveal) and formulas:
            lines += ["       " + line for line in step.until.text.strip().splitlines()]
    if flow.end == "deck_empty":
        lines += wrap(
            "The game ends when the deck is empty at the start of a round (cards left in the circle are not "
            "captured). If the deck runs short while revealing, a last round is played with what there is."
        )
    return lines


def _step(step, edition) -> str:
    if isinstance(step, Reveal):
        return (
            "Reveal: cards left from the last round stay; cards are turned from the deck face up around the circle "
            f"until {in_words(step.until.text, edition, 'the reveal')} (or the deck is empty)."
        )
    if isinstance(step, SecretChoice):
        return (
            f"Secret choice ({step.key}): every player picks one {step.family.title} token "
            f"({', '.join(step.family.icons)}) face down."
        )
    if isinstance(step, Bidding):
        start = (
            "a player drawn at random"
            if step.first == "random"
            else "in the first round a player drawn at random, then the player left last in the round before"
        )
        return (
            f"Bidding for {step.stock}: {start} starts; in turn, each player still in throws one of their "
            f"{step.stock} into the pot, or stops: their secret choice goes face down on top of the stack and they "
            f"take every {step.stock} in the pot. A player with none to throw stops (taking the pot, which may be "
            "empty). The last player left does not throw."
        )
    if isinstance(step, Claim):
        return (
            f"Claim: the last player left reveals their {step.choice} and takes every card in the circle showing it; "
            "then the stack is revealed from the top down, each taking every card left that shows theirs."
        )
    return type(step).__name__


def drafting_lines(edition, wrap) -> list[str]:
    """The drafting round's blocks as `boom rules` lists them (declared or the default), and its picks per pass."""
    drafting = edition.drafting
    if drafting is None:
        return []
    names = {Deal: f"deal {edition.hand_size}", Mulligan: "mulligan", Throw: "throw", PickAndPass: "pick and pass",
             Catch: "catch", Choices: "choices"}
    lines = wrap(
        "A round's blocks, in order: " + ", ".join(names[type(step)] for step in drafting.steps)
        + f"; {drafting.end} rounds."
    )
    mulligan = drafting.step(Mulligan)
    if mulligan is not None:
        lines += wrap(
            "Mulligan: after the deal, each player may return their hand and draw a new one from the undealt "
            "cards (the old hand joins them); " + ("once in the game." if mulligan.once_per_game else "once a round.")
        )
    picks = drafting.step(PickAndPass).picks
    if any(p != 1 for p in picks):
        told = ", ".join(f"{p} on pass {i}" for i, p in enumerate(picks, 1) if p != 1)
        lines += wrap(
            f"Cards taken at once: {told} (the Throw is the first card of pass 1); one a pass otherwise. "
            "Each card of a pass is chosen in turn; the pass is shown to all once every player has chosen."
        )
    return lines
