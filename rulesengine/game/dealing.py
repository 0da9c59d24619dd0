"""How the cards are dealt at the start of a round, by version of the save/log format.

The cards left undealt last round are known to every seat by the round's end (every drafted card
is face up), so they are dealt first, one card at a time around the table, as the rulebooks deal
the set-aside cards; each hand is then filled from the shuffled rest. Version 1 dealt them as one
block to seat 0, so every opponent knew seat 0's next hand; it is kept only so that saves and logs
written before the change replay. It must never be used for a new game.
"""

from __future__ import annotations

# the format of new saves and logs (3: bots draw from integer seeds; 4: a repeated question's also by the seat's
# step; 5: no mulligan draws a hand returned in the same round (game/blocks/mulligan.py); 6: the guided bot plans its
# once-per-game choices (bots/choices.py, bots/seeding.PLANNED_CHOICES); the deal is 2's)
DEAL_VERSION = 6


def deal(
    leftover: list, rest: list, players: int, hand_size: int, version: int = DEAL_VERSION
) -> tuple[list[list], list]:
    """The hands and the cards left undealt, from last round's shuffled leftover and the shuffled rest."""
    if version == 1 or not leftover:  # (with nothing left over, both versions deal the rest in turn)
        deck = [*leftover, *rest]
        return [deck[seat * hand_size : (seat + 1) * hand_size] for seat in range(players)], deck[players * hand_size :]
    hands: list[list] = [[] for _ in range(players)]
    dealt = players * hand_size
    for index, card in enumerate(leftover[:dealt]):
        hands[index % players].append(card)
    rest = [*leftover[dealt:], *rest]
    at = 0  # rest[:at] is dealt
    for hand in hands:
        need = hand_size - len(hand)
        hand.extend(rest[at : at + need])
        at += need
    return hands, rest[at:]
