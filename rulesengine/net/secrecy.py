"""What leaves the server about a running game for one seat: its view and its events, nothing more.

The engine already gives each seat its own view and events (Game.view, Game.events_for). This
module forwards them through allow-lists made from what the game's round declares (game/blocks:
each block's view keys, the keys of their entries, and each event type with its audience), so a
field or event added to the engine later is not sent until its block declares it, and an event
declared for its own seat goes to that seat alone. What the blocks declare is audited by the
secrecy tests (tests/test_conformance.py: every view of every shipped edition, changed wherever
Game.hidden says the seat cannot see, must stay the same):
- the drafting round: "hand", "throw", "seen_hands", "picked" (its cards chosen so far on a pass of
  several), "used_choices" are this seat's own; "table" shows others' face-up cards and only a flag for
  a face-down Throw; "deal", "hand", "throw" events go to their seat alone (a mulligan's new hand is a
  "hand"; the public "mulligan" says only who took one); the public ones name cards only once they are
  face up ("draft", "catch", "reveal").
- a secret choice (the 2010 round's, or a choice declared before a drafting round's deal): "secret" is
  this seat's own, told to the others only as the claim or the round-end choices reveal it; "chosen"
  says which seats have chosen, not what.
- the 2010 round: "moves" are this round's bids, made in the open; the circle, the deck's size, the pot, the
  stocks, the stack and what each seat captured are on the table; "claim" says a choice once revealed.
- every round: "history" and "sheet" cover what is face up; "pending" and "decision" are the seat's own.
A pending decision whose words show its options' points (a round-end choice) carries "points": what
each scores, computed from that same view (the numbers the terminal shows); the seat's own pending
pick of a card of its hand carries "advice" (the terminal's `?`): for each card, what it changes on
its sheet and the expected round score, whose rollouts deal the unseen cards from that view alone.
The house-rule scope variables (opponents, left, right with their cards and visited; round_totals)
are read at round end and game end only, when those cards are face up and the totals on the sheet,
so a score or a choice's points reveal nothing more.
It must never add the seed, the decisions list, another seat's hand, Throw or secret choice, or the full state.
"""

from __future__ import annotations

from collections import OrderedDict

from ..edition.steps import CARD
from ..game.blocks import OWN, PUBLIC, round_plan
from ..game.state import Game
from ..game.views import game_keys


def view_keys(edition) -> tuple:
    """Every key of a view of this edition that may be sent: the game's own and its blocks' declared ones."""
    return (*game_keys(edition), *(key for key, _, _ in round_plan(edition).view))


def seat_view(game: Game, seat: int, *, advice: bool = True) -> dict:
    """The seat's view, through the allow-list; advice: the seat's pick of a card of its hand carries the advice of
    every card (a greedy bot's evaluation of the hand, the costliest part of a view: only for a client that asked
    for it)."""
    view, plan = game.view(seat), round_plan(game.edition)
    out = {key: view[key] for key in view_keys(game.edition) if key in view}
    for key, allowed in plan.entries.items():
        if key in out:
            out[key] = [{k: entry[k] for k in allowed if k in entry} for entry in out[key]]
    out["pending"] = [_with_points(game, view, entry, advice) for entry in out.get("pending", [])]
    return out


def _with_points(game: Game, view: dict, entry: dict, advice: bool) -> dict:
    """A decision whose words show its options' points (a round-end choice) with them, the seat's own pick of
    a card of its hand with the advice of every card (from the seat's own view, by the terminal's `?`), when
    its client asked for it."""
    asked = round_plan(game.edition).asks.get(entry["kind"])
    if asked is not None and asked.answer == CARD and entry["seat"] == view["seat"]:
        if not advice:
            return entry
        decision = next(d for d in game.pending() if (d.seat, d.kind) == (entry["seat"], entry["kind"]))
        return {**entry, "advice": _card_advice(game, view, decision)}
    if asked is None or not asked.points:
        return entry
    from ..bots.advice import choice_advice

    wanted = (entry["seat"], entry["kind"], entry["category"])
    decision = next(d for d in game.pending() if (d.seat, d.kind, d.category) == wanted)
    advice = choice_advice(game.edition, view, decision)
    points = {o.icon: o.points for o in advice if o.icon is not None and o.icon in entry["options"]}
    return {**entry, "points": points}


_ADVICE: OrderedDict = OrderedDict()     # the advice of a seat's pick, while other seats' decisions resend the view
ADVICE_KEPT = 512


def _card_advice(game: Game, view: dict, decision) -> dict:
    """bots.advice.advice_data, computed once a pick: the view is sent again after every other seat's
    decision while the pick waits (0.27 ms of a 0.30 ms view, measured on a 4-seat game), and the
    advice depends only on what the key holds: the game, the seat's cards, the table, the rounds before."""
    from ..bots.advice import advice_data

    key = (id(game), game.seed, tuple(game.players), view["seat"], view["round"], decision.kind, decision.options,
           view.get("throw"), tuple(tuple(seat["face_up"]) for seat in view["table"]), repr(view.get("seen_hands")),
           repr(view.get("picked")), repr(view.get("history")), repr(view.get("used_choices")))
    if key not in _ADVICE:
        _ADVICE[key] = advice_data(game.edition, view, decision)
        if len(_ADVICE) > ADVICE_KEPT:
            _ADVICE.popitem(last=False)
    return _ADVICE[key]


def seat_events(game: Game, seat: int, start: int = 0) -> tuple[list[dict], int]:
    """The seat's events among game.events[start:], without their address; and the new start."""
    out = []
    events = game.events
    audience = round_plan(game.edition).events
    for event in events[start:]:
        to, told = event.get("to"), audience.get(event.get("type"))
        if to is None and told == PUBLIC or to == seat and told == OWN:
            out.append({key: value for key, value in event.items() if key != "to"})
    return out, len(events)
