"""House rules in a real browser: the mulligan (keep or mulligan, the new hand, then a whole game) and two decks.

Same setting as test_web_browser.py (the distribution's Chromium, a loopback server).
"""

from __future__ import annotations

import pytest
from net_support import bounded  # noqa: F401 - the autouse time limit
from test_web_browser import WAIT, browser, click_first, hand_shown, open_table, page_of, server, table_of  # noqa: F401 - fixtures

pytestmark = pytest.mark.slow


def answer_first(page) -> None:
    """Click the first card to pick, or the first option; wait for the next state."""
    seen = int(page.get_attribute("body", "data-states") or 0)
    click_first(page)
    page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)


def test_a_mulligan_by_click_then_a_whole_game(browser, server):  # noqa: F811 - fixtures
    page, _ = page_of(browser, server)
    open_table(page, "australia-mulligan", 3, 2)
    page.wait_for_selector('button.option[data-option="mulligan"]', timeout=WAIT)
    assert "keep or mulligan" in page.text_content("#turn")
    code = page.url.rsplit("/", 1)[1]
    game = table_of(server, code).game
    before = set(game.view(0)["hand"])
    assert set(hand_shown(page)) == before and not page.query_selector_all("button.card.pickable")  # not yet
    seen = int(page.get_attribute("body", "data-states") or 0)
    page.click('button.option[data-option="mulligan"]')
    page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    page.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    after = set(hand_shown(page))
    assert after == set(game.view(0)["hand"]) and not after & before and 0 in game.block_named("mulligan").taken
    while not page.query_selector("#final"):
        page.wait_for_selector("#final, button.card.pickable, button.option", timeout=WAIT)
        if not page.query_selector("#final"):
            answer_first(page)
    assert game.over
    for player in game.scores.sheet()["players"]:
        assert int(page.text_content(f'#final td[data-player="{player["name"]}"][data-key="total"]')) == player["total"]


def test_two_decks_in_the_browser_show_every_copy_as_its_card(browser, server):  # noqa: F811 - fixtures
    page, _ = page_of(browser, server)
    open_table(page, "australia-two-decks", 6, 5)
    page.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    game = table_of(server, page.url.rsplit("/", 1)[1]).game
    copies_seen = 0
    while game.round == 0:
        page.wait_for_selector("#final, button.card.pickable, button.option", timeout=WAIT)
        for node in page.query_selector_all("[data-card]"):
            card = game.edition.card(node.get_attribute("data-card"))
            assert node.query_selector(".site").text_content() == card.name  # never '?' for a copy
            copies_seen += card.copy_of is not None
        answer_first(page)
    assert copies_seen > 0
