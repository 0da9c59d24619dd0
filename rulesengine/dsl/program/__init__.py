"""The compiler of scoring programs: an edition's expressions, from their checked trees, as the
generated Python functions the score sheet and the bots call.

The language knows no edition: what it compiles is handed to it as data, duck-typed (`rules`: an
object with the edition's categories, races, regions, cards, families, map paths and icon values;
`scopes`: the variables each kind of expression sees; `inputs`: the names of each function's
keyword-only inputs, declared in rulesengine/edition/scopes.py). rulesengine/game/program.py puts
an edition's program together from these, or from the reference interpreter, as its runner says.

    reads.py       what an expression reads of the game, and in what form (the tree analysis, made once
                   an expression and kept with it: reads_of)
    expression.py  one expression as Python source, alone or as a statement of a larger function;
                   calls.py: a call of a builtin, in the cheapest form the held values allow
    writer.py      several expressions as the statements of one function
    sheet.py       the score sheet's functions: a seat's round, races, choices, game end
    value.py       the bots' value of a hand; order.py: the values of a sampled order's options at once;
                   pick.py: the search bot's rollout pick of one hand, the tally packed
    names.py       the local names of generated code; helpers.py: what generated code calls
"""

from __future__ import annotations

from .expression import Unsupported, compile_to_python, generate
from .helpers import (
    Full,
    Masks,
    card_mask,
    connected_masks,
    deck_order,
    every_icon,
    icon_counts,
    visited_after,
)
from .order import write_order
from .pick import write_pick
from .reads import analyse, reads_of
from .sheet import Needs, Sheet, compile_sheet, end_categories, round_categories, write_end, write_round
from .value import SEAT_BY_SEAT, category_reads, counted_only, write_own_value, write_shared_value
from .writer import FAILED

__all__ = [
    "FAILED",
    "Full",
    "Masks",
    "Needs",
    "SEAT_BY_SEAT",
    "Sheet",
    "Unsupported",
    "analyse",
    "card_mask",
    "category_reads",
    "compile_sheet",
    "compile_to_python",
    "connected_masks",
    "counted_only",
    "deck_order",
    "end_categories",
    "every_icon",
    "generate",
    "icon_counts",
    "reads_of",
    "round_categories",
    "visited_after",
    "write_end",
    "write_order",
    "write_own_value",
    "write_pick",
    "write_round",
    "write_shared_value",
]
