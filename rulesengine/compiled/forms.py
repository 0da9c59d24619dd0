"""The compiled forms of a round's blocks: each writes its part of the generated whole game (game.py).

A block of game/blocks has a compiled form when an entry of FORMS, keyed by its class, says how to
write its part of a bot-only game as Python source: the deal's two shuffles, the picks and passes,
the Catch, the round-end choices. A form is handed the block's step and the round being written
(RoundSource: every round is written out, its number, hand size and passing known), reads only the
step's parameters and the edition, and raises Unsupported (saying what) for a parameter it does not
play; a block with no entry here makes the whole edition fall back to the engine, named. A form
never decides a score: the round's scoring is the edition's scoring program, called by the lines
game.py writes after the blocks.

Every random draw is the engine's, in the engine's order: the deal's `random.Random.shuffle`
(getrandbits and its rejection, game/shuffling.py) of the cards left undealt, then of the rest
(game/blocks/deal.py, game/dealing.py); each random seat's answer splitmix64 of its key and the
decision (bots/seeding.py), the options in the order the engine offers them. The hands never move:
the seat holding hand h at pass k is worked out here, so a pass is no list rotated.
"""

from __future__ import annotations

import zlib

from ..game.blocks import CatchBlock, ChoicesBlock, DealBlock, PickAndPassBlock, ThrowBlock

THROW, DRAFT, CHOICE = 1, 2, 3      # the kinds of decision as the random bot mixes them in (bots/seeding.py)
GOLDEN, MIX_1, MIX_2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
M = (1 << 64) - 1


class Unsupported(Exception):
    """A part of an edition the generated game does not play: the engine plays the edition instead."""


class RoundSource:
    """The source of one round of the generated game (0-based `r`), block by block, and what its blocks
    made so far: h0, h1... each hand as dealt (the seats pass them round), d0, d1... each seat's cards taken,
    c{seat}_{category} each seat's choices."""

    def __init__(self, edition, players: int, r: int, leftover: int, record: bool):
        self.edition, self.players, self.r, self.record = edition, players, r, record
        self.leftover = leftover      # how many cards were left undealt last round (known from the hand sizes)
        self.lines: list[str] = []
        self.hand = 0                 # the hand dealt this round
        self.first_kind = DRAFT       # the first pick's kind: a Throw block makes it THROW
        self.holder: list[int] | None = None   # after the picks: seat -> the hand it holds (its Catch's)
        self.caught = False           # the Catch is taken: d0, d1... hold the round's cards
        self.chooses = False          # c{seat}_{category} hold each seat's choices
        self.has_inputs = False       # i0, i1... hold each seat's inputs of the scoring program for this round
        self.write_inputs = None      # game.py's: writes the lines that make them

    def emit(self, line: str, depth: int = 1) -> None:
        self.lines.append("    " * depth + line)

    def need_inputs(self) -> None:
        """The seats' inputs of the scoring program set here for this round, if they are not yet."""
        if not self.has_inputs:
            self.write_inputs(self)
            self.has_inputs = True

    def draw(self, target: str, key: str, asked: str, count: int | str, depth: int = 1) -> None:
        """target = the random bot's index among `count` options: splitmix64 of key ^ asked (bots/seeding.py)."""
        self.emit(f"{target} = {self.drawn(key, asked, count, depth)}", depth)

    def drawn(self, key: str, asked: str, count: int | str, depth: int = 1) -> str:
        """The lines mixing x of key ^ asked, and the expression of the index they give (see draw)."""
        self.emit(f"x = ({key} ^ {asked}) + {GOLDEN} & {M}", depth)
        self.emit(f"x = (x ^ x >> 30) * {MIX_1} & {M}", depth)
        self.emit(f"x = (x ^ x >> 27) * {MIX_2} & {M}", depth)
        return f"(x ^ x >> 31) % {count}"

    def shuffle(self, name: str, size: int) -> None:
        """random.Random.shuffle of the list `name` of this length, written out (game/shuffling.py's draws)."""
        for i in range(size - 1, 0, -1):
            bits = (i + 1).bit_length()
            self.emit(f"j = getrandbits({bits})")
            self.emit(f"while j > {i}:")
            self.emit(f"j = getrandbits({bits})", 2)
            self.emit(f"{name}[{i}], {name}[j] = {name}[j], {name}[{i}]")


def deal_form(step, round_: RoundSource) -> None:
    """The cards undealt last round shuffled and dealt first, one at a time around the table, then the
    shuffled rest (game/dealing.py, version 5)."""
    if round_.hand:
        raise Unsupported("a second deal in a round")
    edition, n, left = round_.edition, round_.players, round_.leftover
    if edition.draft.ghosts:
        raise Unsupported("ghost hands (they draw from the game's generator as they go)")
    hand = round_.hand = step.cards_in(round_.r)
    size, dealt = len(edition.cards), n * hand
    if dealt > size:
        raise Unsupported(f"a deal of {dealt} cards from a deck of {size}")
    emit = round_.emit
    if not left:
        emit("rest = list(CARDS)")
        round_.shuffle("rest", size)
        for s in range(n):
            emit(f"h{s} = rest[{s * hand}:{(s + 1) * hand}]")
        emit(f"leftover = rest[{dealt}:]")
        return
    round_.shuffle("leftover", left)
    emit("undealt = set(leftover)")
    emit("rest = [c for c in CARDS if c not in undealt]")
    round_.shuffle("rest", size - left)
    first = min(left, dealt)
    emit(f"rest = leftover[{first}:] + rest")
    at = 0
    for s in range(n):
        own = len(range(s, first, n))
        need = hand - own
        emit(f"h{s} = leftover[{s}:{first}:{n}] + rest[{at}:{at + need}]")
        at += need
    emit(f"leftover = rest[{at}:]")


def throw_form(step, round_: RoundSource) -> None:
    """The round's first pick is asked as a Throw (its kind in the random bot's draw); no line of its own."""
    if round_.holder is not None:
        raise Unsupported("a Throw after the picks")
    round_.first_kind = THROW


def pick_form(step, round_: RoundSource) -> None:
    """Every seat picks a card of the hand it holds, then the hands pass on (game/passing.py), until one card
    is left in each: the hand seat s holds at each pass is known here, so no hand moves."""
    if not round_.hand or round_.holder is not None:
        raise Unsupported("picks without a deal before them")
    if any(p > 1 for p in step.picks):
        raise Unsupported("passes of several cards")
    if any(step.discards):
        raise Unsupported("discards")
    passing, n, r, hand = round_.edition.passing, round_.players, round_.r, round_.hand
    for s in range(n):
        round_.emit(f"d{s} = []")
    turned = 0   # how far the hands have moved: seat s holds the hand dealt to seat (s - turned) % n
    kind = round_.first_kind
    for k in range(hand - 1):
        count = hand - k
        asked = kind | (r + 1) << 2 | count << 12
        for s in range(n):
            held = (s - turned) % n
            if not round_.record:   # one line: no local stored and read again (24 picks a round)
                round_.emit(f"d{s}.append(h{held}.pop({round_.drawn(f'key{s}', str(asked), count)}))")
                continue
            round_.draw("i", f"key{s}", str(asked), count)
            round_.emit(f"card = h{held}.pop(i)")
            round_.emit(f"d{s}.append(card)")
            round_.emit(f"decisions.append([{s}, card.letter, None])")
            round_.emit(f"offered.append({count})")
        direction = passing.direction(r, k)
        if count == 2 and passing.catch == "previous":
            direction = -direction
        turned += direction
        kind = DRAFT
    round_.holder = [(s - turned) % n for s in range(n)]


def catch_form(step, round_: RoundSource) -> None:
    """Each hand's last card, passed on by the last pass, is taken."""
    if round_.holder is None or round_.caught:
        raise Unsupported("a Catch without the picks before it")
    for s, held in enumerate(round_.holder):
        round_.emit(f"d{s}.append(h{held}[0])")
    round_.caught = True


def choices_form(step, round_: RoundSource) -> None:
    """Every seat answers each choice category (seat by seat, in the edition's order), among the icons the
    scoring program allows it (then none): the program's statements listing them are written with the
    seat's scoring (game.py, compiled/scoring.py), then draw_choice its answer."""
    if not round_.caught:
        raise Unsupported("choices before the round's cards are all taken")
    round_.chooses = True


def draw_choice(round_: RoundSource, seat: int, c: int, category) -> None:
    """c{seat}_{c} = the random bot's answer among `allowed`, then none (bots/seeding.py)."""
    code = zlib.crc32(category.key.encode("utf-8"))
    round_.emit("count = len(allowed) + 1")
    round_.draw("i", f"key{seat}", f"({CHOICE | (round_.r + 1) << 2 | code << 24} | count << 12)", "count")
    round_.emit(f"c{seat}_{c} = allowed[i] if i < count - 1 else None")
    if round_.record:
        round_.emit(f"decisions.append([{seat}, c{seat}_{c}, KEY_{c}])")
        round_.emit("offered.append(count)")


# a block's class -> its compiled form (a block absent here has none: its edition is played by the engine)
FORMS = {DealBlock: deal_form, ThrowBlock: throw_form, PickAndPassBlock: pick_form, CatchBlock: catch_form,
         ChoicesBlock: choices_form}
