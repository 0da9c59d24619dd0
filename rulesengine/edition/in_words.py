"""A scoring expression said in plain words, for `boom rules` when an author gave no description.

"the sum of the values of the Americana icons on your cards this round, if more than your
Americana score of the previous round, else 0". A small pretty-printer over the syntax tree
(rulesengine/dsl/ast.py), one method per node kind (`words_Number`, `words_Call`...), so it is
easy to follow and to adapt. It reads names from the edition (family titles, table names) and
never evaluates anything; its output contains no expression syntax.
"""

from __future__ import annotations

from ..dsl import ast

VARIABLES = {
    "cards": "your cards this round",
    "throw": "your Throw card",
    "catch": "your Catch card",
    "others": "the other players' cards this round",
    "visited": "the cards you have visited",
    "players": "the number of players",
    "round": "the round number",
    "choice": "the chosen icon",
    "place": "the place",
    "region": "the region",
    "regions": "the regions",
    "deck": "every card of the game",
    "opponents": "the other players",
    "left": "your left neighbour",
    "right": "your right neighbour",
    "round_totals": "your round totals",
}
OPERATORS = {
    "+": "plus",
    "-": "minus",
    "*": "times",
    "%": "modulo",
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
    "and": "and",
    "or": "or",
    "in": "is among",
    "not in": "is not among",
    "notin": "is not among",
}
ATTRIBUTES = {
    "number": "the number",
    "region": "the region",
    "cards": "the cards",
    "visited": "the cards visited",
    "bonus": "the bonus",
    "name": "the name",
}
NOUNS = {"icons": "icon", "kinds": "kind", "regions": "region", "opponents": "player", "round_totals": "round total"}


def in_words(text: str, edition=None, title: str = "this category", known: dict | None = None) -> str:
    """The expression `text` in words; `title` names the category `previous` refers to; `known`
    gives the words for a variable whose value is known (e.g. {"choice": "Swimming"})."""
    from ..dsl.parser import parse  # here: a game imports this module, and parses only to say a refusal

    words = Words(edition, title)
    words.bound.update(known or {})
    return words.words(parse(text))


class Words:
    def __init__(self, edition, title: str):
        self.edition = edition
        self.title = title
        self.bound: dict[str, str] = {}  # let and loop names -> their words

    def words(self, node: ast.Node) -> str:
        return getattr(self, f"words_{type(node).__name__}")(node)

    # -- leaves ----------------------------------------------------------------------------
    def words_Number(self, node: ast.Number) -> str:
        return str(node.value)

    def words_Bool(self, node: ast.Bool) -> str:
        return "true" if node.value else "false"

    def words_Symbol(self, node: ast.Symbol) -> str:
        edition = self.edition
        card = edition.card(node.text) if edition is not None else None
        if card is not None and not any(node.text in f.icon_set for f in edition.families.values()):
            return f"card {node.text} ({card.name})"
        return node.text

    def words_Name(self, node: ast.Name) -> str:
        name = node.name
        if name in self.bound:
            return self.bound[name]
        if name == "previous":
            return f"your {self.title} score of the previous round"
        if name in VARIABLES:
            return VARIABLES[name]
        edition = self.edition
        if edition is not None and name in edition.families:
            return f"the {edition.families[name].title} icons"
        if edition is not None and name in edition.card_sets:
            return f"the {name.replace('_', ' ')} cards ({', '.join(c.letter for c in edition.card_sets[name])})"
        return f"the {name.replace('_', ' ')}"

    # -- compound expressions --------------------------------------------------------------
    def words_Attribute(self, node: ast.Attribute) -> str:
        return f"{ATTRIBUTES.get(node.name, 'the ' + node.name)} of {self.words(node.target)}"

    def words_Unary(self, node: ast.Unary) -> str:
        return f"not ({self.words(node.operand)})" if node.op == "not" else f"minus {self.words(node.operand)}"

    def words_Binary(self, node: ast.Binary) -> str:
        left, right = self.words(node.left), self.words(node.right)
        if node.op == "//":
            return f"{self._group(node.left, left)} divided by {self._group(node.right, right)}, rounded down"
        if node.op == "*" and isinstance(node.left, ast.Number):
            return f"{left} times {self._group(node.right, right)}"
        return f"{self._group(node.left, left)} {OPERATORS[node.op]} {self._group(node.right, right)}"

    def words_If(self, node: ast.If) -> str:
        cases, otherwise = [], node
        while isinstance(otherwise, ast.If):
            cases.append(f"{self.words(otherwise.then)} if {self.words(otherwise.condition)}")
            otherwise = otherwise.otherwise
        return "; ".join(cases) + f"{';' if len(cases) > 1 else ','} else {self.words(otherwise)}"

    def words_Let(self, node: ast.Let) -> str:
        """Said once and named when the body uses the name more than once; else said in place."""
        value = self.words(node.value)
        uses = sum(1 for n in _walk(node.body) if _is_name(n, node.name))
        outer = self.bound.get(node.name)
        self.bound[node.name] = value if uses <= 1 else node.name
        try:
            body = self.words(node.body)
        finally:
            self._unbind(node.name, outer)
        return body if uses <= 1 else f"{body}, where {node.name} is {value}"

    def words_ListLiteral(self, node: ast.ListLiteral) -> str:
        items = [self.words(item) for item in node.items]
        if not items:
            return "nothing"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    def words_Comprehension(self, node: ast.Comprehension, lead: str = "") -> str:
        """A list built item by item; `lead` ("the sum", "for every") when a function takes the list whole."""
        noun = self._noun(node.source)
        source = self._source(node.source)
        outer = self.bound.get(node.name)
        self.bound[node.name] = f"that {noun}"
        try:
            element = node.element
            if self._simple(node):
                return f"the values of {source}"
            condition = f" where {self.words(node.condition)}" if node.condition is not None else ""
            element_words = self.words(element)
            if lead.startswith("for"):
                return f"{lead} {noun} of {source}{condition}, {element_words}"
            if lead:
                return f"{lead}, for each {noun} of {source}{condition}, of {element_words}"
            if _is_name(element, node.name):
                return f"{source}{condition}"
            return f"{element_words}, for each {noun} of {source}{condition}"
        finally:
            self._unbind(node.name, outer)

    def words_Call(self, node: ast.Call) -> str:
        args = node.args
        leads = {"sum": "the sum", "all": "for every", "any": "for at least one"}
        if node.function in leads and len(args) == 1 and isinstance(args[0], ast.Comprehension):
            if node.function == "sum" and not self._simple(args[0]):
                return self.words_Comprehension(args[0], leads["sum"])
            if node.function != "sum":
                return self.words_Comprehension(args[0], leads[node.function])
        said = [self.words(a) for a in args]
        match node.function, len(args):
            case "sum", 1:
                return f"the sum of {said[0]}"
            case "len", 1:
                return f"the number of {said[0]}"
            case ("min" | "max") as f, 1:
                return f"the {'smallest' if f == 'min' else 'largest'} of {said[0]}"
            case ("min" | "max") as f, _:
                return f"the {'smaller' if f == 'min' else 'larger'} of " + ", ".join(said[:-1]) + " and " + said[-1]
            case "abs", 1 if isinstance(args[0], ast.Binary) and args[0].op == "-":
                return f"the difference between {self.words(args[0].left)} and {self.words(args[0].right)}"
            case "abs", 1:
                return f"{said[0]} without its sign"
            case "all", 1:
                return f"{said[0]}, every time"
            case "any", 1:
                return f"{said[0]}, at least once"
            case "count", 2:
                return f"the number of {said[0]} on {said[1]}"
            case "icons", 2:
                family = self.words(args[1]).removeprefix("the ")
                return f"the {family} on {said[0]}"
            case "kinds", 1:
                return f"the kinds of {said[0].removeprefix('the ')}"
            case "value", 1:
                return f"the value of {said[0]}"
            case "lookup", _:
                table = args[0].name.replace("_", " ") if isinstance(args[0], ast.Name) else said[0]
                default = f" ({said[2]} when it has none)" if len(said) == 3 else ""
                return f"the entry of the {table} table for {said[1]}{default}"
            case "first", 1:
                return f"the first of {said[0]}"
            case "last", 1:
                return f"the last of {said[0]}"
            case "largest", 2:
                return f"the {said[0]} largest of {said[1]}"
            case "subset", 2:
                return f"all of {said[0]} are among {said[1]}"
            case "intersects", 2:
                return f"some of {said[0]} are among {said[1]}"
            case "connected", 3:
                return f"paths between {said[0]} join one of {said[1]} to one of {said[2]}"
        return f"{node.function} of " + ", ".join(said)

    # -- helpers ---------------------------------------------------------------------------
    def _group(self, node: ast.Node, said: str) -> str:
        arithmetic = isinstance(node, ast.Binary) and node.op in ("+", "-", "*", "//", "%")
        return f"({said})" if arithmetic or isinstance(node, ast.If) else said

    def _simple(self, node: ast.Comprehension) -> bool:
        element = node.element
        return (
            node.condition is None
            and isinstance(element, ast.Call)
            and element.function == "value"
            and len(element.args) == 1
            and _is_name(element.args[0], node.name)
        )

    def _source(self, node: ast.Node) -> str:
        if isinstance(node, ast.Call) and node.function == "kinds" and len(node.args) == 1:
            return self.words(node.args[0]).removeprefix("the ").removesuffix(" icons")
        return self.words(node)

    def _noun(self, source: ast.Node) -> str:
        if isinstance(source, ast.Call):
            return NOUNS.get(source.function, "item")
        if isinstance(source, ast.Name):
            return NOUNS.get(source.name, "card" if source.name in ("cards", "visited", "others", "deck") else "item")
        return "item"

    def _unbind(self, name: str, outer: str | None) -> None:
        if outer is None:
            self.bound.pop(name, None)
        else:
            self.bound[name] = outer


def _walk(node: ast.Node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(ast.children(current))


def _is_name(node: ast.Node, name: str) -> bool:
    return isinstance(node, ast.Name) and node.name == name
