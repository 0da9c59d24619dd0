"""The greedy and search bots' answer to a decision whose block declares it a claim, a bid or a declaration.

A claim (Asked.effect CLAIM: the secret choice) names an icon whose cards of the circle the seat will
claim; a bid (BID) throws a token into the pot or stops; a declaration (DECLARE: a secret choice in a
drafting round) names the icon a round-end choice will score, before any card of the round is known.
Greedy values an icon by the points the cards showing it would add to this seat's margin over the best
rival, and bids while the pot is worth less than those cards. Search samples what a seat cannot see
(the other seats' secret choices this round, the order of the deck), plays the round out from there
with the greedy policy, and keeps the answer with the best mean margin. Both declare alike (see
declared_answer). It reads only the seat's view: another seat's secret choice is never an input, only
a guess."""

from __future__ import annotations

import random
from types import SimpleNamespace

from ..edition.model import Edition
from ..edition.steps import BID, CLAIM, DECLARE, SecretChoice
from ..game.blocks import round_plan
from ..game.blocks.bidding import STOP, THROW_TOKEN
from ..game.scoring import ScoreKeeper
from ..game.state import Game
from .allowance import Allowance, Spent

TOKEN_WORTH = 1 / 6  # a kept token is worth a sixth of a point (and breaks ties)


def margin(edition: Edition, seat: int, captured: list, kept: list) -> float:
    """This seat's total minus the best rival's, tokens counted at their worth."""
    keeper = ScoreKeeper(edition, [str(s) for s in range(len(captured))])
    keeper.holdings = SimpleNamespace(captured=captured, stocks=kept)
    sheet = keeper.sheet()
    worth = [p["total"] + TOKEN_WORTH * sum(kept[s].values()) for s, p in enumerate(sheet["players"])]
    return worth[seat] - max(w for s, w in enumerate(worth) if s != seat)


def _state(edition: Edition, view: dict) -> tuple[list, list, list]:
    card = edition.card
    return (
        [card(x) for x in view["circle"]],
        [[card(x) for x in cards] for cards in view["captured"]],
        [dict(k) for k in view["stocks"]],
    )


def choice_values(edition: Edition, view: dict, icons) -> dict:
    """icon -> the margin gained by capturing every card of the circle showing it."""
    circle, captured, kept = _state(edition, view)
    seat = view["seat"]
    base = margin(edition, seat, captured, kept)
    values = {}
    for icon in icons:
        mine = [list(cards) for cards in captured]
        mine[seat] = mine[seat] + [c for c in circle if icon in c.icons]
        values[icon] = margin(edition, seat, mine, kept) - base
    return values


def declared_answer(edition: Edition, decision, rng: random.Random):
    """A choice declared in secret before the seat's cards are known (Asked.effect DECLARE): the icon among
    the options that most cards of the deck show, a tie drawn at random. The greedy and search bots both
    answer so: no card of the round is known yet to value the icons by."""
    shown = {icon: sum(icon in card.icons for card in edition.cards) for icon in decision.options}
    most = max(shown.values())
    return rng.choice([icon for icon in decision.options if shown[icon] == most])


def greedy_answer(edition: Edition, view: dict, decision, rng: random.Random):
    effect = round_plan(edition).asks[decision.kind].effect
    if effect == DECLARE:
        return declared_answer(edition, decision, rng)
    if effect == CLAIM:
        values = choice_values(edition, view, decision.options)
        best = max(values.values())
        return rng.choice([icon for icon in decision.options if values[icon] == best])
    if effect == BID:
        worth = choice_values(edition, view, [view["secret"]])[view["secret"]]
        stock = next(iter(view["stocks"][view["seat"]]))
        left = view["stocks"][view["seat"]][stock]
        return THROW_TOKEN if left > 0 and view["pot"] * TOKEN_WORTH * 3 < worth else STOP
    return decision.options[0]


def likely_choices(edition: Edition, view: dict) -> dict:
    """seat -> the icons greedy would pick in that seat, for each other seat that has chosen."""
    family = edition.round.step(SecretChoice).family
    liked = {}
    for other in view["chosen"]:
        if other != view["seat"]:
            values = choice_values(edition, dict(view, seat=other), family.icons)
            liked[other] = [icon for icon in family.icons if values[icon] == max(values.values())]
    return liked


def sample_game(edition: Edition, view: dict, rng: random.Random, liked: dict) -> Game:
    """A game at this seat's position, with what it cannot see drawn at random (others' secret
    choices mostly among `liked`, the deck's order)."""
    circle, captured, kept = _state(edition, view)
    seen = {c.letter for c in circle} | {c.letter for cards in captured for c in cards}
    unseen = [c for c in edition.cards if c.letter not in seen]
    rng.shuffle(unseen)
    secrets = {}
    family = edition.round.step(SecretChoice).family
    for other in range(len(view["players"])):
        if other == view["seat"]:
            if view["secret"] is not None:
                secrets[other] = view["secret"]
        elif other in liked:  # a guess: mostly what greedy would pick in that seat
            secrets[other] = rng.choice(liked[other] if rng.random() < 0.7 else family.icons)
    bidding = len(secrets) == len(view["players"])
    return Game.at_position(
        edition,
        view["players"],
        rng.randrange(1 << 30),
        round=view["round"] - 1,
        at="bidding" if bidding else "secret_choice",
        phase="bid" if bidding else "secret",
        deck=unseen[: view["deck"]],
        circle=circle,
        captured=captured,
        stocks=kept,
        secrets=secrets,
        still_in=view["still_in"],
        stack=view["stack"],
        pot=view["pot"],
        turn=view["turn"],
        first=view["first"],
    )


def search_values(edition: Edition, view: dict, decision, rng: random.Random, rollouts: int,
                  steps: int | None = None) -> dict:
    """option -> mean margin at the end of this round over sampled positions; empty if the decision's
    `steps` (allowance.py) were spent before one position was played out with every option."""
    totals = dict.fromkeys(decision.options, 0.0)
    per_option = max(1, rollouts // len(decision.options))
    allowance = Allowance(steps)
    liked = likely_choices(edition, view)
    played = 0
    for _ in range(per_option):
        world = rng.randrange(1 << 30)
        try:
            margins = [_played_out(edition, view, decision, option, world, liked, allowance)
                       for option in decision.options]
        except Spent:
            break   # the decision has spent its steps: the position under way is dropped
        for option, value in zip(decision.options, margins, strict=True):
            totals[option] += value
        played += 1
    return {option: total / played for option, total in totals.items()} if played else {}


def _played_out(edition: Edition, view: dict, decision, option, world: int, liked: dict, allowance) -> float:
    """The seat's margin at the end of this round after `option`, in the position sampled from `world`."""
    seat = view["seat"]
    game = sample_game(edition, view, random.Random(world), liked)
    game.apply(seat, option, decision.category)
    playout = random.Random(world + 1)
    while not game.over and game.round == view["round"] - 1:
        for pending in game.pending():
            allowance.check()
            game.apply(pending.seat, greedy_answer(edition, _seen(game, pending.seat), pending, playout),
                       pending.category)
    return margin(edition, seat, game.places.captured, game.places.stocks)


def _seen(game: Game, seat: int) -> dict:
    """The part of view(seat) the greedy policy reads, without the sheet: rollouts ask it often."""
    places = game.places
    return {
        "seat": seat,
        "circle": [c.letter for c in places.circle],
        "pot": game.block_named("bidding").pot,
        "secret": places.secrets.get(seat),
        "captured": [[c.letter for c in cards] for cards in places.captured],
        "stocks": places.stocks,
    }


def search_answer(edition: Edition, view: dict, decision, rng: random.Random, rollouts: int,
                  steps: int | None = None):
    """The option with the best mean margin over sampled positions; the greedy answer if the decision's
    steps were spent before one position was played out."""
    if round_plan(edition).asks[decision.kind].effect == DECLARE:
        return declared_answer(edition, decision, rng)
    values = search_values(edition, view, decision, rng, rollouts, steps)
    if not values:
        return greedy_answer(edition, view, decision, rng)
    best = max(values.values())
    return next(option for option in decision.options if values[option] == best)
