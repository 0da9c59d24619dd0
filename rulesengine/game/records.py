"""A game as data (its players, and what its round's blocks record): read, checked, and scored.

Used by `boom score` for games played on a real table, and to check that a game played here and
then scored from its record gives the same sheet. A record holds the sections its edition's blocks
declare (Block.record): each round's drafts and choices (`rounds`), or what each seat captured and
the tokens it kept (`captured`, `kept`: holding_records.py). Every problem names the round, the seat
and the card, at its position in the record file, and every problem of the record is reported at once.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..edition.goals import goal_problem, goals_of
from ..edition.model import Edition
from ..edition.seat_options import seat_values
from ..edition.source import RECORD, SourceMap, load_yaml
from ..errors import Diagnostic, EditionError, GameRuleError, RecordError, suggest
from ..escaping import line_problem
from .blocks import round_plan
from .holding_records import other_edition, score_holdings
from .outputs import write_atomic
from .scoring import ScoreKeeper

_KEYS = ["players", "rounds", "edition", "seat_options", "goals"]


def _seat_options(check, given, players) -> tuple | None:
    """Each seat's options from the record's `seat_options` (name -> option -> number), or RecordError."""
    if not given:
        return None
    if not (isinstance(given, dict) and all(isinstance(v, dict) for v in given.values())):
        check.error(("seat_options",), "'seat_options' maps player names to {option: number}")
        raise RecordError(check.problems)
    try:
        return seat_values(check.edition, players, given)
    except GameRuleError as exc:
        for diagnostic in exc.diagnostics:
            check.error(("seat_options",), diagnostic.message)
        raise RecordError(check.problems) from None


def _goals(check, keeper: ScoreKeeper, record: dict) -> None:
    """The public goals drawn in the recorded game (`goals`: their ids), handed to the sheet; RecordError when
    the edition has goals and the record names none, or names what is not a draw of its deck."""
    goals = goals_of(check.edition)
    if goals is None:
        if "goals" in record:
            check.error(("goals",), f"{check.edition.name} has no public goals", key=True)
            raise RecordError(check.problems)
        return
    if "goals" not in record:
        check.error((), f"the record has no 'goals': {check.edition.name} draws {goals.draw} public goals a game",
                    "add goals: [" + ", ".join(g.id for g in goals.cards[:goals.draw]) + "] (the ids drawn)")
        raise RecordError(check.problems)
    problem = goal_problem(goals, record["goals"])
    if problem:
        at, message = problem
        check.error(("goals", *at), f"'goals' {message}")
        raise RecordError(check.problems)
    keeper.set_goals(record["goals"])


class _Checker:
    def __init__(self, edition: Edition, source_map: SourceMap):
        self.edition = edition
        self.map = source_map
        self.problems: list[Diagnostic] = []

    def error(self, path, message, hint=None, key=False):
        self.problems.append(Diagnostic(self.map.span_at(path, key=key), message, "R701", hint=hint))


def load_record(path: str | Path) -> tuple[dict, SourceMap]:
    try:
        return load_yaml(path, kind=RECORD)
    except EditionError as exc:  # the YAML reader speaks of editions; here it is a record
        raise RecordError(exc.diagnostics) from None


def score_record(edition: Edition, record, source_map: SourceMap, what_if: bool = False,
                 seat_options: dict | None = None) -> dict:
    """Check a record against the edition and return its score sheet, or raise RecordError.

    what_if: the record may name another edition (a game scored under a house rule's scoring); seat_options:
    name -> option -> number, what the table set (`boom score --seat-option`), over the record's own."""
    if what_if and isinstance(record, dict):
        record = {key: value for key, value in record.items() if key != "edition"}
    if seat_options and isinstance(record, dict):
        given = record.get("seat_options")
        mine = {name: dict(values) for name, values in given.items()} if isinstance(given, dict) else {}
        for name, values in seat_options.items():
            mine[name] = {**(mine.get(name) if isinstance(mine.get(name), dict) else {}), **values}
        record = dict(record, seat_options=mine)
    try:
        if "rounds" not in round_plan(edition).record:
            return score_holdings(edition, record, source_map)
        return _score_record(edition, record, source_map)
    except RecordError as exc:
        raise exc.quoting(source_map.texts) from None


def _score_record(edition: Edition, record, source_map: SourceMap) -> dict:
    check = _Checker(edition, source_map)
    if not isinstance(record, dict):
        check.error((), "a record must be a mapping with 'players' and 'rounds'")
        raise RecordError(check.problems)
    for key in record:
        if key not in _KEYS:
            check.error((key,), f"unknown key '{key}' in the record", suggest(str(key), _KEYS), key=True)
    players = record.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p for p in players):
        check.error(("players",), "'players' must be a list of names")
        raise RecordError(check.problems)
    for index, name in enumerate(players):  # printed within a line: "Ana\nWinner: Mallory" would fake one
        if line_problem(name):
            check.error(("players", index), f"a player name must be one line: it holds {line_problem(name)[1]}")
    if len(set(players)) != len(players):
        check.error(("players",), "two players have the same name")
    if not edition.players_min <= len(players) <= edition.players_max:
        check.error(
            ("players",),
            f"{edition.name} is for {edition.players_min} to {edition.players_max} players, "
            f"this record has {len(players)}",
        )
    if "edition" in record and record["edition"] != edition.id:
        check.error(("edition",), *other_edition(record["edition"], edition))
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        check.error(("rounds",), "'rounds' must be a list with one entry per round")
        raise RecordError(check.problems)
    if len(rounds) != edition.rounds:
        check.error(("rounds",), f"{edition.name} has {edition.rounds} rounds, this record has {len(rounds)}")
    if check.problems:
        raise RecordError(check.problems)

    keeper = ScoreKeeper(edition, players, _seat_options(check, record.get("seat_options"), players))
    _goals(check, keeper, record)
    choice_keys = {c.key: c for c in edition.choice_categories}
    for r, round_data in enumerate(rounds):
        path = ("rounds", r)
        label = f"round {r + 1}"
        kept = edition.round.kept(r)  # the hand dealt, less what the round discards
        if not isinstance(round_data, dict) or not isinstance(round_data.get("drafts"), dict):
            check.error(path, f"{label} must have 'drafts': each player's cards in the order taken")
            raise RecordError(check.problems)
        for key in round_data:
            if key not in ("drafts", "choices"):
                check.error(
                    path + (key,), f"unknown key '{key}' in {label}", suggest(str(key), ["drafts", "choices"]), key=True
                )
        drafts_data = round_data["drafts"]
        for name in drafts_data:
            if name not in players:
                check.error(
                    path + ("drafts", name), f"{label}: '{name}' is not a player", suggest(str(name), players), key=True
                )
        owner: dict = {}
        drafts = []
        for name in players:
            where = path + ("drafts", name)
            letters = drafts_data.get(name)
            if letters is None:
                check.error(path + ("drafts",), f"{label}: no cards for {name}")
                continue
            if not isinstance(letters, list):
                check.error(where, f"{label}, {name}: the cards must be a list of letters")
                continue
            if len(letters) != kept:
                check.error(where, f"{label}, {name}: {len(letters)} cards, but a seat drafts {kept} a round")
            hand = []
            for i, letter in enumerate(letters):
                card = edition.card(str(letter))
                if card is None:
                    check.error(
                        where + (i,),
                        f"{label}, {name}: unknown card '{letter}'",
                        suggest(str(letter), [c.letter for c in edition.cards]),
                    )
                    continue
                if card in owner:
                    check.error(
                        where + (i,),
                        f"{label}, {name}: card '{card.letter}' was already drafted by {owner[card]} this round",
                        "each card exists once",
                    )
                    continue
                owner[card] = name
                hand.append(card)
            drafts.append(hand)
        playable = len(drafts) == len(players) and all(len(hand) == kept for hand in drafts)
        choices = [{} for _ in players]
        choices_data = round_data.get("choices") or {}
        if not isinstance(choices_data, dict):
            check.error(path + ("choices",), f"{label}: 'choices' must map players to their choices")
            choices_data = {}
        for name, picked in choices_data.items():
            where = path + ("choices", name)
            if name not in players:
                check.error(where, f"{label}: '{name}' is not a player", suggest(str(name), players), key=True)
                continue
            if not isinstance(picked, dict):
                check.error(where, f"{label}, {name}: a choice is written as {{category: option}}")
                continue
            seat = players.index(name)
            for key, icon in picked.items():
                category = choice_keys.get(key)
                if category is None:
                    check.error(
                        where + (key,),
                        f"{label}, {name}: '{key}' is not a category with a choice",
                        suggest(str(key), choice_keys)
                        or f"choices: {', '.join(choice_keys) or 'none in this edition'}",
                        key=True,
                    )
                    continue
                if icon is None or not playable:
                    continue
                reason = keeper.check_choice(seat, category, str(icon), drafts)
                if reason:
                    unknown = str(icon) not in category.choice.family.icon_set
                    hint = suggest(str(icon), category.choice.family.icons) if unknown else None
                    check.error(where + (key,), f"{label}, {name}: {reason}", hint)
                    continue
                choices[seat][key] = str(icon)
        if playable:  # a round with a broken hand is not scored; the later rounds are still checked
            keeper.score_round(drafts, choices)
    if check.problems:
        raise RecordError(check.problems)
    keeper.finish()
    return keeper.sheet()


def write_record(path: str | Path, record: dict) -> None:
    """Write a game's record (Game.record()) for `boom score`: JSON when the name ends in .json, else YAML."""
    if Path(path).suffix.lower() == ".json":
        text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    else:
        import yaml  # only here: most commands never write a record

        text = yaml.safe_dump(record, sort_keys=False, allow_unicode=True, default_flow_style=None)
    write_atomic(path, text)
