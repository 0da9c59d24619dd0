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

import _random
from collections import _count_elements
from functools import cached_property

from ..bots.seeding import agent_seed, seed_key
from ..dsl.program import deck_order, names
from ..edition.scopes import moment, sheet_so_far
from ..game.blocks import round_plan
from ..game.program import program
from ..game.round_facts import all_seat_cards, others, table
from ..game.scoring import ScoreKeeper
from .forms import FORMS, GOLDEN, MIX_1, MIX_2, M, RoundSource, Unsupported, draw_choice
from .scoring import ROUND, seat_round
from .sheet import sheet_maker


class GeneratedGame:
    """An edition's generated game for a number of players: play(seed, keys, scores), and its twin recorded(seed,
    keys, scores, decisions, offered, history) that also appends each decision as the engine logs it ([seat,
    answer, category]), how many options it had, and each round's cards and choices. Each is compiled when
    first asked for (about 60 ms for four players: a tournament needs one, a simulation the other)."""

    def __init__(self, edition, players: int, plan):
        self.source, self._constants = _source(edition, players, plan, record=False)
        self.recorded_source, _ = _source(edition, players, plan, record=True)
        self.sheets = sheet_maker(edition, players)   # the sheets it fills (a game's own, fresh)

    @cached_property
    def play(self):
        return _compile(self.source, self._constants)

    @cached_property
    def recorded(self):
        return _compile(self.recorded_source, self._constants)


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
    if program(edition).runner != "compiled":
        raise Unsupported("the reference runner (the generated game calls the compiled program)")
    return GeneratedGame(edition, players, plan)


def _source(edition, players: int, plan, record: bool) -> tuple[str, dict]:
    """The generated game's source, every round written out, and the constants it is handed."""
    scoring = program(edition)
    seats = range(players)
    categories = edition.choice_categories
    lines = [f"def play_game(seed, keys, scores{', decisions, offered, history' if record else ''}):",
             "    getrandbits = Random(seed).getrandbits",
             *_keys(players),
             "    rounds = scores.rounds",
             f"    {', '.join(f'r{s}' for s in seats)}, = rounds",
             "    used = scores.used_choices",
             "    won = [state.winners for state in scores._race_states]"]
    masked, sets = _visited_forms(edition)
    for s in seats:
        lines += [f"    used{s}_{c} = used[{s}][KEY_{c}]" for c in range(len(categories))]
        lines.append(f"    seen{s} = EMPTY" if sets else f"    sites{s} = []")
        if masked:
            lines.append(f"    m{s} = 0")
    leftover = 0
    for r in range(plan.rounds):
        round_ = RoundSource(edition, players, r, leftover, record)
        round_.write_inputs = _write_inputs
        for cls, step in plan.made:
            FORMS[cls](step, round_)
        if plan.scores_rounds:
            if not round_.caught:
                raise Unsupported("a round scored before its cards are all taken")
            _write_scoring(edition, round_)
        if record:   # the round as the engine's history keeps it: each seat's cards, its choices (None: none)
            chosen = [f"({''.join(f'c{s}_{c}, ' for c in range(len(categories)))})" if round_.chooses else "()"
                      for s in seats]
            round_.emit(f"history.append(([{', '.join(f'd{s}' for s in seats)}], [{', '.join(chosen)}]))")
        lines += [f"    # round {r + 1}", *round_.lines]
        leftover = len(edition.cards) - players * round_.hand
    seen = [f"seen{s}" if sets else f"frozenset(sites{s})" for s in seats]
    lines += [f"    scores._seen = [{', '.join(seen)}]", *_game_end(edition, players), "    return scores"]
    # _random.Random(seed): random.Random(seed)'s generator (the same words: its C seeding), without its Python
    # __init__ and seed() (some 2 us of a game of ~130)
    constants = {"Random": _random.Random, "EMPTY": frozenset(), "PLAYERS": players, "ROUNDS": edition.rounds,
                 "CARDS": tuple(edition.cards), "ZEROS": scoring.zeros, "NO_POINTS": {},
                 "count_icons": _count_elements, "EDITION": edition, "SEAT_KEYS": random_keys,
                 "sheet_so_far": sheet_so_far, "deck_order": deck_order, "all_seat_cards": all_seat_cards,
                 "others": others, "table": table, "_run_races": _run_races,
                 "MOMENTS": tuple(moment(edition, players, r + 1) for r in range(plan.rounds)),
                 "SITE_BIT": {card: 1 << card.site.index for card in edition.cards},
                 "ICON_BYTES": seat_round(edition).packed[1] if seat_round(edition).packed else None,
                 "CARD_INT": _card_ints(edition)[0]}
    for c, category in enumerate(categories):
        constants[f"KEY_{c}"] = category.key
    for k, key in enumerate(dict.fromkeys(race.key for race in edition.races)):
        constants[f"RACE_{k}"] = key
    constants.update(seat_round(edition).namespace())
    constants["__builtins__"] = {"list": list, "set": set, "sorted": sorted,   # what the game's own lines call
                                 "frozenset": frozenset}
    return "\n".join([*lines, ""]), constants


def _game_end(edition, players: int) -> list[str]:
    """The sheet's game end (ScoreKeeper.finish): each seat's game-end points, written in place where the
    program's game end reads only what the game holds (compiled/scoring.SeatRound.end), else finish() called."""
    written = seat_round(edition)
    if written.end is None:
        return ["    scores.finish()"]
    lines = ["    scores._sheet = None"]
    for s in range(players):
        lines.append(f"    {names.MASK['visited']} = m{s}")
        lines += [f"    {names.game(v)} = {source}" for v, source in (("players", "PLAYERS"), ("rounds", "ROUNDS"))
                  if v in written.end_reads]
        lines += [f"    {line}" for line in written.end]
        lines.append(f"    e{s} = points")
    lines.append(f"    scores.end_scores = [{', '.join(f'e{s}' for s in range(players))}]")
    return lines


def _keys(players: int) -> list[str]:
    """The lines setting key0, key1...: the seats' bots' keys as given, or (keys None) the game seed's own
    bots' (bots/seeding.seed_key of agent_seed), mixed here while an agent seed fits in 64 bits."""
    seats = range(players)
    lines = ["    if keys is None:",
             "        a = seed * 1000003 + 1",
             f"        if 0 <= a <= {M - 7919 * (players - 1)}:"]
    for s in seats:
        lines += [f"            x = ((a + {7919 * s}) ^ {MIXED_ZERO}) + {GOLDEN} & {M}",
                  f"            x = (x ^ x >> 30) * {MIX_1} & {M}",
                  f"            x = (x ^ x >> 27) * {MIX_2} & {M}",
                  f"            key{s} = x ^ x >> 31"]
    lines += ["        else:",
              f"            {', '.join(f'key{s}' for s in seats)}, = SEAT_KEYS(seed, PLAYERS)",
              "    else:",
              f"        {', '.join(f'key{s}' for s in seats)}, = keys"]
    return lines


def _card_ints(edition) -> tuple[dict | None, int, int]:
    """Where the tally is packed and every card is its own site: each card as one int, its icons' bytes (the
    packed tally's) and above them, from bit `shift`, its bit of the visited mask; a hand's cards added give
    both its tally (the int's first `length` bytes) and its mask (the int >> shift), the cards of a hand
    being distinct. (None, 0, 0) otherwise."""
    packed = seat_round(edition).packed
    if packed is None or not all(card.site is card for card in edition.cards):
        return None, 0, 0
    index, icons = packed
    shift = 8 * (len(index) + 1)   # the tally's bytes, and one always 0 (an icon it lacks)
    ints = {card: icons[card] + (1 << shift + card.index) for card in edition.cards}
    return ints, len(index) + 1 + (len(edition.cards) + 7) // 8, shift


def _tables(edition) -> bool:
    """Whether a round reads the other seats' cards seat by seat (opponents, left, right): the engine's table."""
    return program(edition).needs.table and bool(seat_round(edition).reads & {"opponents", "left", "right"})


def _visited_forms(edition) -> tuple[bool, bool]:
    """How the game holds each seat's visited sites: as a bitmask m{seat} (where the round's statements read
    them as a mask answers), and as a set n{seat} made every round (where something reads them otherwise);
    without the set, sites{seat} lists the sites taken, and the sheet gets their set at the end."""
    masked = seat_round(edition).masked
    return masked, not masked or program(edition).needs.visited or _tables(edition)


def _write_inputs(round_: RoundSource) -> None:
    """What the program's statements read of every seat this round, as the engine's sheet makes it
    (ScoreKeeper._seat_inputs): n{seat} its visited sites (or m{seat} their mask, see _visited_forms),
    t{seat} the tally of its cards, tb{seat} its table, sh{seat} its sheet so far, `listed` the visited sites
    in deck order (each only where something reads it)."""
    edition, seats = round_.edition, range(round_.players)
    needs = program(edition).needs
    emit = round_.emit
    kept = round_.hand   # the cards a seat takes this round (no discards)
    sites = all(card.site is card for card in edition.cards)   # no copies: a card is its own site
    masked, as_sets = _visited_forms(edition)
    packed = seat_round(edition).packed
    counted = seat_round(edition).counts_others   # the other seats' tally: all the round's ints less the seat's
    for s in seats:
        taken = f"d{s}" if sites else f"[c.site for c in d{s}]"
        if as_sets:
            emit(f"n{s} = seen{s}.union({taken})")
        else:
            emit(f"sites{s} += {taken}")
        if masked and packed and sites:   # one int a card: its icons' bytes, its bit above them (see _card_ints)
            emit(f"x{s} = {' + '.join(f'CARD_INT[d{s}[{k}]]' for k in range(kept))}")
            emit(f"t{s} = x{s}.to_bytes({_card_ints(edition)[1]}, 'little')")
            emit(f"m{s} = m{s} | x{s} >> {_card_ints(edition)[2]}")
        elif masked:
            emit(f"m{s} = m{s} | {' | '.join(f'SITE_BIT[d{s}[{k}]]' for k in range(kept))}")
    if counted and masked and packed and sites:
        emit(f"x = {' + '.join(f'x{s}' for s in seats)}")
        for s in seats:
            emit(f"to{s} = (x - x{s}).to_bytes({_card_ints(edition)[1]}, 'little')")
    # the other seats' cards: the engine's table (others, opponents, left, right); or, where nothing but
    # `others` is read, o{seat}: their cards in one list, seat by seat (the engine's Others, as a list)
    tables = _tables(edition)
    pooled = needs.table and not tables and "others" in seat_round(edition).reads   # (not where only counted)
    if needs.visited or tables:
        emit(f"listed = [sorted(sites, key=deck_order) for sites in ({''.join(f'n{s}, ' for s in seats)})]")
    if tables:
        emit(f"drafts = [{', '.join(f'd{s}' for s in seats)}]")
        emit("seat_cards = all_seat_cards(drafts, listed)")
    for s in seats:   # the tally of the cards a seat takes: packed (an add a card), or one C call over their icons
        if masked and packed and sites:
            pass   # made with the mask, above
        elif packed:
            emit(f"x{s} = {' + '.join(f'ICON_BYTES[d{s}[{k}]]' for k in range(kept))}")
            emit(f"t{s} = x{s}.to_bytes({len(packed[0]) + 1}, 'little')")
        else:
            emit(f"t{s} = ZEROS.copy()")
            emit(f"count_icons(t{s}, {' + '.join(f'd{s}[{k}].icons' for k in range(kept))})")
        if counted and packed and not (masked and sites) and s == seats[-1]:
            emit(f"x = {' + '.join(f'x{other}' for other in seats)}")
            for other in seats:
                emit(f"to{other} = (x - x{other}).to_bytes({len(packed[0]) + 1}, 'little')")
        if tables:
            emit(f"tb{s} = table(others(drafts, {s}, listed, seat_cards))")
        elif pooled:
            emit(f"o{s} = {' + '.join(f'd{other}' for other in seats if other != s)}")
        if needs.sheet:
            emit(f"sh{s} = sheet_so_far(EDITION, rounds, {s})")


def _write_scoring(edition, round_: RoundSource) -> None:
    """The round scored as the engine's sheet scores it (ScoreKeeper.score_round with the game's own choices):
    each seat's choices and points, the program's statements in place (compiled/scoring.py), the icons
    chosen used up, the races run."""
    round_.need_inputs()
    emit, seats = round_.emit, range(round_.players)
    categories = edition.choice_categories if round_.chooses else ()
    written = seat_round(edition)
    needs = program(edition).needs
    visited = "listed[{}]" if needs.visited else "n{}"
    pooled = needs.table and not written.reads & {"opponents", "left", "right"}
    race_keys = list(dict.fromkeys(race.key for race in edition.races))
    round_keys = {category.key for category in edition.categories if category.when == ROUND}
    lined = [k for k, key in enumerate(race_keys) if key not in round_keys]   # a race line no category wrote
    for s in seats:
        if written.previous or written.choices_previous:
            emit(f"previous = {f'r{s}[-1]' if round_.r else 'NO_POINTS'}")
        emit(f"seat, t = {s}, t{s}")
        for line in written.bind(s, round_.r + 1, visited.format(s), pooled):
            emit(line)
        for c, category in enumerate(categories):
            emit(f"used = used{s}_{c}")
            for line in written.choices[c]:
                emit(line)
            draw_choice(round_, s, c, category)
        for c in range(len(edition.choice_categories)):
            emit(f"chosen_{c} = {f'c{s}_{c}' if categories else 'None'}")
        for line in written.body:
            emit(line)
        for k in lined:   # the sheet's line for each race, won or not (ScoreKeeper._run_races's setdefault)
            emit(f"points[RACE_{k}] = 0")
        emit(f"p{s}, q{s} = points, qualified")
    for s in seats:
        for c, category in enumerate(categories):
            times = category.choice.times
            emit(f"if c{s}_{c} is not None:")
            if times > 1:   # chosen N times a game: used up at the N-th (ScoreKeeper.score_round)
                emit(f"counted = scores._chosen[{s}]", 2)
                emit(f"counted[KEY_{c}, c{s}_{c}] = times = counted.get((KEY_{c}, c{s}_{c}), 0) + 1", 2)
                emit(f"if times >= {times}:", 2)
                emit(f"used{s}_{c}.add(c{s}_{c})", 3)
            else:
                emit(f"used{s}_{c}.add(c{s}_{c})", 2)
        if _visited_forms(edition)[1]:
            emit(f"seen{s} = n{s}")
    if race_keys:   # the races run when a seat qualifies
        emit(f"if {' or '.join(f'q{s}' for s in seats)}:")
        emit(f"_run_races(scores, [{', '.join(f'p{s}' for s in seats)}], [{', '.join(f'q{s}' for s in seats)}], "
             f"MOMENTS[{round_.r}])", 2)
    for s in seats:
        emit(f"r{s}.append(p{s})")
    if program(edition).needs.end_table:
        emit(f"scores._last_drafts = [{', '.join(f'list(d{s})' for s in seats)}]")


def _run_races(scores: ScoreKeeper, results: list, qualified: list, at) -> None:
    """ScoreKeeper._run_races for the generated game, less what it has done already: every seat's sheet has its
    race lines, and a seat's qualified slots leave out those it won before (its statements test `won`). Each
    slot's next place is given to every seat that qualified for it, slot by slot in order, as the sheet gives it;
    its award read from the sheet's kept awards (ScoreKeeper._award's, which works out one not yet kept)."""
    states, awards, pairs, number = scores._race_states, scores._awards, scores._plan.race_pairs, at.round
    takers = [seat for seat, slots in enumerate(qualified) if slots]
    if len(takers) == 1:   # one seat takes its slots alone (the usual round): qualified in slot order
        seat = takers[0]
        points = results[seat]
        for index in qualified[seat]:
            state = states[index]
            state.places_given = place = state.places_given + 1
            award = awards.get((index, place, number, 1))
            if award is None:
                award = scores._award(index, at, place, 1)
            state.winners.add(seat)
            points[pairs[index][0].key] += award
        return
    taken: dict = {}
    for seat in takers:
        for index in qualified[seat]:
            if index in taken:
                taken[index].append(seat)
            else:
                taken[index] = [seat]
    for index in sorted(taken):
        state, seats = states[index], taken[index]
        state.places_given = place = state.places_given + 1
        award = awards.get((index, place, number, len(seats)))
        if award is None:
            award = scores._award(index, at, place, len(seats))
        key = pairs[index][0].key
        for seat in seats:
            state.winners.add(seat)
            results[seat][key] += award


def _compile(source: str, constants: dict):
    namespace = dict(constants)
    exec(compile(source, "<generated game>", "exec"), namespace)   # the blocks' code; constants handed in
    return namespace["play_game"]


def random_keys(seed: int, players: int) -> list[int]:
    """Each random seat's key (bots/seeding.seed_key) of the game seed's bots (agent_seed)."""
    return [seed_key(agent_seed(seed, seat)) for seat in range(players)]


def _mixed(x: int) -> int:
    """splitmix64's finaliser (bots/seeding.py's)."""
    x = (x + GOLDEN) & M
    x = ((x ^ (x >> 30)) * MIX_1) & M
    x = ((x ^ (x >> 27)) * MIX_2) & M
    return x ^ (x >> 31)


MIXED_ZERO = _mixed(0)   # an agent seed's high 64 bits, mixed, when they are 0 (bots/seeding.seed_key)
