"""The record of a game scored over what seats hold: the cards each captured and the tokens each kept.

`boom score` reads it for a game played on a real table (or written by `boom run --save-record`)
when the edition's blocks record `captured` and `kept` (the claim's and the bidding's places).
Every problem is located in the record file: the player, the card, the stock. It scores with the
game's own score sheet (ScoreKeeper and its holding lines), and never guesses a missing value.
"""

from __future__ import annotations

from types import SimpleNamespace

from ..edition.model import Edition
from ..edition.source import SourceMap
from ..errors import Diagnostic, RecordError, suggest
from ..escaping import line_problem
from .scoring import ScoreKeeper


def other_edition(played: object, edition: Edition) -> tuple[str, str]:
    """The message and hint for a record of another edition (the hint: how to ask "what would it give?")."""
    return (f"this record is a game of '{played}', not of '{edition.id}'",
            f"to see what it gives under {edition.id}: boom score --record FILE --edition {edition.id}")


def score_holdings(edition: Edition, record, source_map: SourceMap) -> dict:
    problems: list[Diagnostic] = []
    keys = ("edition", "players", "captured", "kept")

    def error(path, message, hint=None, key=False):
        problems.append(Diagnostic(source_map.span_at(path, key=key), message, "R701", hint=hint))

    if not isinstance(record, dict):
        error((), "a record must be a mapping with 'players', 'captured' and 'kept'")
        raise RecordError(problems)
    for key in record:
        if key not in keys:
            error((key,), f"unknown key '{key}' in the record", suggest(str(key), keys), key=True)
    players = record.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p for p in players):
        error(("players",), "'players' must be a list of names")
        raise RecordError(problems)
    for index, name in enumerate(players):  # printed within a line: "Ana\nWinner: Mallory" would fake one
        if line_problem(name):
            error(("players", index), f"a player name must be one line: it holds {line_problem(name)[1]}")
    if len(set(players)) != len(players):
        error(("players",), "two players have the same name")
    if not edition.players_min <= len(players) <= edition.players_max:
        error(
            ("players",),
            f"{edition.name} is for {edition.players_min} to {edition.players_max} players, "
            f"this record has {len(players)}",
        )
    if "edition" in record and record["edition"] != edition.id:
        error(("edition",), *other_edition(record["edition"], edition))
    for section in ("captured", "kept"):
        if not isinstance(record.get(section), dict):
            error(
                (section,) if section in record else (),
                f"'{section}' must map each player to "
                + ("the cards they captured" if section == "captured" else "the tokens they kept"),
            )
    if problems:
        raise RecordError(problems)
    captured, kept, owner = [], [], {}
    for section in ("captured", "kept"):
        for name in record[section]:
            if name not in players:
                error((section, name), f"'{name}' is not a player", suggest(str(name), players), key=True)
    for name in players:
        letters = record["captured"].get(name, [])
        cards = []
        if not isinstance(letters, list):
            error(("captured", name), f"{name}: a list of card letters")
            letters = []
        for index, letter in enumerate(letters):
            card = edition.card(str(letter))
            if card is None:
                error(
                    ("captured", name, index),
                    f"{name}: unknown card '{letter}'",
                    suggest(str(letter), [c.letter for c in edition.cards]),
                )
            elif card.letter in owner:
                error(
                    ("captured", name, index), f"{name}: card '{letter}' was already captured by {owner[card.letter]}"
                )
            else:
                owner[card.letter] = name
                cards.append(card)
        captured.append(cards)
        tokens = record["kept"].get(name)
        if not isinstance(tokens, dict):
            error(
                ("kept", name) if name in record["kept"] else ("kept",),
                f"{name}: the tokens kept, one number per stock ({', '.join(edition.stocks)})",
            )
            kept.append(dict.fromkeys(edition.stocks, 0))
            continue
        for stock in tokens:
            if stock not in edition.stocks:
                error(
                    ("kept", name, stock),
                    f"{name}: unknown stock '{stock}'",
                    suggest(str(stock), edition.stocks),
                    key=True,
                )
        for stock in edition.stocks:
            value = tokens.get(stock)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                error(
                    ("kept", name, stock) if stock in tokens else ("kept", name),
                    f"{name}: '{stock}' must be a number of tokens (0 or more)",
                )
        kept.append({stock: tokens.get(stock, 0) for stock in edition.stocks})
    if not problems:
        for stock, start in edition.stocks.items():
            total = sum(k[stock] for k in kept)
            if total != start * len(players):
                error(
                    ("kept",),
                    f"the players keep {total} {stock} in all, "
                    f"but {len(players)} players start with {start * len(players)}",
                    "every token thrown is taken back by a player who stops",
                )
    if problems:
        raise RecordError(problems)
    sheet = ScoreKeeper(edition, players)
    sheet.holdings = SimpleNamespace(captured=captured, stocks=kept)
    sheet.finish()
    return sheet.sheet()
