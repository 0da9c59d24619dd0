"""A game's flow declared in YAML: the blocks of a round, general pieces any edition may declare.

Two kinds of round are assembled from them. A drafting round: `deal` hands, a face-down `throw`,
`pick_and_pass` (cards per pass, passed in the round's direction), the `catch` of the last card,
the round-end icon `choices`, for `end: {rounds: N}` rounds. A steps round: `reveal` cards until a
condition holds, a `secret_choice`, `bidding` around a shared pot (a stock of tokens per seat), an
ordered `claim`, again and again until `end: deck_empty`. An edition that declares no flow plays the
drafting round, and this module supplies exactly its default block list (default_drafting) from
`rounds`, `hand_size` and `passing`. Blocks go in any order that can be played; an order that
cannot is a located M330 error saying why. This module checks each block's parameters and compiles
its conditions; it never plays a block (rulesengine/game/ does) and never names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..dsl import BOOL
from ..errors import suggest
from .scopes import UNTIL
from .steps import Bidding, Catch, Choices, Claim, Deal, Mulligan, PickAndPass, Reveal, SecretChoice, Throw

STEPS_BLOCKS = ("reveal", "secret_choice", "bidding", "claim")
DRAFTING_BLOCKS = ("deal", "mulligan", "throw", "pick_and_pass", "catch", "choices")
BLOCKS = STEPS_BLOCKS + DRAFTING_BLOCKS


@dataclass(frozen=True)
class Flow:
    """An edition's round: its blocks in order (edition/steps.py), and when the game ends."""

    steps: tuple  # the blocks of one round, in order
    end: object = "deck_empty"  # the number of rounds, or "deck_empty": the reveal's deck empty at a round's start

    def step(self, kind: type):
        """The round's block of this kind (its first), or None."""
        return self._by_kind.get(kind)

    @cached_property
    def _by_kind(self) -> dict:
        """kind of block -> the round's first block of it: the bots ask at every decision."""
        found: dict = {}
        for step in self.steps:
            found.setdefault(type(step), step)
        return found

    @property
    def rounds(self) -> int | None:
        """The number of rounds, or None when the game ends with its deck."""
        return self.end if isinstance(self.end, int) else None

    def kept(self, round_index: int) -> int | None:
        """How many cards a seat keeps in this round (0-based): the hand dealt, less what the picks discard;
        None for a round that deals no hands. (Worked out once a round index: the bots ask at every decision.)"""
        kept = self._kept
        if round_index not in kept:
            deal, picks = self.step(Deal), self.step(PickAndPass)
            cards = deal.cards_in(round_index) if deal is not None else None
            kept[round_index] = cards if deal is None or picks is None else picks.kept_of(cards)
        return kept[round_index]

    @cached_property
    def _kept(self) -> dict:
        return {}


# What must come before what, and why: an order breaking one of these cannot be played (M330).
BEFORE = (
    ("deal", "throw", "the Throw is taken from the hand just dealt"),
    ("deal", "mulligan", "a mulligan returns the hand just dealt"),
    ("mulligan", "throw", "the new hand is drawn before the first card is taken"),
    ("deal", "pick_and_pass", "the cards picked come from the hands just dealt"),
    ("throw", "pick_and_pass", "the Throw is the first card a seat takes in the round"),
    ("pick_and_pass", "catch", "the Catch is the last card of each hand, once the picks are over"),
    ("catch", "choices", "the round-end choices are made over every card taken, the Catch included"),
    ("secret_choice", "bidding", "a seat that stops puts its secret choice on the stack"),
    ("secret_choice", "claim", "the claim reveals the secret choices"),
    ("secret_choice", "choices", "the round-end choices reveal the choices declared in secret"),
    ("bidding", "claim", "the claim goes in the order the bidding leaves: the last one left, then the stack"),
    ("reveal", "claim", "the claim takes cards from the circle the reveal fills"),
)
# What a block needs in its round, and why: before it (the order above says where), after it, or not at all.
NEEDS = {
    "mulligan": ("deal",), "throw": ("deal",), "pick_and_pass": ("deal",), "catch": ("pick_and_pass",),
    "choices": ("catch",), "bidding": ("secret_choice",), "claim": ("reveal", "bidding", "secret_choice"),
}
THEN = {   # (in a round of each kind)
    "steps": {"secret_choice": (("claim", "a secret choice stays face down until a claim reveals it"),)},
    "drafting": {
        "pick_and_pass": (("catch", "the picks leave the last card of each hand for the Catch"),),
        "secret_choice": (("choices", "a choice declared in secret stays face down until the round-end choices "
                                      "reveal it"),),
    },
}
APART = {
    ("deal", "reveal"): "a round deals its cards into hands, or turns them from one deck kept for the game into "
                        "a circle; not both",
    ("pick_and_pass", "claim"): "a round's cards are drafted from the hands, or claimed from the circle; not both",
}
TAKES = ("pick_and_pass", "claim")  # a round takes cards by one of them


def flow_kind(data) -> str | None:
    """How the declared round scores, None without a flow: 'drafting' (each round, over the cards taken) unless it
    has blocks of the 2010 game and no picks, then 'steps' (at game end, over what seats captured and kept). The
    categories, stocks, races and `end` are checked against it; an unplayable mix is one error at its block."""
    spec = data.get("flow") if isinstance(data, dict) else None
    if not isinstance(spec, dict):
        return None
    names = {next(iter(step)) for step in spec.get("round") or () if isinstance(step, dict) and len(step) == 1}
    return "steps" if "pick_and_pass" not in names and names & set(STEPS_BLOCKS) else "drafting"


def _params(value) -> dict:
    return value if isinstance(value, dict) else {}


def build_flow(builder, families: dict, constants: dict, symbol_table, stocks: dict, deck: int = 0) -> Flow | None:
    """The edition's declared Flow, or None; every problem is reported on `builder` at its key."""
    spec = builder.data.get("flow")
    if spec is None:
        return None
    kind = flow_kind(builder.data)
    listed, seen = [], {}
    for index, step in enumerate(spec.get("round") or ()):
        if not isinstance(step, dict) or len(step) != 1:
            continue  # the schema reported it
        ((name, params),) = step.items()
        path = ("flow", "round", index, name)
        if name in seen:
            builder.error(path, f"the round has two '{name}' steps", "M330", "a round takes each block once", key=True)
            continue
        seen[name] = index
        listed.append((name, _params(params), path))
    wrong = _check_order(builder, seen, kind)  # a block out of place is not checked further: one error, at it
    steps, choices = [], {}
    for name, params, path in listed:
        block = None if name in wrong else _block(builder, name, params, path, families, constants, symbol_table,
                                                  stocks, choices)
        if block is not None:
            steps.append(block)
    end = _end(builder, spec.get("end"), kind)
    flow = Flow(tuple(steps), end)
    if kind == "drafting":
        _check_hands(builder, flow, seen)
        _check_thrown_and_caught(builder, flow, seen)
        _check_picks(builder, flow, seen)
        _check_deal(builder, flow, seen, deck)
        _check_mulligan(builder, flow, seen, deck)
    return flow


def _block(builder, name, params, path, families, constants, symbol_table, stocks, choices):
    data = builder.data
    if name == "reveal":
        until = builder.expression(path + ("until",), UNTIL.checker_scope(constants), symbol_table, BOOL)
        return Reveal(until) if until is not None else None
    if name == "secret_choice":
        family = families.get(params["from"])
        if family is None:
            if not builder.cut.covers("families", params["from"]):
                builder.error(
                    path + ("from",), f"unknown family '{params['from']}'", "M313", suggest(params["from"], families)
                )
            return None
        choices[params["key"]] = family
        declares = flow_kind(data) == "drafting"
        if declares and not _declarable(builder, params, path):
            return None
        return SecretChoice(params["key"], family, declares)
    if name == "bidding":
        if params["stock"] not in stocks:
            builder.error(
                path + ("stock",),
                f"unknown stock '{params['stock']}'",
                "M331",
                suggest(params["stock"], stocks) or "declare it under `stocks:`",
            )
            return None
        return Bidding(params["stock"], params.get("first", "last_left"), params.get("most", 1))
    if name == "claim":
        if params["choice"] not in choices:
            builder.error(
                path + ("choice",),
                f"no secret choice '{params['choice']}' comes before this claim",
                "M332",
                suggest(params["choice"], choices) or "add a `secret_choice` step before it",
            )
            return None
        return Claim(params["choice"])
    passing = data.get("passing") if isinstance(data.get("passing"), dict) else {}
    if name == "deal":
        cards = params.get("cards", data.get("hand_size"))
        if cards is None:
            builder.error(path, "the deal says no number of cards", "M333", "write `deal: {cards: 7}`", key=True)
            return None
        if isinstance(cards, list):  # each round's hand (the schema checked each is a number)
            return Deal(max(cards), tuple(cards))
        return Deal(cards)
    if name == "mulligan":
        once = params.get("once_per_game", True)  # true, false, or N times (the schema checked)
        return Mulligan(True, once) if type(once) is int else Mulligan(once)
    if name == "throw":
        return Throw()
    if name == "pick_and_pass":
        return PickAndPass(tuple(params.get("directions", passing.get("directions", ("left",)))),
                           tuple(params.get("picks", ())), tuple(params.get("discards", ())),
                           bool(params.get("open", False)), tuple(params.get("pass_directions", ())))
    if name == "catch":
        return Catch(params.get("from", passing.get("catch", "same")))
    return Choices()


def _declarable(builder, params: dict, path: tuple) -> bool:
    """In a drafting round a secret choice declares the icon of a round-end choice: a category with `choice:`
    of the same key and family must exist (M332 at the key or the family otherwise)."""
    categories = [c for c in builder.data.get("categories") or () if isinstance(c, dict) and "choice" in c]
    category = next((c for c in categories if c.get("key") == params["key"]), None)
    if category is None:
        keys = [c.get("key") for c in categories if isinstance(c.get("key"), str)]
        builder.error(path + ("key",), f"no round-end choice '{params['key']}' for this secret choice to declare",
                      "M332", suggest(params["key"], keys) or "give it the key of a category with `choice:`")
        return False
    family = category["choice"].get("from") if isinstance(category["choice"], dict) else None
    if family != params["from"]:
        builder.error(path + ("from",), f"category '{params['key']}' chooses from '{family}', not "
                      f"'{params['from']}'", "M332", f"write `from: {family}`")
        return False
    return True


def _check_order(builder, seen: dict, kind: str) -> set:
    """Each block's first problem, at the block (M330): a block it cannot share the round with, a block it needs
    and that the round lacks, one placed on the wrong side of it. One error a block, never a cascade: the names
    of the blocks in error."""
    wrong = set()

    def error(name: str, message: str, hint: str) -> None:
        if name not in wrong:
            wrong.add(name)
            builder.error(("flow", "round", seen[name], name), message, "M330", hint, key=True)

    for (one, other), why in APART.items():
        if one in seen and other in seen:
            later = one if seen[one] > seen[other] else other
            error(later, f"'{later}' cannot be played in a round with '{other if later == one else one}'", why)
    for name in sorted(seen, key=seen.get):
        for needed in NEEDS.get(name, ()):
            if needed not in seen:
                why = next(w for first, then, w in BEFORE if (first, then) == (needed, name))
                error(name, f"'{name}' needs a '{needed}' before it", f"{why}: add `- {needed}:` before it")
        for needed, why in THEN[kind].get(name, ()):
            if needed not in seen:
                error(name, f"'{name}' needs a '{needed}' after it", f"{why}: add `- {needed}:` after it")
    for first, then, why in BEFORE:
        if first in seen and then in seen and seen[then] < seen[first]:
            error(then, f"'{then}' cannot come before '{first}'", f"{why}: move it after '{first}'")
    if not any(name in seen for name in TAKES) and seen and "flow" not in builder.cut.sections:
        builder.error(("flow", "round"), "this round takes no cards", "M330",
                      "a round picks and passes the hands it deals (pick_and_pass) or claims the cards of a circle "
                      "(claim)")
    if kind == "drafting" and "choices" not in seen and "secret_choice" not in wrong and builder.data.get("categories"):
        with_choice = [c.get("key") for c in builder.data["categories"] if isinstance(c, dict) and "choice" in c]
        if with_choice:
            builder.error(
                ("flow", "round"),
                f"category '{with_choice[0]}' asks for a choice at round end, but the round has no 'choices' step",
                "M330",
                "add `- choices:` after the catch",
            )
    return wrong


def _end(builder, end, kind: str):
    if kind == "steps":
        if isinstance(end, dict):
            message = "a steps round ends when the deck is empty"
            builder.error(("flow", "end"), message, "M334", "write `end: deck_empty`")
        return "deck_empty"
    if isinstance(end, dict) and "rounds" in end:
        return end["rounds"]
    if end is None and isinstance(builder.data.get("rounds"), int):
        return builder.data["rounds"]
    builder.error(("flow", "end"), "a drafting round needs its number of rounds", "M334", "write `end: {rounds: 4}`")
    return 0


def _check_thrown_and_caught(builder, flow: Flow, seen: dict) -> None:
    """Every hand dealt holds the cards the round takes from it without asking: the Throw's and the Catch's (a
    hand of 1 with both validated, and the Catch then took a card from an empty hand: #32's fuzzing)."""
    deal = flow.step(Deal)
    needed = (flow.step(Throw) is not None) + (flow.step(Catch) is not None)
    if deal is None or needed < 2 or "deal" not in seen:
        return
    smallest = min(deal.by_round or (deal.cards,))
    if isinstance(smallest, int) and smallest < needed:
        builder.error(
            ("flow", "round", seen["deal"], "deal", "cards"),
            f"a hand of {smallest} card{'s' if smallest != 1 else ''} cannot give both the Throw and the Catch",
            "M333",
            f"deal at least {needed} cards a round",
        )


def _check_picks(builder, flow: Flow, seen: dict) -> None:
    """The cards taken and discarded by the declared passes must leave one card in every hand for the Catch."""
    deal, picks = flow.step(Deal), flow.step(PickAndPass)
    if deal is None or picks is None or not (picks.picks or picks.discards):
        return
    smallest = min(deal.by_round or (deal.cards,))
    room = smallest - 1
    passes = max(len(picks.picks), len(picks.discards))
    gone = [picks.picks_on(at) + picks.discards_on(at) for at in range(passes)]
    if sum(gone) > room:
        key = "discards" if picks.discards else "picks"
        path = ("flow", "round", seen["pick_and_pass"], "pick_and_pass", key)
        said = "take" if not picks.discards else "take and discard"
        builder.error(
            path,
            f"the passes {said} {' + '.join(map(str, gone))} = {sum(gone)} cards, but a hand of "
            f"{smallest} leaves {room} before the Catch",
            "M333",
            f"{said} at most {room} cards over the listed passes",
        )


def _check_hands(builder, flow: Flow, seen: dict) -> None:
    """A deal that lists each round's hand lists one a round."""
    deal = flow.step(Deal)
    if deal is None or not deal.by_round or not isinstance(flow.end, int) or len(deal.by_round) == flow.end:
        return
    builder.error(
        ("flow", "round", seen["deal"], "deal", "cards"),
        f"the deal lists {len(deal.by_round)} hands for {flow.end} rounds",
        "M333",
        f"give one hand size a round ({flow.end}), or one number for every round",
    )


def _check_deal(builder, flow: Flow, seen: dict, deck: int) -> None:
    """A deal's own number of cards must fit the deck (`hand_size` is checked where it is written: M308)."""
    deal, players = flow.step(Deal), builder.data.get("players")
    params = _params(builder.data["flow"]["round"][seen["deal"]]["deal"]) if "deal" in seen else {}
    if deal is None or "cards" not in params or not isinstance(players, dict) or "cards" in builder.cut.sections:
        return
    seats = players.get("max")
    if isinstance(seats, int) and deal.cards * seats > deck:
        builder.error(
            ("flow", "round", seen["deal"], "deal", "cards"),
            f"{seats} players need {deal.cards * seats} cards ({deal.cards} each) but the deck has {deck}",
            "M308",
            f"the largest hand for {seats} players is {deck // seats}" if deck >= seats else None,
        )


def _check_mulligan(builder, flow: Flow, seen: dict, deck: int) -> None:
    """A mulligan draws a whole new hand from the undealt cards: at the most players the deck must leave one."""
    deal, players = flow.step(Deal), builder.data.get("players")
    if flow.step(Mulligan) is None or deal is None or not isinstance(players, dict) or "cards" in builder.cut.sections:
        return
    seats = players.get("max")
    if isinstance(seats, int) and deck - deal.cards * seats < deal.cards:
        most = deck // deal.cards - 1
        builder.error(
            ("flow", "round", seen["mulligan"], "mulligan"),
            f"a mulligan draws a new hand of {deal.cards} from the undealt cards, but {seats} players leave "
            f"{max(deck - deal.cards * seats, 0)} of the {deck}",
            "M335",
            f"set `players: {{max: {most}}}` (a whole hand left undealt)" if most >= 2 else "use a larger deck",
            key=True,
        )


def default_drafting(data) -> Flow:
    """The drafting round of an edition that declares no flow, from `rounds`, `hand_size` and `passing`:
    deal, throw, pick_and_pass, catch, choices, for `rounds` rounds (what `boom rules` shows)."""
    passing = data.get("passing") if isinstance(data.get("passing"), dict) else {}
    steps = (
        Deal(data.get("hand_size", 0)),
        Throw(),
        PickAndPass(tuple(passing.get("directions", ("left",)))),
        Catch(passing.get("catch", "same")),
        Choices(),
    )
    return Flow(steps, data.get("rounds", 0))
