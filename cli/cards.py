"""Cards, the table and the sheet as rich renderables: what a human seat sees at the terminal.

Only drawing: every number shown comes from the seat's view or from rulesengine.bots.advice. Colours
come from the edition's order of regions and families, so a new edition is drawn without code.
"""

from __future__ import annotations

from rich.columns import Columns
from rich.table import Table
from rich.text import Text

from rulesengine.bots.advice import shown_lines

REGION_COLOURS = [
    "red",
    "green",
    "blue",
    "magenta",
    "cyan",
    "yellow",
    "bright_red",
    "bright_green",
    "bright_blue",
    "bright_magenta",
]
FAMILY_COLOURS = ["yellow", "green", "cyan", "magenta", "blue", "red"]


def region_colour(edition, region) -> str:
    return REGION_COLOURS[edition.regions.index(region) % len(REGION_COLOURS)] if region in edition.regions else "white"


def icon_text(edition, icon: str) -> Text:
    """An icon in its family's colour, with its value when its family has values."""
    for index, family in enumerate(edition.families.values()):
        if icon in family.icon_set:
            value = f" {family.values[icon]}" if family.values else ""
            return Text(f"{icon}{value}", style=FAMILY_COLOURS[index % len(FAMILY_COLOURS)])
    return Text(icon)


def card_box(edition, letter: str, note: str = "") -> Table:
    """One card as a small table: letter and number on top, name, region, icons."""
    card = edition.card(letter)
    colour = region_colour(edition, card.region)
    box = Table(show_header=True, header_style=f"bold {colour}", border_style=colour, width=25, padding=(0, 1))
    box.add_column(Text.assemble((f"[{card.letter}]", "bold reverse"), "  ", (str(card.number), "bold")))
    box.add_row(Text(card.name, style="bold"))
    box.add_row(Text(card.region.name, style=colour))
    for icon in card.icons:
        box.add_row(icon_text(edition, icon))
    if note:
        box.add_row(Text(note, style="dim"))
    return box


def cards_row(edition, letters, notes: dict | None = None) -> Columns:
    return Columns([card_box(edition, x, (notes or {}).get(x, "")) for x in letters], padding=(0, 1))


def icons_text(edition, icons) -> Text:
    """A card's icons in their colours, with their values: `Emus 4, Indigenous Culture`."""
    return Text(", ").join(icon_text(edition, icon) for icon in icons)


def card_lines(edition, letters, width: int = 80, indent: int = 1) -> Text:
    """Cards one a line, as a player reads them on the table: letter, number, name, region, icons with
    their values. Columns are aligned; when the longest line would not fit in width, the regions, then
    the names, are cut with '…' (as little as needed), so that a card never takes two lines."""
    cards = [edition.card(x) for x in letters]
    if not cards:
        return Text("")
    region = max(len(c.region.name) if c.region else 0 for c in cards)
    name = max(len(c.name) for c in cards)
    number = max(len(str(c.number)) for c in cards)
    letter = max(len(c.letter) for c in cards) + 2           # `[A]`, `[A.2]` for a second deck's copy
    longest = max(len(icons_text(edition, c.icons)) for c in cards)
    over = indent + letter + 1 + number + 1 + name + 2 + region + 2 + longest - (width - 1)
    cut_region = min(max(over, 0), max(region - 6, 0))
    region -= cut_region
    name -= min(max(over - cut_region, 0), max(name - 8, 0))
    lines = []
    for card in cards:
        colour = region_colour(edition, card.region)
        line = Text(" " * indent)
        line.append(f"[{card.letter}]".ljust(letter), style=f"bold {colour}")
        line.append(f" {card.number:>{number}} ", style="bold")
        line.append(_cut(card.name, name).ljust(name), style="bold")
        line.append("  ")
        line.append(_cut(card.region.name if card.region else "", region).ljust(region), style=colour)
        line.append("  ")
        line.append_text(icons_text(edition, card.icons))
        line.truncate(width - 1, overflow="ellipsis")
        lines.append(line)
    return Text("\n").join(lines)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def chip(edition, letter: str) -> Text:
    """A card in one short word for the table: letter, number, region colour."""
    card = edition.card(letter)
    return Text(f"{card.letter}{card.number}", style=f"bold {region_colour(edition, card.region)}")


def chip_line(edition, letters) -> Text:
    return Text(" ").join(chip(edition, x) for x in letters)


def table_view(edition, view: dict) -> Table:
    """Every seat at the table as this seat may see it: its Throw (face down; its own shown to it), its
    face-up cards this round, the cards it discarded (in a round that discards), the cards in hand (the
    cards themselves with open hands), its points in each round scored so far and its total."""
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    discards = any("discarded" in seat_view for seat_view in view["table"])
    for column in ("player", "throw", "face-up cards", *(("discarded",) if discards else ()), "hand"):
        table.add_column(column, justify="right" if column == "hand" else "left")
    players = {p["name"]: p for p in view["sheet"]["players"]}
    races = {race.key for race in edition.races}
    scored = len(next(iter(players.values()))["rounds"]) if players else 0
    for index in range(scored):
        table.add_column(f"r{index + 1}", justify="right")
    table.add_column("total", justify="right")
    for seat, seat_view in enumerate(view["table"]):
        face_up = chip_line(edition, seat_view["face_up"]) if seat_view["face_up"] else Text("-", style="dim")
        if seat == view["seat"]:
            throw = (chip(edition, view.get("throw")) + Text(" yours", style="dim")
                     if view.get("throw") and seat_view["throw_down"] else Text(""))
        else:
            throw = Text("▮ face down", style="dim") if seat_view["throw_down"] else Text("")
        name = Text(seat_view["name"], style="bold underline" if seat == view["seat"] else "")
        sheet = players.get(seat_view["name"], {"rounds": [], "total": 0})
        rounds = [str(sum(v for k, v in points.items() if k not in races)) for points in sheet["rounds"]]
        thrown = ((chip_line(edition, seat_view["discarded"]) if seat_view["discarded"] else Text("-", style="dim"),)
                  if discards else ())
        hand = chip_line(edition, seat_view["hand"]) if seat_view.get("hand") else str(seat_view["hand_size"])
        table.add_row(name, throw, face_up, *thrown, hand, *rounds, str(sheet["total"]))
    return table


def advice_table(edition, advice, kind: str = "draft") -> Table:
    """What each card would change on this seat's sheet now, and the expected score of the whole round, at a
    decision of this kind (throw, draft, discard: the titles are the web page's, rulesengine/net/static/app.js).

    At the Throw, the lines that need the Catch (not known until the round's last card) are left out:
    they cannot be told yet (bots.advice.shown_lines: the web page shows the same)."""
    throw = kind == "throw"
    if throw:
        title = "If you throw it (the lines known now, as if it were your only card; races as if you alone qualified)"
    elif kind == "discard":
        title = "If you took it instead (discard the card worth least to you, or one a rival wants)"
    else:
        title = "If you take it now (as if it were your last card; races as if you alone qualified)"
    table = Table(title=title, title_justify="left", show_edge=False)
    table.add_column("card")
    used = shown_lines(edition, advice, throw)
    for _, title in used:
        table.add_column(title, justify="right")
    table.add_column("expected round score", justify="right")
    best = max(a.expected for a in advice)
    for item in advice:
        cells = [f"{item.change(key):+g}" if item.change(key) else "" for key, _ in used]
        style = "bold green" if item.expected == best else ""
        table.add_row(chip(edition, item.letter), *cells, Text(f"{item.expected:.1f}", style=style))
    return table



def choice_table(edition, category, options) -> Table:
    """The options of a round-end choice, numbered, with the points each scores now."""
    table = Table(show_edge=False)    # the prompt names the category: `Activities (name or number...)`
    for column in ("#", "option", "points", ""):
        table.add_column(column, justify="right" if column == "points" else "left")
    best = max((o.points for o in options), default=0)
    number = 0
    for option in options:
        name = "none" if option.icon is None else option.icon
        allowed = not option.note or option.icon is None
        number += allowed
        style = (
            "bold green" if allowed and option.points == best and option.points > 0 else ("dim" if not allowed else "")
        )
        table.add_row(
            str(number) if allowed else "",
            Text(name, style=style),
            str(option.points) if allowed else "",
            Text(option.note, style="dim"),
        )
    return table
