"""The builtins' calls of an expression as Python source: the part of the Generator (expression.py) that
writes a call, in its cheapest form the tree allows.

A call is written as the builtin's own function (builtins.REGISTRY, handed in as a constant) unless a
form of its arguments the generated function holds answers it: a count from the tally of the cards,
`len`, `subset`, `intersects` and `connected` from a set or a bitmask, a sum over a family's icons
from the tally, a `lookup` of a known table in place, `value` of a known icon as its number. Each
form gives the value (and the error) the builtin would. Which forms are held is the Generator's
(Held) and the tree's (reads.Scoped): this mixin reads them through `self`.
"""

from __future__ import annotations

from .. import ast
from ..builtins import REGISTRY
from .helpers import FASTER, Unsupported, connected_masks, located, neighbour_bytes


class Calls:
    """visit_Call and its special forms, for the Generator (expression.py), which holds every name used here."""

    def sum_by_counts(self, node) -> str | None:
        """sum([f(i) for i in icons(cards, family) if c(i)]) from the tally the function holds of cards:
        the sum over the family's icons of f(icon) times how often the icon is printed, f worked out only
        for an icon the cards show (so it fails where the list would). An element sees nothing but its
        icon and what stays the same all through the list, so every occurrence of an icon adds the same.
        None: the list is generated as it is written."""
        found = self.by_counts(node, bool(self.in_source))
        tally = self.held_form(self.held.tallies, found[0]) if found is not None else None
        if tally is None:
            return None

        def term(icon: str) -> str:
            times = self.fresh()
            test = f"({times} := {self.count_in_constant(tally, icon)})"
            if node.condition is not None:
                test = f"{test} and {self.visit(node.condition)}"
            return f"({self.visit(node.element)} * {times} if {test} else 0)"

        terms = self.for_each(node.name, found[1].icons, term)
        return "(" + " + ".join(terms or ["0"]) + ")"

    def count_in_constant(self, tally: str, icon: str) -> str:
        full = self.held.full
        if full is not None and tally in full.tallies and icon in full.icons:
            return full.read(tally, icon, self.constant(icon) if full.index is None else "")
        if full is not None and tally in full.tallies and full.index is not None:
            return "0"   # a packed tally holds every icon a card shows
        return f"{tally}.get({self.constant(icon)}, 0)"

    def visit_Call(self, node):
        entry = REGISTRY.get(node.function)
        if entry is None:
            raise Unsupported(node.function)
        function, args = node.function, node.args
        if function == "sum":
            counted = self.sum_by_counts(args[0])
            if counted is not None:
                return counted
            items = self.written_out(args[0])
            if items is not None:   # the numbers added in place, without the list
                elements = self.for_each(args[0].name, items, lambda item: self.visit(args[0].element))
                return "(" + " + ".join(elements or ["0"]) + ")"
            if isinstance(args[0], ast.ListLiteral):
                return "(" + " + ".join([self.visit(item) for item in args[0].items] or ["0"]) + ")"
        if function in ("all", "any"):
            items = self.written_out(args[0])
            elements = None
            if items is not None:
                elements = self.for_each(args[0].name, items, lambda item: self.visit(args[0].element))
            elif isinstance(args[0], ast.ListLiteral):
                elements = [self.visit(item) for item in args[0].items]
            if elements is not None:   # every element worked out, as the list would be: & and |, not and/or
                joined = " & " if function == "all" else " | "
                return "(" + joined.join(f"({e})" for e in elements) + ")" if elements else repr(function == "all")
        if function == "count":
            return self.count(node)
        held = self.held_call(node)
        if held is not None:
            return held
        sources = [self.visit(arg) for arg in args]
        if function == "value":   # the value of an icon named by a constant (kinds written out) is a number
            icon, values = self.known(args[0]), getattr(self.edition, "icon_values", None)
            if values is not None and type(icon) is str and type(values.get(icon)) is int:
                return repr(values[icon])
            if values is not None:   # the checker let only an icon of a valued family through
                return f"{self.constant(values)}[{sources[0]}]"
        if function == "lookup" and hasattr(self.known(args[0]), "rows"):
            return self.lookup(node, sources)
        if function == "kinds" and self.family(args[0]) is not None:
            return self.constant(list(self.family(args[0]).icons))  # the same list at every call
        if function in FASTER:
            return f"{FASTER[function]}({', '.join(sources)})"
        if entry.needs_edition:
            sources.append(self.constant(self.edition))
        run = located(entry.run, node) if entry.fails else entry.run
        return f"{self.constant(run)}({', '.join(sources)})"

    def count(self, node) -> str:
        icon_node, cards_node = node.args
        icon = self.visit(icon_node)
        tally = self.held_form(self.held.tallies, cards_node)
        if tally is not None:
            return self.count_in(tally, icon_node, icon)
        cards = self.visit(cards_node)
        shape = self.shape(cards_node) if self.free(cards_node) else None
        if shape is None or shape not in self.hoisted:
            return f"_count({icon}, {cards})"
        if shape not in self.tallies:
            self.tallies[shape] = (cards, f"{self.tally_prefix}{len(self.tallies)}")
        return f"{self.tallies[shape][1]}.get({icon}, 0)"

    def lookup(self, node, sources: list) -> str:
        table = self.known(node.args[0])
        rows = self.constant(table.rows)
        if len(sources) == 3:
            return f"{rows}.get({sources[1]}, {sources[2]})"
        if self.held.caught:
            return f"{rows}[{sources[1]}]"
        if self.in_source:
            return f"{self.constant(located(REGISTRY['lookup'].run, node))}({', '.join(sources)})"
        key = self.fresh()
        return f"({rows}[{key}] if ({key} := {sources[1]}) in {rows} else _no_row({sources[0]}, {key}, " \
               f"{self.constant(node)}))"

    def held_call(self, node) -> str | None:
        """A call answered by a form of a game value the function holds (its bitmask, its set, its
        length), as reads.Uses found it may be; None: generated as usual."""
        function, args = node.function, node.args
        masks = self.held.masks.locals if self.held.masks is not None else {}
        if function == "len":
            mask = self.held_form(masks, args[0])
            if mask is not None:
                return f"{mask}.bit_count()"
            held = self.held_form(self.held.lengths, args[0])
            return f"len({held})" if held is not None else None
        if function in ("subset", "intersects"):
            mask = self.held_form(masks, args[1]) if self.mask_able(args[0]) else None
            if mask is not None:
                ends = self.mask_of(args[0])
                if function == "subset" and ends.isdigit():   # a constant mask: one & (no ~ making a new int)
                    return f"(({ends} & {mask}) == {ends})"
                if function == "subset":
                    return f"(not ({ends} & ~{mask}))"
                return f"(({ends} & {mask}) != 0)"
            held = self.held_form(self.held.sets, args[1])
            if held is None:
                return None
            test = f"{held}.{'issuperset' if function == 'subset' else 'isdisjoint'}({self.visit(args[0])})"
            return test if function == "subset" else f"(not {test})"
        if function == "connected":
            if all(self.mask_able(end) for end in args[1:]) and self.held.masks is not None \
                    and self.held.masks.neighbours:
                mask = self.held_form(masks, args[0])
                if mask is not None:
                    ends = [self.mask_of(end) for end in args[1:]]
                    return (f"{self.constant(connected_masks)}({mask}, {ends[0]}, {ends[1]}, "
                            f"{self.constant(neighbour_bytes(self.held.masks.neighbours))})")
            held = self.held_form(self.held.sets, args[0])
            if held is not None:   # the nodes as a set: the same nodes
                sources = [held, *[self.visit(end) for end in args[1:]], self.constant(self.edition)]
                return f"{self.constant(REGISTRY[function].run)}({', '.join(sources)})"
        return None

    def mask_of(self, node) -> str:
        """The source of the mask of a cards value that mask_able said has one."""
        regions = self.held.masks.regions
        if self.path(node) == "region.cards":   # the race's region
            return f"{self.constant(regions)}[{self.held.read('region')}]"
        if isinstance(node, ast.Attribute):
            return repr(regions[self.known(node.target)])
        mask = 0
        for card in self.known(node):
            mask |= 1 << card.index
        return repr(mask)
