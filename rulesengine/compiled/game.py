"""A whole bot-only game of an edition as one generated Python function: the engine's game, seed for seed.

The engine plays a round block by block, asking every decision as data and answering it through
views and agents; a bot-only game with random seats needs none of that. Here the round's blocks
each write their part of one function (forms.py: the deal's shuffles, the picks and passes, the
Catch, the choices), with the deck and the passing baked in, and the round is scored by the
edition's own scoring program (game/program.py: the functions rulesengine/dsl/program generates
from the checked trees) on the engine's own score sheet (game/scoring.ScoreKeeper: its races, its
game end, its ranking). So a seed gives the engine's game: the same draws, decisions and sheet
(tests/test_compiled_game.py plays every shipped drafting edition and variant both ways).

An edition with a block that has no compiled form, or a round the forms do not play, raises
Unsupported naming it (fallback() says why), and its callers play it through the engine. The
source is made of the blocks' code and integers only: no text of the edition reaches it (the
cards and the program's functions are handed in as constants).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..dsl.program import deck_order
from ..edition.scopes import SeatInputs, moment, sheet_so_far
from ..game.blocks import round_plan
from ..game.program import program
from ..game.round_facts import all_seat_cards, others, table
from ..game.scoring import ScoreKeeper
from .forms import FORMS, RoundSource, Unsupported


@dataclass(frozen=True)
class GeneratedGame:
    """An edition's generated game for a number of players: play(seed, keys, scores) and its twin that also
    lists every decision as the engine logs it ([seat, answer, category])."""

    source: str
    play: object          # play(seed, keys, scores, None) -> scores, finished
    recorded: object      # recorded(seat, keys, scores, decisions): play, appending each decision


def generated(edition, players: int) -> GeneratedGame:
    """The edition's generated game for this many players, made once and kept with the edition; Unsupported
    (saying what) when some part of its round has no compiled form."""
    made = edition.kept(("generated game", players), lambda: _attempt(edition, players))
    if isinstance(made, Unsupported):
        raise made
    return made


def fallback(edition) -> str | None:
    """Why the generated game does not play this edition (the engine plays it), or None when it does."""
    try:
        generated(edition, edition.players_min)
    except Unsupported as exc:
        return str(exc)
    return None


def _attempt(edition, players: int):
    try:
        return _make(edition, players)
    except Unsupported as exc:
        return exc


def _make(edition, players: int) -> GeneratedGame:
    plan = round_plan(edition)
    missing = [step.name for cls, step in plan.made if cls not in FORMS]
    if missing:
        raise Unsupported(f"blocks without a compiled form: {', '.join(missing)}")
    if plan.rounds is None:
        raise Unsupported("a game that ends when the deck is empty")
    if plan.holds:
        raise Unsupported("holdings (captured cards, stocks)")
    if plan.repeats:
        raise Unsupported("a question asked twice in a round")
    plain, plain_constants = _source(edition, players, plan, record=False)
    logged, logged_constants = _source(edition, players, plan, record=True)
    return GeneratedGame(plain, _compile(plain, plain_constants), _compile(logged, logged_constants))


def _source(edition, players: int, plan, record: bool) -> tuple[str, dict]:
    round_ = RoundSource(edition, players, record)
    round_.write_inputs = _write_inputs
    for cls, step in plan.made:
        FORMS[cls](step, round_)
    if plan.scores_rounds:
        if not round_.caught:
            raise Unsupported("a round scored before its cards are all taken")
        _write_scoring(edition, round_)
    keys = ", ".join(f"key{s}" for s in range(players))
    head = ["def play_game(seed, keys, scores, decisions):",
            "    getrandbits = Random(seed).getrandbits",
            f"    {keys}, = keys",
            "    leftover = []",
            "    rounds = scores.rounds",
            "    used = scores.used_choices",
            "    seen = [EMPTY] * PLAYERS",
            f"    for r in range({plan.rounds}):",
            "        number = r + 1"]
    tail = ["    scores._seen = seen",
            "    scores.finish()",
            "    return scores"]
    scoring = program(edition)
    needs = scoring.needs
    constants = {"Random": random.Random, "EMPTY": frozenset(), "PLAYERS": players, "SEATS": range(players),
                 "CARDS": tuple(edition.cards), "BITS": tuple((i + 1).bit_length() for i in range(len(edition.cards))),
                 "MOMENTS": tuple(moment(edition, players, r + 1) for r in range(plan.rounds)),
                 "SEAT_ROUND": scoring.round, "TALLY": scoring.tally, "NO_POINTS": {}, "blank": object.__new__,
                 "SeatInputs": SeatInputs, "EDITION": edition, "sheet_so_far": sheet_so_far, "deck_order": deck_order,
                 "all_seat_cards": all_seat_cards, "others": others, "table": table,
                 "ALLOWED": tuple(scoring.allowed[c.key] for c in edition.choice_categories),
                 "NEEDS_TABLE": needs.table, **round_.constants}
    return "\n".join([*head, *round_.lines, *tail, ""]), constants


def _write_inputs(round_: RoundSource) -> None:
    """Every seat's inputs of the scoring program this round, as the engine's sheet makes them
    (ScoreKeeper._seat_inputs): one object a seat, for its choices and its points."""
    needs = program(round_.edition).needs
    emit = round_.emit
    emit("seen_now = [seen[s].union([c.site for c in drafts[s]]) for s in SEATS]")
    emit("at = MOMENTS[r]")
    if needs.visited or needs.table:
        emit("listed = [sorted(sites, key=deck_order) for sites in seen_now]")
    if needs.table:
        emit("seat_cards = all_seat_cards(drafts, listed)")
    emit("seat_inputs = []")
    emit("for s in SEATS:")
    emit("cards = drafts[s]", 3)
    emit("inputs = blank(SeatInputs)", 3)
    emit("inputs.cards, inputs.tally, inputs.seen = cards, TALLY(cards), seen_now[s]", 3)
    emit(f"inputs.visited = {'listed[s]' if needs.visited else 'seen_now[s]'}", 3)
    emit(f"inputs.table = {'table(others(drafts, s, listed, seat_cards))' if needs.table else 'None'}", 3)
    emit("inputs.previous = rounds[s][-1] if rounds[s] else NO_POINTS", 3)
    emit("inputs.players, inputs.round, inputs.rounds = at.players, at.round, at.rounds", 3)
    emit("inputs.choices = inputs.used = None", 3)
    emit(f"inputs.sheet = {'sheet_so_far(EDITION, rounds, s)' if needs.sheet else 'None'}", 3)
    emit("seat_inputs.append(inputs)", 3)


def _write_scoring(edition, round_: RoundSource) -> None:
    """The round scored as the engine's sheet scores it (ScoreKeeper.score_round with the game's own choices):
    each seat's points and races from the scoring program, the icons chosen used up, the races run."""
    round_.need_inputs()
    emit = round_.emit
    if not round_.chooses:
        emit("made = [{} for _ in SEATS]")
    emit("results = []")
    emit("qualified = []")
    emit("for s in SEATS:")
    emit("inputs = seat_inputs[s]", 3)
    emit("inputs.choices = made[s]", 3)
    emit("points, slots = SEAT_ROUND(inputs)", 3)
    emit("results.append(points)", 3)
    emit("qualified.append(slots)", 3)
    times = {c.key: c.choice.times for c in edition.choice_categories if c.choice.times > 1}
    if round_.chooses and edition.choice_categories:
        emit("for s in SEATS:")
        emit("mine = made[s]", 3)
        for category in edition.choice_categories:
            key = category.key
            emit(f"icon = mine.get({key!r})", 3)
            emit("if icon is not None:", 3)
            if key in times:   # chosen N times a game: used up at the N-th (ScoreKeeper.score_round)
                emit("counted = scores._chosen[s]", 4)
                emit(f"counted[{key!r}, icon] = times = counted.get(({key!r}, icon), 0) + 1", 4)
                emit(f"if times >= {times[key]}:", 4)
                emit(f"used[s][{key!r}].add(icon)", 5)
            else:
                emit(f"used[s][{key!r}].add(icon)", 4)
    emit("seen = seen_now")
    emit("scores._run_races(results, qualified, at)")
    emit("for s in SEATS:")
    emit("rounds[s].append(results[s])", 3)
    if program(edition).needs.end_table:
        emit("scores._last_drafts = [list(cards) for cards in drafts]")


def _compile(source: str, constants: dict):
    namespace = dict(constants)
    exec(compile(source, "<generated game>", "exec"), namespace)   # the blocks' code; constants handed in
    return namespace["play_game"]


def new_sheet(edition, names: list[str]) -> ScoreKeeper:
    """The engine's score sheet for a generated game of these players."""
    return ScoreKeeper(edition, names)
