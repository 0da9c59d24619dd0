"""The compiled forms of a round's blocks: each writes its part of the generated whole game (game.py).

A block of game/blocks has a compiled form when an entry of FORMS, keyed by its class, says how to
write its part of a bot-only game as Python source: the deal's two shuffles, the picks and passes,
the Catch, the round-end choices. A form is handed the block's step and the round being written
(RoundSource), reads only the step's parameters and the edition, and raises Unsupported (saying
what) for a parameter it does not play; a block with no entry here makes the whole edition fall
back to the engine, named. A form never decides a score: the round's scoring is the edition's
scoring program, called by the lines game.py writes after the blocks.

Every random draw is the engine's, in the engine's order: the deal's `random.Random.shuffle`
(getrandbits and its rejection, game/shuffling.py) of the cards left undealt, then of the rest
(game/blocks/deal.py, game/dealing.py); each random seat's answer splitmix64 of its key and the
decision (bots/seeding.py), the options in the order the engine offers them.
"""

from __future__ import annotations

import zlib

from ..edition.steps import Catch, Choices, Deal, PickAndPass, Throw
from ..game.blocks import CatchBlock, ChoicesBlock, DealBlock, PickAndPassBlock, ThrowBlock

THROW, DRAFT, CHOICE = 1, 2, 3      # the kinds of decision as the random bot mixes them in (bots/seeding.py)
GOLDEN, MIX_1, MIX_2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


class Unsupported(Exception):
    """A part of an edition the generated game does not play: the engine plays the edition instead."""


def draw(target: str, key: str, asked: str, count: str, depth: int) -> list[str]:
    """target = the random bot's index among `count` options: splitmix64 of key ^ asked (bots/seeding.py)."""
    pad = "    " * depth
    return [f"{pad}x = ({key} ^ {asked}) + {GOLDEN} & {(1 << 64) - 1}",
            f"{pad}x = (x ^ x >> 30) * {MIX_1} & {(1 << 64) - 1}",
            f"{pad}x = (x ^ x >> 27) * {MIX_2} & {(1 << 64) - 1}",
            f"{pad}{target} = (x ^ x >> 31) % {count}"]


class RoundSource:
    """The source of one round of the generated game, block by block, and what the blocks written so far made."""

    def __init__(self, edition, players: int, record: bool):
        self.edition, self.players, self.record = edition, players, record
        self.lines: list[str] = []
        self.constants: dict = {}     # name -> value handed to the generated module
        self.dealt = False            # `hands` and `leftover` are made
        self.first_kind = DRAFT       # the first pick's kind: a Throw block makes it THROW
        self.picked = False           # `drafts` hold the picks; the hands hold the Catch
        self.caught = False           # the Catch is taken: `drafts` hold the round's cards
        self.chooses = False          # `made` holds each seat's choices
        self.has_inputs = False       # `seat_inputs` hold each seat's inputs of the scoring program
        self.write_inputs = None      # game.py's: writes the lines that make them

    def need_inputs(self) -> None:
        """The seats' inputs of the scoring program made here, if they are not yet."""
        if not self.has_inputs:
            self.write_inputs(self)
            self.has_inputs = True

    def emit(self, line: str, depth: int = 2) -> None:
        self.lines.append("    " * depth + line)

    def constant(self, name: str, value) -> str:
        self.constants[name] = value
        return name


def deal_form(step: Deal, round_: RoundSource) -> None:
    """The cards undealt last round shuffled and dealt first, one at a time around the table, then the
    shuffled rest (game/dealing.py, version 5)."""
    if round_.dealt:
        raise Unsupported("a second deal in a round")
    if round_.edition.draft.ghosts:
        raise Unsupported("ghost hands (they draw from the game's generator as they go)")
    sizes = tuple(step.cards_in(r) for r in range(round_.edition.rounds))
    emit = round_.emit
    emit(f"hand = {round_.constant('HAND_SIZES', sizes)}[r]")
    emit("dealt = hand * PLAYERS")
    emit("if leftover:")
    emit("for i in range(len(leftover) - 1, 0, -1):", 3)      # random.Random.shuffle, as game/shuffling.py
    emit("bits = BITS[i]", 4)
    emit("j = getrandbits(bits)", 4)
    emit("while j > i:", 4)
    emit("j = getrandbits(bits)", 5)
    emit("leftover[i], leftover[j] = leftover[j], leftover[i]", 4)
    emit("undealt = set(leftover)", 3)
    emit("rest = [c for c in CARDS if c not in undealt]", 3)
    emit("else:")
    emit("rest = list(CARDS)", 3)
    emit("for i in range(len(rest) - 1, 0, -1):")
    emit("bits = BITS[i]", 3)
    emit("j = getrandbits(bits)", 3)
    emit("while j > i:", 3)
    emit("j = getrandbits(bits)", 4)
    emit("rest[i], rest[j] = rest[j], rest[i]", 3)
    emit("if leftover:")
    emit("rest = leftover[dealt:] + rest", 3)
    emit("hands = []", 3)
    emit("at = 0", 3)
    emit("for s in SEATS:", 3)
    emit("held = leftover[s:dealt:PLAYERS]", 4)
    emit("need = hand - len(held)", 4)
    emit("held += rest[at:at + need]", 4)
    emit("at += need", 4)
    emit("hands.append(held)", 4)
    emit("leftover = rest[at:]", 3)
    emit("else:")
    emit("hands = [rest[s * hand:(s + 1) * hand] for s in SEATS]", 3)
    emit("leftover = rest[dealt:]", 3)
    round_.dealt = True


def throw_form(step: Throw, round_: RoundSource) -> None:
    """The round's first pick is asked as a Throw (its kind in the random bot's draw); no line of its own."""
    if round_.picked:
        raise Unsupported("a Throw after the picks")
    round_.first_kind = THROW


def pick_form(step: PickAndPass, round_: RoundSource) -> None:
    """Every seat picks a card of its hand, then the hands pass on (game/passing.py), until one card is left."""
    if not round_.dealt or round_.picked:
        raise Unsupported("picks without a deal before them")
    if any(p > 1 for p in step.picks):
        raise Unsupported("passes of several cards")
    if any(step.discards):
        raise Unsupported("discards")
    edition = round_.edition
    passing = edition.passing
    largest = max(round_.constants["HAND_SIZES"])
    # the direction of pass k of round r: seat s gets the hand of seat s - d (the last one the other way with
    # `catch: previous`, known only from the hand size: written per hand size)
    turns = tuple(tuple(tuple(-passing.direction(r, k) if passing.catch == "previous" and k == size - 2
                                else passing.direction(r, k) for k in range(size - 1))
                          for size in range(largest + 1))
                  for r in range(edition.rounds))
    emit = round_.emit
    emit(f"turns = {round_.constant('TURNS', turns)}[r][hand]")
    emit("drafts = [[] for _ in SEATS]")
    emit(f"kind = {round_.first_kind}")
    emit("for k in range(hand - 1):")
    emit("count = hand - k", 3)
    emit("asked = kind | number << 2 | count << 12", 3)
    for s in range(round_.players):
        round_.lines += draw("i", f"key{s}", "asked", "count", 3)
        emit(f"card = hands[{s}].pop(i)", 3)
        emit(f"drafts[{s}].append(card)", 3)
        if round_.record:
            emit(f"decisions.append([{s}, card.letter, None])", 3)
    emit("d = turns[k]", 3)
    emit("hands = hands[-d:] + hands[:-d]", 3)
    emit(f"kind = {DRAFT}", 3)
    round_.picked = True


def catch_form(step: Catch, round_: RoundSource) -> None:
    """Each hand's last card, passed on by the last pass, is taken."""
    if not round_.picked or round_.caught:
        raise Unsupported("a Catch without the picks before it")
    for s in range(round_.players):
        round_.emit(f"drafts[{s}].append(hands[{s}].pop())")
    round_.caught = True


def choices_form(step: Choices, round_: RoundSource) -> None:
    """Every seat answers each choice category (seat by seat, in the edition's order), among the icons the
    scoring program allows it (then none), as the random bot draws: `made[seat]` key -> icon."""
    if not round_.caught:
        raise Unsupported("choices before the round's cards are all taken")
    edition = round_.edition
    categories = edition.choice_categories
    emit = round_.emit
    emit("made = [{} for _ in SEATS]")
    round_.need_inputs()
    if not categories:
        round_.chooses = True
        return
    emit("for s in SEATS:")
    emit("inputs = seat_inputs[s]", 3)
    emit("mine = made[s]", 3)
    emit("used_s = used[s]", 3)
    emit("key_s = keys[s]", 3)
    for c, category in enumerate(categories):
        code = zlib.crc32(category.key.encode("utf-8"))
        emit(f"inputs.used = used_s[{category.key!r}]", 3)
        emit(f"options = ALLOWED[{c}](inputs)", 3)
        emit("count = len(options) + 1", 3)
        round_.lines += draw("i", "key_s", f"({CHOICE} | number << 2 | count << 12 | {code << 24})", "count", 3)
        emit("icon = options[i] if i < count - 1 else None", 3)
        emit(f"mine[{category.key!r}] = icon", 3)
        if round_.record:
            emit(f"decisions.append([s, icon, {category.key!r}])", 3)
    round_.chooses = True


# a block's class -> its compiled form (a block absent here has none: its edition is played by the engine)
FORMS = {DealBlock: deal_form, ThrowBlock: throw_form, PickAndPassBlock: pick_form, CatchBlock: catch_form,
         ChoicesBlock: choices_form}
