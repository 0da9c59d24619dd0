"""Every screen of a human seat fits a terminal of 80 columns and 24 lines, names its phase in the prompt
(`Throw card`, `draft 3 of 5`) and shows the seat's own cards, one a line with their icons and values.

A whole game of every shipped edition and variant with drafting, at its largest table, is played with
a human at seat 0 on a rich Console 80 wide and 24 high; the screen is what the seat was shown since its
previous answer, and the prompt is its last line.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from shipped import EDITIONS, SHIPPED

from cli.terminal import TerminalAgent
from rulesengine import Game, load_edition
from rulesengine.bots.registry import agent_seed, make_bot
from rulesengine.edition.steps import Throw
from rulesengine.game.blocks import round_plan
from rulesengine.game.loop import play


class Screens(TerminalAgent):
    """A human at an 80x24 terminal who keeps every screen, and answers the first option each time."""

    def __init__(self, edition):
        self.out = io.StringIO()
        console = Console(file=self.out, width=80, height=24, color_system=None, force_terminal=False)
        super().__init__(edition, console, read=self._answer)
        self.screens: list[tuple[str, str, object, dict]] = []

    def decide(self, view, decision):
        self._now = (decision, view)
        return super().decide(view, decision)

    def _answer(self, prompt: str) -> str:
        decision, view = self._now
        text = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        self.screens.append((text, prompt, decision, view))
        if decision.kind == "mulligan":
            return "k"
        if decision.kind == "choice":
            return "1"
        return decision.options[0]


def screens_of(path, seed: int = 3):
    edition = load_edition(path)
    players = edition.players_max
    human = Screens(edition)
    agents = [human] + [make_bot("random", edition, agent_seed(seed, seat)) for seat in range(1, players)]
    play(Game(edition, [f"P{n}" for n in range(players)], seed), agents)
    return human.screens


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_screen_fits_80x24_with_its_phase_and_the_seat_s_cards(path):
    """Every shipped edition and variant (the variants in the slow suite: 8 seats and two decks, ghost
    hands, two cards a pass, a mulligan)."""
    if not round_plan(load_edition(path)).scores_rounds:
        pytest.skip("a game with a flow of its own (the 2010 game): its screens come with the one engine (#30)")
    check_screens(path)


def check_screens(path):
    screens = screens_of(path)
    throw = {"throw"} if load_edition(path).round.step(Throw) is not None else set()  # (a round may leave it out)
    assert {decision.kind for _, _, decision, _ in screens} >= {"draft"} | throw
    for text, prompt, decision, view in screens:
        lines = text.rstrip("\n").split("\n") + [f"{prompt}: "]
        assert len(lines) <= 24, f"{decision}: {len(lines)} lines\n" + "\n".join(lines)
        assert max(len(line) for line in lines) <= 80
        own = list(view["table"][0]["face_up"]) + ([view["throw"]] if view.get("throw") else [])
        if decision.kind in ("throw", "draft", "mulligan"):
            own += view["hand"]
        for letter in own:
            assert f"[{letter}]" in text, f"{decision}: card {letter} is not on the screen\n{text}"
        if decision.kind == "throw":
            assert prompt == "Throw card"
        if decision.kind == "draft":
            assert prompt.startswith("draft ") and " of " in prompt


def test_the_prompt_counts_the_drafts_of_the_round_and_cards_show_icons_with_values():
    screens = screens_of("australia", seed=5)
    prompts = [prompt for _, prompt, decision, view in screens if view["round"] == 1 and decision.kind != "choice"]
    assert prompts == ["Throw card", "draft 1 of 5", "draft 2 of 5", "draft 3 of 5", "draft 4 of 5", "draft 5 of 5"]
    first = screens[0][0]
    assert "Your hand:\n" in first
    # seed 5, 4 players: Ana's first hand, one card a line, its icons with their values
    assert " [E] 4 Uluru                Northern Territory  Emus 4, Indigenous Culture\n" in first
    assert " [C] 1 Margaret River       Western Australia   Shells 3, Kangaroos 3\n" in first


@pytest.mark.parametrize("name, expected", [
    # 7 cards: the Throw and a discard, a draft and a discard, a draft and a discard, then the Catch: 2 drafts
    ("variants/australia-keep-one-discard-one", ["Throw card", "discard a card (out of the round)", "draft 1 of 2",
                                                 "discard a card (out of the round)", "draft 2 of 2",
                                                 "discard a card (out of the round)"]),
    # the Throw and a draft on the first pass (the Throw chosen first), then one a pass
    ("variants/australia-two-at-once", ["Throw card", "draft 1 of 5", "draft 2 of 5", "draft 3 of 5", "draft 4 of 5",
                                        "draft 5 of 5"]),
    ("variants/australia-face-up-throw", [f"draft {n} of 6" for n in range(1, 7)]),   # no Throw: 6 drafts
])
def test_the_prompt_counts_only_the_cards_kept(name, expected):
    prompts = [prompt for _, prompt, decision, view in screens_of(EDITIONS / f"{name}.yaml", seed=5)
               if view["round"] == 1 and decision.kind != "choice"]
    assert prompts == expected


def test_the_help_at_a_discard_says_what_a_discard_gives_up():
    edition = load_edition(EDITIONS / "variants" / "australia-keep-one-discard-one.yaml")
    human = Screens(edition)
    human.read = lambda prompt: "?" if not human.out.getvalue().count("If you") else human._answer(prompt)
    game = Game(edition, ["P0", "P1"], 5)
    bot = make_bot("random", edition, 1)
    while not any(d.kind == "discard" and d.seat == 0 for d in game.pending()):
        decision = game.pending()[0]
        game.apply(decision.seat, bot.decide(game.view(decision.seat), decision), decision.category)
    decision = next(d for d in game.pending() if d.seat == 0)
    human.decide(game.view(0), decision)
    text = " ".join(human.screens[-1][0].split())
    assert "If you took it instead (discard the card worth least to you, or one a rival wants)" in text
    assert "if you took the card instead of discarding it and the rest at random" in text
    assert "If you take it now" not in text
