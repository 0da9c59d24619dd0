"""An edition as a rules summary a player can read at the table, generated from its YAML.

Says how a round goes (players, hand, passing, the Catch), the icons and regions, every category
in words (the author's `description`, or else its formula said in words by in_words), the bonuses,
the tie-breaks. With formulas=True it adds each formula and what each name in them means. It reads
a checked Edition and, for the words only an author can give, the edition's data; it never plays
or scores.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from .. import dsl
from . import scopes
from .extends import load_with_extends
from .goals import goals_of
from .in_words import in_words
from .loader import load_edition
from .model import GOALS, ROUND, Edition
from .shipped import resolve_edition
from .templates import fill

WIDTH = 96
VARIABLES = scopes.meanings() | {"deck": "every card of the game", "regions": "every region"}


def rules_text(path: str | Path, formulas: bool = False) -> str:
    """The rules summary of the edition at path; raises EditionError if it does not validate."""
    edition = load_edition(path)
    data, _ = load_with_extends(resolve_edition(path))
    return summary(edition, data, formulas)


def summary(edition: Edition, data: dict, formulas: bool = False) -> str:
    out: list[str] = []
    title = edition.name
    out += [title, "=" * len(title)]
    if data.get("description"):
        out += _wrap(fill(data["description"], edition))
    out.append("")
    out += _section("The game", _game(edition, formulas))
    if edition.seat_options:
        out += _section("Seat options", _seat_options(edition, formulas))
    out += _section(
        "Icons",
        [
            f"{f.title}{f' ({f.key})' if formulas else ''}: "
            + (", ".join(f"{i} {v}" for i, v in f.values.items()) if f.valued else ", ".join(f.icons))
            for f in edition.families.values()
        ],
    )
    if edition.regions:  # an edition with a flow may have none
        out += _section(
            "Regions",
            [
                f"{r.name}{f' (bonus {r.bonus})' if r.bonus else ''}: {' '.join(c.letter for c in r.cards)}"
                for r in edition.regions
            ],
        )
    if edition.paths:
        pairs = sorted(
            {tuple(sorted((a, b), key=lambda c: c.index)) for a, ends in edition.paths.items() for b in ends},
            key=lambda p: (p[0].index, p[1].index),
        )
        out += _section(
            "Map",
            _wrap(f"{len(pairs)} paths join the towns: " + ", ".join(f"{a.letter}-{b.letter}" for a, b in pairs) + "."),
        )
    if edition.tables:
        out += _section(
            "Tables",
            [
                f"{name.replace('_', ' ')}: " + ", ".join(f"{k} → {v}" for k, v in t.rows.items())
                for name, t in edition.tables.items()
            ],
        )
    specs = {spec["key"]: spec for spec in data.get("categories", []) if isinstance(spec, dict)}
    rounds = [c for c in edition.categories if c.when == ROUND]
    if rounds:
        out += _section(
            "Scoring every round", _blocks(_category(edition, c, specs.get(c.key, {}), formulas) for c in rounds)
        )
    ends = [c for c in edition.categories if c.when != ROUND]
    if ends:
        out += _section(
            "Scoring at the end of the game",
            _blocks(_category(edition, c, specs.get(c.key, {}), formulas) for c in ends),
        )
    if edition.races:
        race_specs = {spec["key"]: spec for spec in data.get("races", []) if isinstance(spec, dict)}
        lines = _wrap(
            "Checked at the end of every round. Everyone who qualifies in the same round gets the award of the "
            "same place; each player wins each bonus at most once."
        )
        races = [_race(edition, race, race_specs.get(race.key, {}), formulas) for race in edition.races]
        out += _section("Bonuses", _blocks([lines, *races]))
    out += _section("Ties", _ties(edition))
    if formulas:
        out += _section("Reading the formulas", _glossary(edition))
    return "\n".join(out).rstrip() + "\n"


def _seat_options(edition: Edition, formulas: bool) -> list[str]:
    """What the table may set seat by seat (`boom run --seat-option NAME.KEY=N`), each with its range and default."""
    lines = _wrap("Set at the table for each player (unset: the default).")
    for option in edition.seat_options:
        named = f" (options.{option.key})" if formulas else ""
        said = f" {_sentence(option.description)}" if option.description else ""
        lines += _wrap(f"{option.title}{named}: {option.minimum} to {option.maximum}, default {option.default}.{said}",
                       "  ")
    return lines


def _section(title: str, lines: list[str]) -> list[str]:
    return [title, "-" * len(title), *lines, ""]


def _blocks(blocks) -> list[str]:
    """Blocks of lines with one blank line between them."""
    out = []
    for block in blocks:
        out += ([""] if out else []) + block
    return out


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(" ".join(text.split()), WIDTH, initial_indent=indent, subsequent_indent=indent) or [
        indent.rstrip()
    ]


def _game(edition: Edition, formulas: bool) -> list[str]:
    """Who plays, then each block of a round in its own words (edition/steps.py), then when the game ends."""
    players = (
        f"{edition.players_min} to {edition.players_max} players"
        if edition.players_min != edition.players_max
        else f"{edition.players_min} players"
    )
    rounds = edition.round.rounds
    stocks = ", ".join(f"{count} {name}" for name, count in edition.stocks.items())
    lines = _wrap(
        f"{players}{f', {rounds} rounds' if rounds is not None else ''}. "
        f"{'Each player starts with ' + stocks + '. ' if stocks else ''}"
        "The game is played in rounds, each made of these steps:"
    )
    for number, step in enumerate(edition.round.steps, 1):
        lines += _wrap(f"{number}. {step.rules(edition)}", "  ")
        until = getattr(step, "until", None)
        if until is not None and formulas:
            lines += ["       " + line for line in until.text.strip().splitlines()]
    if rounds is None:
        lines += _wrap(
            "The game ends when the deck is empty at the start of a round (cards left in the circle are not "
            "captured). If the deck runs short while revealing, a last round is played with what there is."
        )
    return lines


def _formula(text: str, indent: str = "    ") -> list[str]:
    return [indent + line.rstrip() for line in text.strip().splitlines()]


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + ("" if words.endswith(".") else ".")


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}[n]


def _goals(edition: Edition, formulas: bool) -> list[str]:
    goals = goals_of(edition)
    lines = _wrap(f"The {goals.draw} goals drawn at the start of the game (face up for everyone) score every "
                  f"player; the deck's {len(goals.cards)} goals:", "    ")
    for goal in goals.cards:
        lines += _wrap(f"{goal.name}: {_sentence(goal.description or in_words(goal.points.text, edition, goal.name))}",
                       "      ")
        lines += _formula(goal.points.text, "        ") if formulas else []
    return lines


def _category(edition: Edition, category, spec: dict, formulas: bool) -> list[str]:
    lines = [f"  {category.title}"]
    if category.majority is not None:  # a flow's comparison of seats: no formula to put in words
        family = category.majority
        return lines + _wrap(
            fill(spec.get("description") or "", edition)
            or f"For each {family.title} icon ({', '.join(family.icons)}), "
            "the player(s) whose captured cards show it most often score that many points; "
            + "".join(f"the player(s) with the {_ordinal(place + 2)} most, {share}% of theirs (rounded down); "
                      for place, share in enumerate(category.pays[1:]))
            + "the others score 0 for it.",
            "    ",
        ) + (_majority_formula(family, category.pays) if formulas else [])
    if category.when == GOALS:  # the public goals: each goal of the deck in its words (edition/goals.py)
        return lines + _goals(edition, formulas)
    described = fill(spec.get("description") or "", edition)
    lines += _wrap(described or _sentence(in_words(category.score.text, edition, category.title)), "    ")
    choice = category.choice
    if choice is not None:
        choice_spec = spec.get("choice") if isinstance(spec.get("choice"), dict) else {}
        # the author's own words on the choice say the once-a-game rule themselves: not said twice
        once = ("" if not choice.once_per_game or choice_spec.get("description") else ", each icon once per game"
                if choice.times == 1 else f", each icon in at most {choice.times} rounds of the game")
        lines += _wrap(
            f"At the end of the round you may choose one {choice.family.title} icon "
            f"({', '.join(choice.family.icons)}){once}; "
            "without a choice the category scores 0.",
            "    ",
        )
        if choice_spec.get("description"):
            lines += _wrap(fill(choice_spec["description"], edition), "    ")
        elif choice.requires is not None:
            rule = in_words(choice.requires.text, edition, category.title)
            lines += _wrap(f"You may choose an icon only when {rule}.", "    ")
        if formulas and choice.requires is not None:
            lines += ["    You may choose an icon only when:", *_formula(choice.requires.text, "      ")]
    if not category.counts:
        lines += ["    Written on the sheet but not added to the total."]
    if formulas:
        lines += ["    Score:", *_formula(category.score.text, "      ")]
    return lines


def _majority_formula(family, pays: tuple = (100,)) -> list[str]:
    """A majority compares the players, so no one player's formula says it: written as the engine counts
    it (game/holdings.py), in the language's words where they exist."""
    key = family.key
    return [
        "    Score (a majority, declared as `majority: " + key + "`: it compares the players, so it is",
        "    not a formula of one player; written here as it is counted):",
        f"      sum([count(i, captured) for i in kinds({key})",
        "           if count(i, captured) > 0 and count(i, captured) == most(i)])",
        "      where captured is the cards you captured, and most(i) the largest count(i, captured)",
        "      among all the players",
    ] + [f"      plus count(i, captured) * {share} // 100 where it is the {_ordinal(place)} largest (pays)"
         for place, share in enumerate(pays[1:], 2)]


def _race(edition: Edition, race, spec: dict, formulas: bool) -> list[str]:
    lines = [f"  {race.title}" + (" (one for each region)" if race.each == "region" else "")]
    if spec.get("description"):
        lines += _wrap(fill(spec["description"], edition), "    ")
    else:
        qualifies, award = in_words(race.qualifies.text, edition), in_words(race.award.text, edition)
        lines += _wrap(f"Qualify when {qualifies}. Award: {award}.", "    ")
    if formulas:
        lines += ["    Qualify when:", *_formula(race.qualifies.text, "      ")]
        lines += ["    Award:", *_formula(race.award.text, "      ")]
    return lines


def _ties(edition: Edition) -> list[str]:
    titles = {c.key: c.title for c in edition.categories} | {r.key: r.title for r in edition.races}
    if not edition.tie_breaks:
        return ["Tied players share the victory."]
    order = [
        f"the most {key} kept"
        if key in edition.stocks
        else f"the {'fewest' if key in edition.lowest_first else 'most'} {titles.get(key, key)} points"
        for key in edition.tie_breaks
    ]
    return _wrap(
        f"The highest total wins. Between tied players, {', then '.join(order)} wins; "
        "still tied, they share the victory."
    )


def _names_used(edition: Edition) -> tuple[list[str], list[str]]:
    """The free names and the functions the edition's formulas use, in order of first use."""
    texts = [c.score.text for c in edition.categories if c.score is not None]
    texts += [c.choice.requires.text for c in edition.categories if c.choice and c.choice.requires]
    texts += [t for r in edition.races for t in (r.qualifies.text, r.award.text)]
    texts += [step.until.text for step in edition.round.steps if hasattr(step, "until")]
    names, functions = {}, {}
    for text in texts:
        bound = set()
        for node in dsl.walk(dsl.parse(text)):
            if isinstance(node, (dsl.Let, dsl.Comprehension)):
                bound.add(node.name)
            elif isinstance(node, dsl.Name) and node.name not in bound:
                names.setdefault(node.name, None)
            elif isinstance(node, dsl.Call):
                functions.setdefault(node.function, None)
    return list(names), list(functions)


def _glossary(edition: Edition) -> list[str]:
    names, functions = _names_used(edition)
    lines = []
    for name in names:
        if name in edition.stocks:
            meaning = f"how many {name} you kept at the end of the game"
        elif name in VARIABLES:
            meaning = VARIABLES[name]
        elif name in edition.families:
            family = edition.families[name]
            meaning = f"the {family.title} icons: {', '.join(family.icons)}"
        elif name in edition.tables:
            meaning = "the table " + ", ".join(f"{k} -> {v}" for k, v in edition.tables[name].rows.items())
        elif name in edition.card_sets:
            meaning = "the cards " + ", ".join(f"{c.letter} {c.name}" for c in edition.card_sets[name])
        else:
            continue  # a name bound inside the formula (let, for)
        lines += _wrap(f"{name}: {meaning}", "  ")
    for function in functions:
        if function in dsl.REGISTRY:
            lines += _wrap(dsl.REGISTRY[function].summary, "  ")
    lines += _wrap(
        "'Name' in quotes is an icon, a region or a card letter; x.number is a card's number, x.region its region, "
        "region.cards the cards of a region, region.bonus its bonus. The whole language: `boom docs dsl`.",
        "  ",
    )
    return lines
