"""What leaves the server about a running game for one seat: its view and its events, nothing more.

The engine already gives each seat its own view and events (Game.view, Game.events_for). This
module forwards them through allow-lists, so a field or event type added to the engine later is
not sent until someone decides it is public. Audited against the engine as it is:
- view: "hand", "throw", "seen_hands", "picked" (its cards chosen so far on a pass of several),
  "used_choices" and "pending" are this seat's own; "table" shows others' face-up cards and only a
  flag for a face-down Throw; "history" and "sheet" cover finished rounds only, whose cards are all
  revealed at the round's end.
  A pending round-end choice also carries "points": what each of its options scores, computed from
  that same view (the numbers the terminal shows); a pending Throw or draft carries "advice" (the
  terminal's `?`): for each card of the seat's own hand, what it changes on its sheet and the expected
  round score, whose rollouts deal the unseen cards from that view alone. The house-rule scope
  variables (opponents, left, right with their cards and visited; round_totals) are read at round end
  and game end only, when those cards are face up and the totals on the sheet, so a score or a
  choice's points reveal nothing more.
- events: "deal", "hand", "throw" and "decision" are addressed to one seat and go to it alone (a
  mulligan's new hand is a "hand"; the public "mulligan" says only who took one);
  the public ones name cards only once they are face up ("draft", "catch", "reveal").
A game with a flow of its own (the 2010 game, game/steps.py) has its own allow-lists, FLOW_*:
- view: "secret" is this seat's own secret choice and "pending" its own decisions; "chosen" says which
  seats have chosen, not what; "moves" are this round's bids, made in the open; "history" holds finished
  rounds, whose choices the claim revealed; the circle, the deck's size, the pot, the stocks, the stack
  and what each seat captured are on the table for all to see.
- events: "decision" goes to its seat alone; "secret_chosen" names the seat only; "claim" says the
  choice when the hunt reveals it.
It must never add the seed, the decisions list, another seat's hand, Throw or secret choice, or the full state.
"""

from __future__ import annotations

from collections import OrderedDict

from ..game.state import Game

VIEW_KEYS = (
    "edition",
    "players",
    "seat",
    "round",
    "rounds",
    "phase",
    "hand",
    "throw",
    "seen_hands",
    "picked",
    "direction",
    "table",
    "history",
    "used_choices",
    "sheet",
    "pending",
)
TABLE_KEYS = ("name", "face_up", "throw_down", "hand_size")
PUBLIC_EVENTS = (
    "round_start",
    "mulligan",
    "throw_placed",
    "draft",
    "catch",
    "reveal",
    "choice",
    "round_scored",
    "game_over",
)
OWN_EVENTS = ("deal", "hand", "throw", "decision")
FLOW_VIEW_KEYS = (
    "edition",
    "players",
    "seat",
    "flow",
    "round",
    "rounds",
    "phase",
    "step",
    "circle",
    "deck",
    "pot",
    "stocks",
    "captured",
    "first",
    "turn",
    "still_in",
    "stack",
    "moves",
    "chosen",
    "secret",
    "history",
    "sheet",
    "pending",
)
FLOW_PUBLIC_EVENTS = ("round_start", "reveal_cards", "secret_chosen", "throw_token", "stop", "claim", "game_over")
FLOW_OWN_EVENTS = ("decision",)


def seat_view(game: Game, seat: int, *, advice: bool = True) -> dict:
    """The seat's view, through the allow-list; advice: a pending Throw or draft carries the advice of every card
    (a greedy bot's evaluation of the hand, the costliest part of a view: only for a client that asked for it)."""
    view = game.view(seat)
    if view.get("flow"):
        return {key: view[key] for key in FLOW_VIEW_KEYS if key in view}
    out = {key: view[key] for key in VIEW_KEYS if key in view}
    out["table"] = [{key: entry[key] for key in TABLE_KEYS if key in entry} for entry in view["table"]]
    out["pending"] = [_with_points(game, view, entry, advice) for entry in out.get("pending", [])]
    return out


def _with_points(game: Game, view: dict, entry: dict, advice: bool) -> dict:
    """A round-end choice with what each option scores now, a Throw or draft of the seat with the advice
    of every card of its hand (from the seat's own view, by the code of the terminal's `?`)."""
    if entry["kind"] in ("throw", "draft") and entry["seat"] == view["seat"] and advice:
        decision = next(d for d in game.pending() if (d.seat, d.kind) == (entry["seat"], entry["kind"]))
        return {**entry, "advice": _card_advice(game, view, decision)}
    if entry["kind"] != "choice":
        return entry
    from ..bots.advice import choice_advice

    wanted = (entry["seat"], "choice", entry["category"])
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
           view["throw"], tuple(tuple(seat["face_up"]) for seat in view["table"]), repr(view.get("seen_hands")),
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
    flow = game.edition.flow is not None
    public, own = (FLOW_PUBLIC_EVENTS, FLOW_OWN_EVENTS) if flow else (PUBLIC_EVENTS, OWN_EVENTS)
    for event in events[start:]:
        to = event.get("to")
        kind = event.get("type")
        if to is None and kind in public or to == seat and kind in own:
            out.append({key: value for key, value in event.items() if key != "to"})
    return out, len(events)
