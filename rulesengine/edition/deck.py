"""Edition data → the deck and the map: families and their icons, regions, cards, the game's shape, paths.

It exists so that build.py holds the scoring language (expressions, categories, races) and this
module the pieces every expression refers to. DeckBuilder reports each problem at its key and goes
on, like the rest of the build; it never parses or compiles an expression and never makes an Edition.
"""

from __future__ import annotations

from types import SimpleNamespace

from ..dsl import Bounds
from ..errors import Diagnostic, Note, suggest
from .checks import Facts
from .model import Card, Family, Region
from .recovery import Cut


class DeckBuilder:
    """The reporting and the deck and map pieces of an edition's build (Builder adds the language)."""

    def __init__(self, data: dict, source_map, cut: Cut | None = None, runner: str = "compiled"):
        self.data = data
        self.runner = runner  # how its expressions are compiled: see dsl.RUNNERS
        self.map = source_map
        self.cut = cut or Cut()
        self.recovering = cut is not None  # the schema check found problems: check, but build nothing
        self.diagnostics: list[Diagnostic] = []
        self.lookups = SimpleNamespace(icon_values={}, paths={})
        self.bounds: Bounds | None = None  # the largest lists, for the work budget of expressions
        self.texts: dict | None = None  # the text of each file of the edition, to quote runtime errors
        self.positions = None  # model.Positions: the source map, shared by every expression's Located
        self.facts = Facts(data, source_map, self.cut)

    # -- reporting -------------------------------------------------------------------------
    def error(self, path, message, code, hint=None, key=False, notes=()):
        self.diagnostics.append(Diagnostic(self.map.span_at(path, key=key), message, code, hint=hint, notes=notes))

    def written_here(self, path) -> bool:
        """Was the value at path written in the file being checked (not in an edition it extends)?"""
        return self.map.span_at(path).file == self.map.file

    def note(self, path, message, key=False) -> Note:
        return Note(self.map.span_at(path, key=key), message)

    def warning(self, path, message, code, hint=None):
        self.diagnostics.append(Diagnostic(self.map.span_at(path), message, code, severity="warning", hint=hint))

    def entries(self, section):
        """(index, entry) of a list section, skipping the entries the schema check cut out."""
        return [(i, e) for i, e in enumerate(self.data.get(section) or ()) if e is not None]

    # -- pieces ----------------------------------------------------------------------------
    def families(self):
        families, owner = {}, {}
        for key, spec in self.data.get("families", {}).items():
            icons = spec["icons"]
            values = dict(icons) if isinstance(icons, dict) else None
            names = tuple(icons)
            for index, icon in enumerate(names):
                where = ("families", key, "icons", icon if values is not None else index)
                if icon in owner:
                    self.error(
                        where,
                        f"icon '{icon}' is already in the family '{owner[icon]}'",
                        "M301",
                        "an icon name must be unique across families",
                        key=values is not None,
                    )
                owner.setdefault(icon, key)
            families[key] = Family(key, spec.get("title", key), names, values, frozenset(names))
        return families, owner

    def regions(self):
        regions = {}
        for index, spec in self.entries("regions"):
            if spec["name"] in regions:
                self.error(("regions", index, "name"), f"region '{spec['name']}' is defined twice", "M302")
                continue
            regions[spec["name"]] = Region(spec["name"], spec.get("bonus", 0))
        return regions

    def cards(self, regions, icon_owner):
        cards, by_letter = [], {}
        left_behind: dict[str, list] = {}  # a region a house rule removed -> (index, letter) of its cards kept
        removed = getattr(self.map, "removed", {})
        for index, spec in self.entries("cards"):
            path = ("cards", index)
            letter = spec["letter"]
            if letter in by_letter:
                self.error(
                    path + ("letter",),
                    f"card letter '{letter}' is used twice",
                    "M303",
                    f"the first card with it is '{by_letter[letter].name}'",
                )
                continue
            region = regions.get(spec.get("region"))
            if region is None and "region" not in spec:
                pass  # a flow's card may have no region (the schema says when)
            elif region is None:
                name = spec["region"]
                if name in removed and removed[name].file != self.map.span_at(path + ("region",)).file:
                    left_behind.setdefault(name, []).append((index, letter))
                elif not self.cut.covers("regions", spec["region"]):
                    self.error(
                        path + ("region",),
                        f"unknown region '{spec['region']}'",
                        "M304",
                        suggest(spec["region"], regions),
                    )
                region = Region(spec["region"], 0)
            for icon_index, icon in enumerate(spec["icons"]):
                if icon not in icon_owner and not self.cut.covers("icons", icon):
                    self.error(
                        path + ("icons", icon_index), f"unknown icon '{icon}'", "M305", suggest(icon, icon_owner)
                    )
            card = Card(
                letter,
                spec["name"],
                region,
                spec.get("number", 0),
                tuple(spec["icons"]),
                len(cards),
                tuple(spec.get("reconstructed", ())),
            )
            cards.append(card)
            by_letter[letter] = card
        for name, kept in left_behind.items():
            self.left_behind(name, kept, removed[name])
        self.copies(cards, by_letter)
        names = [spec["name"] for _, spec in self.entries("regions")]
        for region in regions.values():
            members = tuple(c for c in cards if c.region is region and c.copy_of is None)
            object.__setattr__(region, "cards", members)
            if not members and "cards" not in self.cut.sections:
                self.warning(
                    ("regions", self.entries("regions")[names.index(region.name)][0]),
                    f"region '{region.name}' has no card",
                    "W401",
                )
        return cards, by_letter

    def left_behind(self, region: str, kept: list, where) -> None:
        """A region a house rule removed, whose cards (in the edition it extends) it kept: one error at the
        removal, each card a note, rather than an error on every card of the parent."""
        letters = [letter for _, letter in kept]
        listed = ", ".join(repr(letter) for letter in letters)
        self.diagnostics.append(Diagnostic(
            where, f"removing the region '{region}' leaves its cards {_and(letters)} without a region", "M304",
            hint=f"remove them too: remove: {{regions: ['{region}'], cards: [{listed}]}}",
            notes=tuple(self.note(("cards", index, "region"), f"card '{letter}' is in {region}")
                        for index, letter in kept)))

    def copies(self, cards: list, by_letter: dict) -> None:
        """`copies: N` (the whole deck, or one card's own): copies 2..N of a card, lettered A.2, A.3..., after
        every printed card in the deck's order. A copy is the same site as its card (Card.site)."""
        whole = self.data.get("copies", 1) if isinstance(self.data.get("copies", 1), int) else 1
        specs = {spec["letter"]: (index, spec) for index, spec in self.entries("cards")}
        for card in list(cards):
            index, spec = specs[card.letter]
            for number in range(2, spec.get("copies", whole) + 1):
                letter = f"{card.letter}.{number}"
                if letter in by_letter:
                    self.error(
                        ("cards", index, "copies") if "copies" in spec else ("copies",),
                        f"copy {number} of card '{card.letter}' would be lettered '{letter}', a letter already used",
                        "M303",
                        f"the card with it is '{by_letter[letter].name}'; give that card another letter",
                    )
                    continue
                copy = Card(letter, card.name, card.region, card.number, card.icons, len(cards), card.reconstructed,
                            card)
                cards.append(copy)
                by_letter[letter] = copy

    def letters(self, path, letters, by_letter):
        out = []
        for index, letter in enumerate(letters):
            card = by_letter.get(str(letter))
            if card is None:
                if not self.cut.covers("cards", letter):
                    self.error(
                        path + (index,), f"unknown card letter '{letter}'", "M306", suggest(str(letter), by_letter)
                    )
            else:
                out.append(card)
        return tuple(out)

    def game_shape(self, cards):
        players, hand_size = self.data.get("players"), self.data.get("hand_size")
        if players is None:
            return
        if players["min"] > players["max"]:
            self.error(
                ("players", "min"),
                f"players.min ({players['min']}) is more than players.max ({players['max']})",
                "M307",
            )
        draft = self.data.get("draft") if isinstance(self.data.get("draft"), dict) else {}
        ghosts = draft.get("ghosts", 0) if isinstance(draft.get("ghosts", 0), int) else 0
        if hand_size is not None and "cards" not in self.cut.sections and not self.cut.names.get("cards"):
            hands = players["max"] + ghosts  # a ghost hand is dealt like a player's
            needed = hand_size * hands
            if needed > len(cards):
                who = f"{players['max']} players" + (f" and {ghosts} ghost hand{'s' if ghosts > 1 else ''}" if ghosts
                                                     else "")
                where, notes = ("hand_size",), ()
                if not self.written_here(where):  # blame the house rule's change, not the parent's hand_size
                    cause = next((p for p in (("players", "max"), ("draft", "ghosts")) if self.written_here(p)), None)
                    if cause is not None:
                        where, notes = cause, (self.note(("hand_size",), f"each hand is {hand_size} cards here"),)
                self.error(
                    where,
                    f"{who} need {needed} cards ({hand_size} each) but the deck has {len(cards)}",
                    "M308",
                    f"the largest hand for {who} is {len(cards) // hands}" if len(cards) >= hands else None,
                    notes=notes,
                )

    def map_paths(self, by_letter):
        paths: dict = {}
        for index, pair in self.entries_of(("map", "paths")):
            ends = self.letters(("map", "paths", index), pair, by_letter)
            if len(ends) == 2:
                a, b = ends
                if a is b:
                    self.error(("map", "paths", index), f"a path from '{a.letter}' to itself", "M309")
                paths.setdefault(a, []).append(b)
                paths.setdefault(b, []).append(a)
        return {card: tuple(neighbours) for card, neighbours in paths.items()}

    def map_reconstructed(self, paths, card_sets, by_letter) -> int:
        """Check the map's `reconstructed` marks (paths of the map, members of card sets); count them."""
        marks = (self.data.get("map") or {}).get("reconstructed") or {}
        count = 0
        # a house rule that gave map.paths, under the parent's marks: one error at its paths, not one a mark
        blame = self.written_here(("map", "paths")) and not self.written_here(("map", "reconstructed", "paths"))
        unmarked = []
        for index, pair in enumerate(marks.get("paths") or ()):
            ends = self.letters(("map", "reconstructed", "paths", index), pair, by_letter)
            if len(ends) == 2:
                if ends[1] not in paths.get(ends[0], ()) and blame:
                    unmarked.append(f"{ends[0].letter}-{ends[1].letter}")
                elif ends[1] not in paths.get(ends[0], ()):
                    self.error(
                        ("map", "reconstructed", "paths", index),
                        f"'{ends[0].letter}-{ends[1].letter}' is not a path of the map",
                        "M321",
                        "mark only paths listed under map.paths",
                    )
                count += 1
        if unmarked:
            self.error(("map", "paths"), f"the edition it extends marks {len(unmarked)} path"
                       f"{'s' if len(unmarked) != 1 else ''} as reconstructed that this map.paths no longer has: "
                       f"{_and(unmarked, 8)}", "M321", "to add to the parent's paths: paths: {add: [...]}", key=True,
                       notes=(self.note(("map", "reconstructed", "paths"), "marked here", key=True),))
        for name, letters in (marks.get("card_sets") or {}).items():
            members = card_sets.get(name)
            if members is None:
                self.error(
                    ("map", "reconstructed", "card_sets", name),
                    f"unknown card set '{name}'",
                    "M321",
                    suggest(name, card_sets),
                    key=True,
                )
                continue
            for index, card in enumerate(self.letters(("map", "reconstructed", "card_sets", name), letters, by_letter)):
                if card not in members:
                    self.error(
                        ("map", "reconstructed", "card_sets", name, index),
                        f"'{card.letter}' is not in the card set '{name}'",
                        "M321",
                    )
                count += 1
        return count

    def entries_of(self, path):
        node = self.data
        for part in path:
            node = node.get(part, {}) if isinstance(node, dict) else {}
        return [(i, e) for i, e in enumerate(node if isinstance(node, list) else ()) if e is not None]


def _and(words: list, most: int = 0) -> str:
    """'A, B and C'; with most, at most that many and how many more."""
    words = [str(w) for w in words]
    if most and len(words) > most:
        return ", ".join(words[:most]) + f" and {len(words) - most} more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
