"""What a card or a choice would be worth to a seat right now: the numbers behind the terminal's `?`.

A human asks "what does this card do for me?"; the answer must come from the edition's compiled
categories and races (so it holds for every edition) and from the seat's view only. This module
computes; the terminal prints. It never reads the game state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..edition.model import Edition
from ..game.state import Decision
from .evaluate import breakdown, card_list, choice_points, face_up_cards, standing_from_view
from .greedy import GreedyAgent, my_drafts


@dataclass(frozen=True)
class CardAdvice:
    """One card of the hand: the sheet with the cards taken so far, with this card too, and the
    greedy bot's estimate of the whole round's gain if it is taken now."""

    letter: str
    before: dict
    after: dict
    expected: float

    def change(self, key: str) -> float:
        return self.after.get(key, 0) - self.before.get(key, 0)


@dataclass(frozen=True)
class ChoiceOption:
    icon: str | None
    points: float
    note: str = ""


def sheet_keys(edition: Edition) -> list[tuple[str, str]]:
    """(key, title) of every line a card can move: categories, then races."""
    return [(c.key, c.title) for c in edition.categories] + [(r.key, r.title) for r in edition.races]


def catch_keys(edition: Edition) -> set[str]:
    """The categories whose score reads the Catch card: unknown while the Throw is chosen."""
    return {c.key for c in edition.categories if c.score is not None and "catch" in c.score.variables}


def shown_lines(edition: Edition, advice: list[CardAdvice], throw: bool) -> list[tuple[str, str]]:
    """(key, title) of the sheet lines the advice shows: those some card changes, and at the Throw only
    those known before the Catch (the terminal's `?` and the web page's show the same)."""
    hidden = catch_keys(edition) if throw else set()
    return [(key, title) for key, title in sheet_keys(edition)
            if key not in hidden and any(item.change(key) for item in advice)]


def advice_data(edition: Edition, view: dict, decision: Decision) -> dict:
    """The advice of a Throw or a draft as data (for the web page): the lines shown, and for every card
    of the hand what it changes on them and the expected round score, as the terminal prints them."""
    advice = card_advice(edition, view, decision)
    lines = shown_lines(edition, advice, decision.kind == "throw")
    return {
        "lines": [[key, title] for key, title in lines],
        "cards": [{"letter": item.letter, "changes": {key: item.change(key) for key, _ in lines if item.change(key)},
                   "expected": round(item.expected, 1)} for item in advice],
    }


def card_advice(edition: Edition, view: dict, decision: Decision, samples: int = 6) -> list[CardAdvice]:
    """Advice for every card this decision offers (a Throw or a draft), in the hand's order."""
    standing = standing_from_view(edition, view)
    seat, drafts, others = view["seat"], my_drafts(edition, view), face_up_cards(edition, view)[1]
    before = breakdown(standing, seat, drafts, others)
    gains = GreedyAgent(0, edition, samples=samples).gains(
        view, decision, random.Random(f"advice/{view['round']}/{len(drafts)}")
    )
    return [
        CardAdvice(card.letter, before, breakdown(standing, seat, drafts + [card], others), gains[card.letter])
        for card in card_list(edition, decision.options)
    ]


def choice_advice(edition: Edition, view: dict, decision: Decision) -> list[ChoiceOption]:
    """Every option of a round-end choice with the points it scores now; icons already used are noted."""
    standing = standing_from_view(edition, view)
    seat = view["seat"]
    category = next(c for c in edition.choice_categories if c.key == decision.category)
    points = choice_points(standing, seat, category, *face_up_cards(edition, view))
    used = standing.seats[seat].used.get(category.key, frozenset())
    options = [ChoiceOption(icon, points.get(icon, 0)) for icon in decision.options if icon is not None]
    options += [
        ChoiceOption(icon, 0, "scored in an earlier round") for icon in category.choice.family.icons if icon in used
    ]
    options += [
        ChoiceOption(icon, 0, "not allowed with these cards")
        for icon in category.choice.family.icons
        if icon not in used and icon not in decision.options
    ]
    options.append(ChoiceOption(None, 0, "keep every icon for later" if category.choice.once_per_game else ""))
    return options
