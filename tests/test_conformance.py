"""Every shipped edition and variant played through the block protocol by random seats, checked at every step
(OpenSpiel's random_sim_test is the model): the decisions asked are legal and answerable, the game ends with a
sheet its own record scores to, every view key and event is one its blocks declare, and each seat's view holds
nothing its blocks declare hidden from it (Game.hidden). The last is checked by changing what is hidden:
the hidden cards dealt anew among their places (the other hands, ghost hands included, the undealt cards, the
deck, the face-down Throws) and every hidden value (a secret choice, a pending answer) set to another option,
the seat's view must stay exactly the same; and no event told to a seat names a card hidden from it."""

from __future__ import annotations

import random

import pytest
from shipped import shipped_that_load

from rulesengine import load_edition, score_record
from rulesengine.bots.registry import RandomAgent, agent_seed
from rulesengine.edition.source import SourceMap
from rulesengine.game.blocks import OWN, PUBLIC, decisions_made, round_plan
from rulesengine.game.state import Game
from rulesengine.net.secrecy import view_keys


def player_counts(edition) -> list[int]:
    fitting = [n for n in range(edition.players_min, min(edition.players_max, 5) + 1) if edition.draft.fits(n)]
    return sorted({fitting[0], fitting[-1]})


CASES = [(path, n) for path in shipped_that_load() for n in player_counts(load_edition(path))]  # broken: test_shipped


def letters_in(value) -> set:
    """Every string anywhere in a view or an event (card letters among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(letters_in(v) for v in value.values()), set()) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(letters_in(v) for v in value)) if value else set()
    return set()


def hidden_letters(game: Game, seat: int) -> set:
    hidden = game.hidden(seat)
    cards = [c for place in hidden.cards for c in place] + [place[index] for place, index in hidden.face_down]
    return {c.letter for c in cards}


def changed_view(game: Game, seat: int, rng: random.Random) -> dict:
    """The seat's view with everything hidden from it changed (then put back as it was)."""
    hidden = game.hidden(seat)
    places = list({id(place): place for place in hidden.cards}.values())
    kept = [list(place) for place in places]
    down = [(place, index, place[index]) for place, index in hidden.face_down]
    values = [(mapping, key, mapping[key]) for mapping, key, _ in hidden.values]
    pool = [c for place in kept for c in place] + [card for _, _, card in down]
    rng.shuffle(pool)
    at = 0
    for place in places:
        place[:] = pool[at: at + len(place)]
        at += len(place)
    for place, index, _ in down:
        place[index] = pool[at]
        at += 1
    for mapping, key, options in hidden.values:
        others = [o for o in options if o != mapping[key]]
        if others:
            mapping[key] = rng.choice(others)
    try:
        return game.view(seat)
    finally:
        for place, cards in zip(places, kept, strict=True):
            place[:] = cards
        for place, index, card in down:
            place[index] = card
        for mapping, key, value in values:
            mapping[key] = value


@pytest.mark.parametrize("path, players", CASES, ids=lambda v: v.stem if hasattr(v, "stem") else f"{v}p")
def test_random_seats_play_every_edition_through_the_blocks_and_no_view_shows_what_is_hidden(path, players):
    edition = load_edition(path)
    plan, keys = round_plan(edition), set(view_keys(edition))
    seed = 7 + players
    names = [f"P{s + 1}" for s in range(players)]
    game = Game(edition, names, seed)
    agents = [RandomAgent(agent_seed(seed, s), edition) for s in range(players)]
    rng = random.Random(seed)
    told, changes, steps = 0, 0, 0
    while not game.over:
        pending = game.pending()
        assert pending, "a game not over waits for a decision"
        for seat in game.seats:
            view = game.view(seat)
            assert set(view) <= keys and decisions_made(edition, view) >= 0
            hidden = game.hidden(seat)
            changes += bool(hidden.cards or hidden.face_down or hidden.values)
            assert changed_view(game, seat, rng) == view, f"seat {seat} sees something hidden at step {steps}"
            assert game.view(seat) == view  # and the game is as it was
        decision = pending[0]
        assert decision.seat in game.seats and decision.options
        assert set(decision.options) <= set(plan.asks[decision.kind].options or decision.options)
        answer = agents[decision.seat].decide(game.view(decision.seat), decision)
        assert answer in decision.options
        game.apply(decision.seat, answer, decision.category)
        steps += 1
        for event in game.events[told:]:
            audience = plan.events[event["type"]]
            seats = list(game.seats) if event["to"] is None else [event["to"]]
            assert audience == (PUBLIC if event["to"] is None else OWN), event
            for seat in seats:
                assert not letters_in({k: v for k, v in event.items() if k != "to"}) & hidden_letters(game, seat), (
                    f"{event} tells seat {seat} a card hidden from it")
        told = len(game.events)
    assert changes, "something was hidden at some step"
    sheet = game.scores.sheet()
    assert [p["name"] for p in sheet["players"]] == names and sheet["winners"]
    assert score_record(edition, game.record(), SourceMap("<record>", {})) == sheet
