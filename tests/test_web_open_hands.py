"""Open hands in a real browser: every other seat's hand on the table, as it goes round.

Same setting as test_web_browser.py (the distribution's Chromium, a loopback server).
"""

from __future__ import annotations

import pytest
from net_support import bounded  # noqa: F401 - the autouse time limit
from test_web_browser import WAIT, browser, hand_shown, open_table, page_of, server, table_of  # noqa: F401 - fixtures
from test_web_discard import click_card

pytestmark = pytest.mark.slow


def test_open_hands_show_every_other_hand_on_the_page(browser, server):  # noqa: F811 - fixtures
    page, _ = page_of(browser, server)
    open_table(page, "australia-open-hands", 3, 2)
    page.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    game = table_of(server, page.url.rsplit("/", 1)[1]).game
    for seat in (1, 2):
        shown = page.get_attribute(f'.seat[data-seat="{seat}"] [data-hand]', "data-hand")
        assert shown == " ".join(c.letter for c in game.places.hands[seat])
    assert not page.query_selector('.seat.me [data-hand]')  # her own hand is the hand panel
    click_card(page, hand_shown(page)[0])
    page.wait_for_function("() => document.querySelectorAll('.seat [data-hand]').length == 2", timeout=WAIT)
    for seat in (1, 2):  # the hands passed on, as they are now
        page.wait_for_function(
            "([seat, letters]) => document.querySelector(`.seat[data-seat=\"${seat}\"] [data-hand]`)"
            ".dataset.hand === letters", arg=[seat, " ".join(c.letter for c in game.places.hands[seat])], timeout=WAIT)
