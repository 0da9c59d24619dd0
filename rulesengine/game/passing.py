"""The pass of a drafting round, the one rule the game's blocks and the bots' rollouts both use.

Kept apart from the Game so that a rollout that plays thousands of passes calls the same few lines
the real game does; it never looks at anything but the hands, the cards taken and the picks.
"""

from __future__ import annotations

from ..edition.model import Passing


def play_picks(passing: Passing, round_index: int, hands: list, drafts: list, picks: list, take_catch: bool = True,
               pass_index: int = 0):
    """One turn of a drafting round, as the rules play it: every seat moves its pick (a card, or a tuple
    of cards on a pass of several) from its hand to the cards it took, and the hands pass on in this
    round's direction (this pass's, pass_index from 0, with passing.each_pass); when one card is left in
    each, that card (the Catch) is passed, the other way with `catch: previous`, and, with take_catch,
    taken at once.
    Returns the hands after the turn (empty once the Catch is taken); `drafts` changes in place."""
    for seat, card in enumerate(picks):  # one pick a seat (by index: a zip's strict= costs a keyword parse a pass)
        hand, taken = hands[seat], drafts[seat]
        if type(card) is tuple:
            for one in card:
                hand.remove(one)
                taken.append(one)
            continue
        hand.remove(card)
        taken.append(card)
    direction = passing.direction(round_index, pass_index)
    if len(hands[0]) == 1 and passing.catch == "previous":
        direction = -direction
    hands = hands[-direction:] + hands[:-direction]  # seat s gets the hand of seat s - direction
    if take_catch and len(hands[0]) == 1:
        for seat in range(len(hands)):
            drafts[seat].append(hands[seat].pop())
    return hands
