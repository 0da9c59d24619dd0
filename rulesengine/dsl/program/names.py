"""The local names of generated scoring code, declared once.

A generated function names its game variables, the tallies, sets and bitmasks of them it works out
once a call, and the memo of its races; the expression generator, the writers of the sheet's round
and of the bots' value, and their tests all name them through this module, so a new variable or a
new form of one is declared here and nowhere else. No name here can be one an edition writes: an
edition's own names reach generated code only as constants (k0, k1, ...) or as `g_` + a variable
the checker let through.
"""

from __future__ import annotations

GAME = "g_"        # + a game variable of the language: its value, as the expression reads it


def game(variable: str) -> str:
    """The local holding a game variable of the language (`cards`, `visited`, `region`...)."""
    return GAME + variable


CARDS, VISITED, THROW, CATCH = game("cards"), game("visited"), game("throw"), game("catch")
OTHERS, OPPONENTS, LEFT, RIGHT = game("others"), game("opponents"), game("left"), game("right")
CHOICE, REGION, PREVIOUS = game("choice"), game("region"), game("previous")
PLAYERS, ROUND, ROUNDS = game("players"), game("round"), game("rounds")

# The forms of a game value a function may hold besides the value itself, by the value's path (a
# variable, or a seat variable's `.cards` / `.visited`): see reads.Path.
TALLY = {"cards": "T_cards", "visited": "T_visited", "others": "T_others"}   # icon -> how often printed
SET = {"cards": "S_cards", "visited": "S_visited"}                          # the value as a frozenset
MASK = {"visited": "M_visited"}                                              # bit card.index of each card
CHOICE_COUNT = "C_choice"          # the count of the choice's icon on the seat's cards, read once an icon
# The search bot's rollout pick (pick.py, counted.py): the packed tally of a hand as an int, and a category's
# points remembered by the bytes of it they read (+ the category's number: the memo, those bytes' mask).
PACKED, REMEMBERED, COUNTED = "P_cards", "Q_memo", "Q_bytes"
OTHERS_COUNTED = "O_bytes"         # a category's bytes of the other seats' packed tally it reads (`others` in pick.py)

# The bots' order function (order.py) remembers the races and game-end points of the visited cards.
MEMO = "R_memo"                    # visited mask -> those points, shared by the orders of one decision
SITES = "R_sites"                  # the visited cards they were last worked out for
RACES_VALUE = "R_value"            # those points

# The hands of one order (order.py): the cards of what every option shares, and of the head of the order.
HEAD = {"tally": "H_tally", "visited": "H_visited", "sites": "H_sites", "others": "H_others"}
OTHERS_BASE, OTHERS_FIRST = "O_base", "O_first"   # the other seats' counts, less the hand's shared cards

LOCAL = "v"        # + a number: a name bound by `let` or a comprehension
CONSTANT = "k"     # + a number: a constant the generated function is handed
HOISTED = "t"      # + numbers: a tally an expression makes of a cards value it counts more than once
