"""Discards in a real browser: keep one card, then discard one by click, and every seat's discards face up.

Same setting as test_web_browser.py (the distribution's Chromium, a loopback server).
"""

from __future__ import annotations

import pytest
from net_support import bounded  # noqa: F401 - the autouse time limit
from test_web_browser import WAIT, browser, click_first, hand_shown, open_table, page_of, server, table_of  # noqa: F401 - fixtures

pytestmark = pytest.mark.slow


def click_card(page, letter: str) -> None:
    seen = int(page.get_attribute("body", "data-states") or 0)
    page.click(f'#hand button.card.pickable[data-card="{letter}"]')
    page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)


def test_keep_one_discard_one_by_click_then_a_whole_game(browser, server):  # noqa: F811 - fixtures
    page, _ = page_of(browser, server)
    open_table(page, "australia-keep-one-discard-one", 2, 1)
    page.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    game = table_of(server, page.url.rsplit("/", 1)[1]).game
    hand = hand_shown(page)
    click_card(page, hand[0])  # the Throw
    page.wait_for_selector("#hand h2:has-text('discard a card')", timeout=WAIT)
    assert hand[0] not in hand_shown(page)
    click_card(page, hand[-1])  # the discard
    page.wait_for_selector('.seat.me [data-discarded]', timeout=WAIT)
    assert page.get_attribute(".seat.me [data-discarded]", "data-discarded") == hand[-1]
    bot = game.places.discarded[1][0].letter  # the bot's discard, face up to Ana too
    assert page.get_attribute('.seat[data-seat="1"] [data-discarded]', "data-discarded") == bot
    while not page.query_selector("#final"):
        page.wait_for_selector("#final, button.card.pickable, button.option", timeout=WAIT)
        if page.query_selector("#final"):
            break
        seen = int(page.get_attribute("body", "data-states") or 0)
        click_first(page)
        page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    assert game.over and all(len(cards) == 4 for entry in game.history for cards in entry["drafts"].values())
    for player in game.scores.sheet()["players"]:
        assert int(page.text_content(f'#final td[data-player="{player["name"]}"][data-key="total"]')) == player["total"]
