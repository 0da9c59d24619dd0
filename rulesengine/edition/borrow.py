"""Cards taken from another edition by name (`borrow:`), with what they need to be scored.

A mixed deck (Australia's cards and Europe's) is a few lines, not 28 cards copied and re-lettered.
Each `borrow:` entry names an edition (a path relative to the file, or a shipped name), which of its
cards to take (all by default) and their letters here (their own, `auto`, or a mapping); the
families of their icons and their regions come with them, and so do the categories and races the
entry names, with the families and tables those read. Everything comes as the other edition has it
(less the `counts:` and `letters:` that check its own typing), and joins the parent before the file's
own changes, so a house rule can change a borrowed card or category by its letter or key.

Only an edition sound in its structure lends anything (its mistakes are shown in its file). What
would mean two things is refused at the borrow, never merged silently: a letter or a key taken twice
(X808); an icon, a family or a region that this edition has otherwise (X809: another value, another
family, another bonus); a name the other edition lacks (X810). A family both editions have gains the
icons it lacks. Every borrowed value keeps its place in the other file, so an error in it points
there; a new letter points at the `letters:` that gave it. It reads no file: extends.py hands it the
other edition's data.
"""

from __future__ import annotations

from collections.abc import Callable

from ..dsl import DslSyntaxError, Symbol, parse, variable_names, walk
from ..errors import Diagnostic, Note, suggest
from .schema import part_diagnostics, schema_diagnostics
from .templates import PLACEHOLDER

OWN_CHECKS = {"families": "counts", "regions": "letters"}  # checks of the other file's typing, left there
MAX_LETTER = 3


class Borrow:
    """A file's `borrow:` entries added to its parent's data; problems gathered, never raised here."""

    def __init__(self, source_map, composed, read: Callable, own: dict):
        self.map = source_map  # the borrowing file's own SourceMap
        self.own = own  # the borrowing file's own data: what it writes itself after borrowing
        self.composed = composed
        self.read = read  # (name, path of the naming value) -> (data, source map) of the edition named
        self.problems: list[Diagnostic] = []
        self.added: list[tuple] = []  # (section, entry) of a list, (section, key, value) of a mapping

    def onto(self, data: dict) -> dict:
        """data with what was borrowed added the same way: the parent a house rule's warnings compare with."""
        out = dict(data)
        for section, *item in self.added:
            if len(item) == 1:
                out[section] = [*(out.get(section) if isinstance(out.get(section), list) else ()), item[0]]
            else:
                mapping = out.get(section) if isinstance(out.get(section), dict) else {}
                out[section] = {**mapping, item[0]: item[1]}
        return out

    def apply(self, base: dict, entries) -> dict:
        """base with every entry's cards, families, regions, categories, races and tables added."""
        if entries is None:
            return base
        problems = part_diagnostics("borrow", entries, self.map)
        if problems:
            self.problems += problems
            return base
        merged = dict(base)
        for section, kind in (("cards", list), ("regions", list), ("categories", list), ("races", list),
                              ("families", dict), ("tables", dict)):
            if merged.get(section) is None:
                merged[section] = kind()
            elif not isinstance(merged[section], kind):
                return merged  # the parent's section is broken: the schema check says so, in the parent's file
            else:
                merged[section] = kind(merged[section])
        for index, entry in enumerate(entries):
            other, other_map = self.read(entry["from"], ("borrow", index, "from"))
            broken = schema_diagnostics(other, other_map)  # only a sound edition's parts are taken, in its file
            if broken:
                self.problems += broken
            else:
                _Entry(self, merged, index, entry, other, other_map).add()
        for key, value in merged["families"].items():
            if (base.get("families") or {}).get(key) is not value:
                self.added.append(("families", key, value))
        for key, value in merged["tables"].items():
            if key not in (base.get("tables") or {}):
                self.added.append(("tables", key, value))
        for section in ("cards", "regions", "categories", "races"):
            self.added += [(section, entry) for entry in merged[section][len(base.get(section) or ()):]]
        return {key: value for key, value in merged.items() if key in base or value}


class _Entry:
    """One `borrow:` entry: what it takes from one edition, added to the merged data in place."""

    def __init__(self, borrow: Borrow, merged: dict, index: int, entry: dict, other: dict, other_map):
        self.borrow, self.merged, self.entry, self.other, self.other_map = borrow, merged, entry, other, other_map
        self.at = ("borrow", index)
        self.name = entry["from"]

    # -- reporting -----------------------------------------------------------------------------
    def problem(self, where, message, code, hint=None, here=None, there=None) -> None:
        """A diagnostic at where (in the borrowing file), with notes at this edition's and the other's places."""
        notes = []
        if here is not None:
            notes.append(Note(self.borrow.composed.span_at(here[0], key=here[2] if len(here) > 2 else False),
                              here[1]))
        if there is not None:
            notes.append(Note(self.other_map.span_at(there[0]), there[1]))
        self.borrow.problems.append(Diagnostic(self.borrow.map.span_at(self.at + tuple(where)), message, code,
                                               hint=hint, notes=tuple(notes)))

    def record(self, path, other_path) -> None:
        self.borrow.composed.origins[tuple(path)] = (self.other_map, tuple(other_path))

    def section(self, key, kind):
        value = self.other.get(key)
        return value if isinstance(value, kind) else kind()

    # -- the entry -----------------------------------------------------------------------------
    def add(self) -> None:
        self.check_names()
        chosen = self.chosen_cards()
        lettered = self.letters(chosen)
        renamed = {str(card["letter"]): new for (_, card, _), (new, _) in zip(chosen, lettered, strict=True)}
        families, tables = [], []
        for _, card, _ in chosen:
            families += self.families_of_icons(card.get("icons"))
        for section in ("categories", "races"):
            for position, _, spec in self.entries(section):
                reads = self.read_by(spec)
                self.check_reads(section, position, spec, reads, renamed)
                families, tables = families + reads["families"], tables + reads["tables"]
        for key in [key for key in self.section("families", dict) if key in families]:  # in the other's order
            self.family(key)
        names = {card.get("region") for _, card, _ in chosen}
        for name in [r.get("name") for r in self.section("regions", list) if isinstance(r, dict)]:
            if name in names:
                self.region(name)
        for (position, card, _), (letter, where) in zip(chosen, lettered, strict=True):
            self.card(position, card, letter, where)
        for section in ("categories", "races"):
            for found in self.entries(section):
                self.keyed_entry(section, *found)
        for name in dict.fromkeys(tables):
            self.table(name)

    def chosen_cards(self) -> list[tuple[int, dict, tuple | None]]:
        """(index in the other deck, card, where the entry lists it) of each card taken, in the other deck's order."""
        deck = [(i, c) for i, c in enumerate(self.section("cards", list)) if isinstance(c, dict) and "letter" in c]
        wanted = self.entry.get("cards")
        if wanted is None:
            return [(i, card, None) for i, card in deck]
        by_letter = {str(card["letter"]): (i, card) for i, card in deck}
        out = []
        for position, letter in enumerate(wanted):
            if letter not in by_letter:
                self.problem(("cards", position), f"{self.name} has no card '{letter}'", "X810",
                             hint=suggest(letter, by_letter) or f"its letters: {' '.join(by_letter)}")
                continue
            out.append((*by_letter[letter], ("cards", position)))
        return sorted(out, key=lambda item: item[0])

    def letters(self, chosen) -> list[tuple[str, tuple | None]]:
        """Each chosen card's letter here, and where the borrowing file gives it (None: its own letter)."""
        given = self.entry.get("letters", {})
        taken = {str(card.get("letter")): ("cards", i) for i, card in enumerate(self.merged["cards"])
                 if isinstance(card, dict)}
        if isinstance(given, dict):
            for old in given:
                if old not in {str(card["letter"]) for _, card, _ in chosen}:
                    self.problem(("letters", old), f"card '{old}' is not among the cards taken from {self.name}",
                                 "X810", hint=suggest(old, [str(c["letter"]) for _, c, _ in chosen]))
        out = []
        for _, card, listed in chosen:
            old = str(card["letter"])
            if given == "auto":
                letter, where = _free_letter(old, taken), ("letters",)
            elif old in given:
                letter, where = given[old], ("letters", old)
            else:
                letter, where = old, listed or ("from",)
            if letter is None or letter in taken:
                self.letter_taken(old, letter, where, taken.get(letter))
            else:
                taken[letter] = ("borrowed", old)
            out.append((letter, None if letter == old else where))
        return out

    def letter_taken(self, old, letter, where, holder) -> None:
        if letter is None:
            self.problem(where, f"no free letter of at most {MAX_LETTER} characters for card '{old}' of "
                                f"{self.name}", "X808", hint=f"give it one: letters: {{'{old}': ...}}")
            return
        hint = f"give it another letter: letters: {{'{old}': ...}}, or letters: auto"
        theirs = f"card '{old}' ({self.card_name(old)}) of {self.name}"
        if holder and holder[0] == "cards":
            card = self.merged["cards"][holder[1]]
            self.problem(where, f"card letter '{letter}' is taken twice: by {card.get('name')} here and by "
                                f"{theirs}", "X808", hint=hint,
                         here=(holder + ("letter",), f"{card.get('name')} has the letter '{letter}'"))
        else:
            self.problem(where, f"card letter '{letter}' is taken twice: by card '{holder[1]}' "
                                f"({self.card_name(holder[1])}) and by {theirs}", "X808", hint=hint)

    def card_name(self, letter: str):
        return next((c.get("name") for c in self.section("cards", list)
                     if isinstance(c, dict) and str(c.get("letter")) == letter), None)

    def families_of_icons(self, icons) -> list[str]:
        owner = {icon: key for key, spec in self.section("families", dict).items() if isinstance(spec, dict)
                 for icon in (spec.get("icons") or ())}
        return [owner[icon] for icon in (icons if isinstance(icons, list) else ()) if icon in owner]

    def entries(self, section) -> list[tuple[int, int, dict]]:
        """(position in the borrow entry, index in the other edition, entry) of each category or race named."""
        theirs = {e.get("key"): (i, e) for i, e in enumerate(self.section(section, list)) if isinstance(e, dict)}
        out = []
        for position, key in enumerate(self.entry.get(section) or ()):
            if key in theirs:
                out.append((position, *theirs[key]))
        return out

    def read_by(self, spec: dict) -> dict[str, list[str]]:
        """What of the other edition a category or race reads: its families and tables (by name in its
        expressions, by `from:` or `majority:`, in its descriptions' placeholders), its card sets, and the
        cards its expressions name ('W')."""
        names: list[str] = []
        symbols: list[str] = []
        choice = spec.get("choice") if isinstance(spec.get("choice"), dict) else {}
        for text in (spec.get("score"), spec.get("qualifies"), spec.get("award"), choice.get("requires")):
            if isinstance(text, str):
                try:
                    tree = parse(text)
                except DslSyntaxError:
                    continue  # the other edition's own check says where
                names += sorted(variable_names(tree, {}))
                symbols += [node.text for node in walk(tree) if isinstance(node, Symbol)]
        names += [choice.get("from"), spec.get("majority")]
        for text in (spec.get("description"), choice.get("description")):
            for match in PLACEHOLDER.finditer(text if isinstance(text, str) else ""):
                if match.group(1) in ("families", "tables") and match.group(2):
                    names.append(match.group(2).split(".")[1])
        letters = {str(c.get("letter")) for c in self.section("cards", list) if isinstance(c, dict)}
        return {section: [n for n in names if n in self.section(section, dict)]
                for section in ("families", "tables", "card_sets")} | {"cards": [s for s in symbols if s in letters]}

    def check_reads(self, section: str, position: int, spec: dict, reads: dict, renamed: dict) -> None:
        """A borrowed category or race must not read what is not borrowed with it, or a card by a letter
        that means another card here (X810)."""
        what = f"the {_singular(section)} '{spec.get('key')}' of {self.name}"
        own = self.borrow.own
        if any(isinstance(e, dict) and e.get("key") == spec.get("key") for e in _as_list(own.get(section))):
            return  # the file changes it after borrowing it: the build checks what it reads then
        written = own.get("card_sets") if isinstance(own.get("card_sets"), dict) else {}
        for name in dict.fromkeys(n for n in reads["card_sets"] if n not in written):
            self.problem((section, position), f"{what} reads the card set '{name}', which is not borrowed", "X810",
                         hint=f"write it in this file, lettered as here: card_sets: {{{name}: [...]}} (and a map "
                              "if it needs paths)")
        for letter in dict.fromkeys(reads["cards"]):
            if letter not in renamed:
                self.problem((section, position), f"{what} names the card '{letter}', which is not borrowed", "X810",
                             hint=f"borrow it too: cards: [..., '{letter}']")
            elif renamed[letter] != letter:
                self.problem((section, position), f"{what} names the card '{letter}', lettered "
                                                  f"'{renamed[letter]}' here", "X810",
                             hint=f"keep its letter (letters: {{'{letter}': '{letter}'}}), or change the "
                                  f"{_singular(section)} after borrowing it")

    # -- adding each part ------------------------------------------------------------------------
    def family(self, key: str) -> None:
        spec = self.section("families", dict)[key]
        icons = spec.get("icons") if isinstance(spec, dict) else None
        if not isinstance(icons, dict | list):
            return
        families = self.merged["families"]
        owner = {icon: k for k, s in families.items() if isinstance(s, dict) for icon in (s.get("icons") or ())}
        mine = families.get(key)
        where = ("families", key)
        if mine is None:
            clashes = [icon for icon in icons if icon in owner]
            for icon in clashes:
                self.icon_clash(icon, owner[icon], key, icons)
            if not clashes:
                families[key] = {k: v for k, v in spec.items() if k != OWN_CHECKS["families"]}
                self.record(where, where)
            return
        mine_icons = mine.get("icons") if isinstance(mine, dict) else None
        if not isinstance(mine_icons, dict | list):
            return
        if isinstance(mine_icons, dict) != isinstance(icons, dict):
            self.problem(("from",), f"the family '{key}' is {_kind(mine_icons)} here but {_kind(icons)} in "
                                    f"{self.name}", "X809",
                         hint="a family is one family: rename it in one of the editions",
                         here=(where, f"the family '{key}' here", True),
                         there=(where, f"the family '{key}' of {self.name}"))
            return
        grown = dict(mine_icons) if isinstance(mine_icons, dict) else list(mine_icons)
        for position, icon in enumerate(icons):
            if icon in mine_icons:
                if isinstance(icons, dict) and mine_icons[icon] != icons[icon]:
                    self.problem(("from",), f"the icon '{icon}' is worth {mine_icons[icon]} here and "
                                            f"{icons[icon]} in {self.name}", "X809",
                                 here=(where + ("icons", icon), f"'{icon}' is worth {mine_icons[icon]} here", True),
                                 there=(where + ("icons", icon), f"and {icons[icon]} in {self.name}"))
            elif icon in owner:
                self.icon_clash(icon, owner[icon], key, icons)
            elif isinstance(grown, dict):
                grown[icon] = icons[icon]
                self.record(where + ("icons", icon), where + ("icons", icon))
            else:
                self.record(where + ("icons", len(grown)), where + ("icons", position))
                grown.append(icon)
        families[key] = dict(mine, icons=grown)

    def icon_clash(self, icon, here_family, there_family, icons) -> None:
        index = icon if isinstance(icons, dict) else list(icons).index(icon)
        self.problem(("from",), f"the icon '{icon}' is in the family '{here_family}' here but in "
                                f"'{there_family}' in {self.name}", "X809",
                     hint="an icon belongs to one family: rename one of them, or leave out the cards that show it",
                     there=(("families", there_family, "icons", index), f"'{icon}' in the family '{there_family}'"))

    def region(self, name) -> None:
        theirs = [(i, r) for i, r in enumerate(self.section("regions", list))
                  if isinstance(r, dict) and r.get("name") == name]
        if not theirs:
            return  # a card without a region (a steps game's deck), or one the other edition lacks: its check says so
        position, spec = theirs[0]
        regions = self.merged["regions"]
        mine = [(i, r) for i, r in enumerate(regions) if isinstance(r, dict) and r.get("name") == name]
        if not mine:
            self.record(("regions", len(regions)), ("regions", position))
            regions.append({k: v for k, v in spec.items() if k != OWN_CHECKS["regions"]})
        elif mine[0][1].get("bonus") != spec.get("bonus"):
            self.problem(("from",), f"the region '{name}' has a bonus of {mine[0][1].get('bonus')} here and "
                                    f"{spec.get('bonus')} in {self.name}", "X809",
                         hint="regions of the same name are one region: rename one, or give them the same bonus",
                         here=(("regions", mine[0][0], "bonus"), f"the bonus of '{name}' here"),
                         there=(("regions", position, "bonus"), f"the bonus of '{name}' in {self.name}"))

    def card(self, position: int, card: dict, letter, where) -> None:
        cards = self.merged["cards"]
        self.record(("cards", len(cards)), ("cards", position))
        if where is not None:
            self.borrow.composed.origins[("cards", len(cards), "letter")] = (self.borrow.map, self.at + where)
        cards.append(dict(card, letter=letter) if letter is not None else card)

    def keyed_entry(self, section: str, position: int, index: int, spec: dict) -> None:
        key = spec.get("key")
        for other_section in ("categories", "races"):
            for i, mine in enumerate(self.merged[other_section]):
                if isinstance(mine, dict) and mine.get("key") == key:
                    word = _singular(other_section)
                    self.problem((section, position), f"the key '{key}' is taken twice: by this edition's {word} "
                                                      f"and by a {_singular(section)} of {self.name}", "X808",
                                 hint=f"change it after borrowing it: {section}: [{{key: {key}, ...}}] in this file",
                                 here=((other_section, i, "key"), f"the {word} '{key}' here"))
                    return
        entries = self.merged[section]
        self.record((section, len(entries)), (section, index))
        entries.append(spec)

    def table(self, name: str) -> None:
        rows = self.section("tables", dict)[name]
        tables = self.merged["tables"]
        if name not in tables:
            tables[name] = rows
            self.record(("tables", name), ("tables", name))
        elif tables[name] != rows:
            self.problem(("from",), f"the table '{name}' has other rows here than in {self.name}", "X808",
                         hint="rename the table in this edition, or give it the same rows",
                         here=(("tables", name), f"the table '{name}' here", True),
                         there=(("tables", name), f"the table '{name}' of {self.name}"))

    def check_names(self) -> None:
        """Each category or race the entry names must be the other edition's (X810)."""
        for section in ("categories", "races"):
            theirs = [e.get("key") for e in self.section(section, list) if isinstance(e, dict)]
            for position, key in enumerate(self.entry.get(section) or ()):
                if key not in theirs:
                    self.problem((section, position), f"{self.name} has no {_singular(section)} '{key}'", "X810",
                                 hint=suggest(key, theirs) or f"its {section}: {', '.join(map(str, theirs))}")


def _free_letter(old: str, taken: dict) -> str | None:
    """`letters: auto`: the card's own letter if free, else its lower (or upper) case, else it followed by 2, 3..."""
    for letter in (old, old.lower(), old.upper(), *(f"{old}{n}" for n in range(2, 10))):
        if letter not in taken and len(letter) <= MAX_LETTER:
            return letter
    return None


def _as_list(value) -> list:
    return value if isinstance(value, list) else []


def _kind(icons) -> str:
    return "valued (icons with values)" if isinstance(icons, dict) else "a list of kinds (icons without values)"


def _singular(section: str) -> str:
    return {"categories": "category", "races": "race"}[section]
