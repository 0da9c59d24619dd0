"""The blocks a round is made of, as an edition declares them: their parameters and their words.

Each block is one frozen step here (its parameters, checked by edition/flow.py) and one module in
rulesengine/game/blocks (its play, its state, its places, its view and events). The words live
here, once: `rules` is the sentence `boom rules` prints for the block, and `asks` says each kind of
decision the block asks, in the words the terminal prompt and the web page both show. A step
never plays anything and never names an edition. Each step also says the most decisions its block
can ask the whole table in one round (most_decisions): the per-game guarantee (edition/guarantee.py)
adds them up, so a round's decisions are bounded by its blocks' declarations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Expression, Family

CARD, ICON, WORD = "card", "icon", "word"   # how a decision is answered: a card of the hand, an icon, a word
# what answering does, for the bots: take a card of the hand into the seat's cards of the round; name an icon a
# round category scores; keep the hand or draw another; name an icon whose cards the seat will claim; bid; put a
# card of the hand out of the round; declare in secret the icon a round-end choice will score
TAKE, SCORE, REDRAW, CLAIM, BID, DISCARD, DECLARE = "take", "score", "redraw", "claim", "bid", "discard", "declare"
# every kind of decision a step may ask (Asked.kind): what a network `decide` message may name
DECISION_KINDS = ("throw", "draft", "discard", "choice", "mulligan", "secret", "bid")


@dataclass(frozen=True)
class Asked:
    """One kind of decision a block asks, in words: `title` heads the seat's screen ("choose your Throw
    card ..."), `answer` says how it is answered (CARD, ICON or WORD), `options` gives each fixed option
    its words (keep/mulligan, throw/stop), `points` shows what each option scores now beside it, and `said`
    is what the seat did, as a replay tells it ("drafted", then the card). Titles are short: a screen's
    heading holds the seat's name, the round and the title within 80 columns. `effect` says what answering
    does (TAKE, SCORE, REDRAW, CLAIM, BID, DISCARD): the bots value an option by it, whatever block asks."""

    kind: str
    title: str
    answer: str
    options: dict = field(default_factory=dict)
    points: bool = False
    said: str = "chose"
    effect: str = TAKE


def _count(n: int, plural: str) -> str:
    return f"{n} {plural[:-1] if n == 1 and plural.endswith('s') else plural}"


@dataclass(frozen=True)
class Deal:
    cards: int  # each seat's hand (the cards left undealt last round are dealt first); the largest with by_round
    by_round: tuple = ()  # each round's hand, in order, when they differ
    name = "deal"

    def cards_in(self, round_index: int) -> int:
        """The hand dealt in this round (0-based)."""
        by_round = self.by_round
        return by_round[min(round_index, len(by_round) - 1)] if by_round else self.cards

    def rules(self, edition) -> str:
        if self.by_round:
            sizes = _and([str(n) for n in self.by_round])
            return (f"Deal: the cards are shuffled and every player is dealt a hand of {sizes} cards in rounds "
                    f"{_and([str(i) for i in range(1, len(self.by_round) + 1)])}; the cards left undealt in the "
                    "round before are dealt first.")
        return (f"Deal: the cards are shuffled and every player is dealt {self.cards} cards; the cards left "
                "undealt in the round before are dealt first.")

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return 0

    def asks(self) -> tuple:
        return ()


@dataclass(frozen=True)
class Mulligan:
    """After the deal each seat may return its hand and draw a new one from the undealt cards (see rules)."""

    once_per_game: bool = True  # False: a mulligan may be taken in every round
    times: int = 1  # with once_per_game: how many a seat may take in the game (`once_per_game: N`)
    name = "mulligan"

    def rules(self, edition) -> str:
        often = ("once a round." if not self.once_per_game else "once in the game." if self.times == 1
                 else f"at most {self.times} times in the game, once a round.")
        return ("Mulligan: after the deal, each player may return their hand and draw a new one from the undealt "
                "cards, in seat order; the hands returned are set aside until every new hand is drawn, so no new "
                "hand holds a card returned this round, and a player for whom the undealt cards hold no whole hand "
                "any more keeps theirs. The hands returned then join the undealt cards; " + often)

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return seats  # keep or mulligan, once a seat

    def asks(self) -> tuple:
        return (Asked("mulligan", "keep or mulligan", WORD,
                      {"keep": "keep this hand",
                       "mulligan": "take your mulligan (a new hand from the undealt cards)"}, effect=REDRAW),)


@dataclass(frozen=True)
class Throw:
    """The first card each seat takes in a round is face down (its Throw) until the round's picks end."""

    name = "throw"

    def rules(self, edition) -> str:
        return "Throw: the first card each player keeps is their Throw, face down until the round ends."

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return seats

    def asks(self) -> tuple:
        return (Asked("throw", "Throw card (face down)", CARD, said="chose the Throw"),)


@dataclass(frozen=True)
class PickAndPass:
    directions: tuple  # "left"/"right", cycled over the rounds
    picks: tuple = ()  # cards each seat takes on the 1st, 2nd... pass (the Throw's pass is the 1st); 1 after the list
    discards: tuple = ()  # cards each seat discards on the 1st, 2nd... pass, after its picks; 0 after the list
    open: bool = False  # every hand face up, shown to every seat (open drafting)
    pass_directions: tuple = ()  # "left"/"right" of each pass of a round, cycled, in place of `directions`
    name = "pick_and_pass"

    def picks_on(self, pass_index: int) -> int:
        return self.picks[pass_index] if pass_index < len(self.picks) else 1

    def discards_on(self, pass_index: int) -> int:
        return self.discards[pass_index] if pass_index < len(self.discards) else 0

    def kept_of(self, hand: int) -> int:
        """How many cards a seat keeps in a round dealt `hand` cards each (the Catch included): what the
        discards leave of the hand, since a seat takes every card that is not discarded."""
        kept, at = 0, 0
        while hand > 1:
            taken = min(self.picks_on(at), hand - 1)
            thrown = min(self.discards_on(at), hand - 1 - taken)
            kept, hand, at = kept + taken, hand - taken - thrown, at + 1
        return kept + hand

    def rules(self, edition) -> str:
        passing = _by_pass(self.pass_directions) if self.pass_directions else _passing(self.directions, edition.rounds)
        text = ("Pick and pass: every player keeps a card of their hand at the same time and passes the rest on, "
                f"until one card is left in each hand. {passing}")
        if any(p != 1 for p in self.picks):
            told = ", ".join(f"{p} on pass {i}" for i, p in enumerate(self.picks, 1) if p != 1)
            text += (f" Cards kept at once: {told} (the Throw is the first card of pass 1); one a pass otherwise. "
                     "Each card of a pass is chosen in turn; the pass is shown to all once every player has chosen.")
        if self.open:
            text += " Open hands: every hand is face up on the table, for every player to see, as it goes round."
        if any(self.discards):
            told = ", ".join(f"{d} on pass {i}" for i, d in enumerate(self.discards, 1) if d)
            text += (f" Discards: after keeping their cards, every player discards {told}, from the hand, before it "
                     "passes on; a discarded card is out of the round, shown face up to all once the pass is played.")
        return text

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return seats * max(hand - 1, 0)  # every card of a hand but the Catch, taken or discarded one by one

    def asks(self) -> tuple:
        draft = Asked("draft", "draft a card (the rest of the hand passes on)", CARD, said="drafted")
        if not any(self.discards):
            return (draft,)
        return draft, Asked("discard", "discard a card (out of the round)", CARD, said="discarded", effect=DISCARD)


def _passing(directions: tuple, rounds: int) -> str:
    by_direction: dict[str, list[int]] = {}
    for index in range(max(rounds, 1)):
        by_direction.setdefault(directions[index % len(directions)], []).append(index + 1)
    if len(by_direction) == 1:
        return f"Hands are passed {next(iter(by_direction))} every round."
    said = [f"{word} in round{'s' if len(numbers) > 1 else ''} {_and([str(n) for n in numbers])}"
            for word, numbers in by_direction.items()]
    return "Hands are passed " + "; ".join(said) + "."


def _by_pass(directions: tuple) -> str:
    said = ", then ".join(directions)
    return (f"Hands are passed {said} on the passes of every round, in turn, again and again (the pass of the "
            f"Catch too): pass 1 {directions[0]}, pass 2 {directions[1 % len(directions)]}, and so on.")


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class Catch:
    side: str  # "same": the last card passes on in the round's direction; "previous": the other way
    name = "catch"

    def rules(self, edition) -> str:
        side = (" The last card of a round (the Catch) goes the other way: to the previous player."
                if self.side == "previous" else "")
        return f"Catch: the last card of each hand, passed on alone, is kept: the Catch.{side} Then every Throw is " \
               "turned face up."

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return 0

    def asks(self) -> tuple:
        return ()


@dataclass(frozen=True)
class Choices:
    """Every seat answers the edition's round-end icon choices (categories with `choice:`)."""

    name = "choices"

    def rules(self, edition) -> str:
        secret = edition.round.step(SecretChoice)
        declared = secret.key if secret is not None and secret.declares else None
        titles = [c.title for c in edition.choice_categories if c.key != declared]
        what = f" ({', '.join(titles)})" if titles else ""
        text = (f"Choices: every player makes the round's choices{what}, all at once; they are told to the table "
                "once everyone has chosen. Then the round is scored.")
        if declared is None:
            return text
        title = next(c.title for c in edition.choice_categories if c.key == declared)
        if not titles:
            text = "Choices: the round's choices are told to the table. Then the round is scored."
        return f"{text} The {title} declared in secret are turned up then and told with them."

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return seats * len(edition.choice_categories)

    def asks(self) -> tuple:
        return (Asked("choice", "end of the round", ICON, points=True, effect=SCORE),)


@dataclass(frozen=True)
class Reveal:
    until: Expression  # true/false over `circle`: stop turning cards up
    name = "reveal"

    def rules(self, edition) -> str:
        from .in_words import in_words

        return ("Reveal: cards left from the last round stay; cards are turned from the deck face up around the "
                f"circle until {in_words(self.until.text, edition, 'the reveal')} (or the deck is empty).")

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return 0

    def asks(self) -> tuple:
        return ()


@dataclass(frozen=True)
class SecretChoice:
    key: str
    family: Family
    # True in a drafting round: the choice declares, face down, the icon of the round-end choice category of
    # the same key (its `choices` reveals it and scores it); False: a claim reveals it (the 2010 game)
    declares: bool = False
    name = "secret_choice"

    def rules(self, edition) -> str:
        if self.declares:
            category = next(c for c in edition.choice_categories if c.key == self.key)
            return (f"Secret choice ({self.key}): every player declares face down the {category.title} they will "
                    f"score this round: one of {', '.join(self.family.icons)} they may still choose. The "
                    "declarations are revealed with the round-end choices, each as that player's choice for "
                    f"{category.title}; a declaration its rule does not allow then scores nothing and is not used up.")
        return (f"Secret choice ({self.key}): every player picks one {self.family.title} token "
                f"({', '.join(self.family.icons)}) face down.")

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return seats

    def asks(self) -> tuple:
        if self.declares:
            return (Asked("secret", f"declare your {self.key} in secret", ICON, said="declared", effect=DECLARE),)
        return (Asked("secret", f"choose your {self.key} in secret", ICON, effect=CLAIM),)


@dataclass(frozen=True)
class Bidding:
    stock: str
    first: str  # "random" or "last_left"
    most: int = 1  # the most tokens a seat may throw in one turn (1 to `most`, each an answer: throw, throw 2...)
    name = "bidding"

    def rules(self, edition) -> str:
        start = ("a player drawn at random" if self.first == "random"
                 else "in the first round a player drawn at random, then the player left last in the round before")
        throws = (f"one of their {self.stock}" if self.most == 1
                  else f"1 to {self.most} of their {self.stock} (as many as they have)")
        return (f"Bidding for {self.stock}: {start} starts; in turn, each player still in throws {throws} into the "
                f"pot, or stops: their secret choice goes face down on top of the stack and "
                f"they take every {self.stock} in the pot. A player with none to throw stops (taking the pot, which "
                "may be empty). The last player left does not throw.")

    def throws(self) -> tuple:
        """The answers that throw, in order: 'throw' (one token), then 'throw 2'... up to `most`."""
        return ("throw",) + tuple(f"throw {n}" for n in range(2, self.most + 1))

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        # a token thrown goes to the pot and from there to a seat that stopped, out of the round: every token
        # of the table is thrown at most once a round (a throw of several counts once), and each seat stops once
        return seats * edition.stocks.get(self.stock, 0) + seats

    def asks(self) -> tuple:
        one = _count(1, self.stock).split(" ", 1)[1]
        options = {"throw": f"throw a {one} into the pot"}
        options.update((f"throw {n}", f"throw {_count(n, self.stock)} into the pot") for n in range(2, self.most + 1))
        title = f"throw a {one} or stop" if self.most == 1 else f"throw 1 to {self.most} {self.stock} or stop"
        return (Asked("bid", title, WORD, {**options, "stop": "stop (take the pot)"}, effect=BID),)


@dataclass(frozen=True)
class Claim:
    choice: str  # the key of the secret choice revealed
    name = "claim"

    def rules(self, edition) -> str:
        return (f"Claim: the last player left reveals their {self.choice} and takes every card in the circle "
                "showing it; then the stack is revealed from the top down, each taking every card left that "
                "shows theirs.")

    def most_decisions(self, edition, seats: int, hand: int) -> int:
        return 0

    def asks(self) -> tuple:
        return ()


STEPS = (Deal, Mulligan, Throw, PickAndPass, Catch, Choices, Reveal, SecretChoice, Bidding, Claim)
