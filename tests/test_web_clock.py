"""The per-move clock on the page (#37): the host sets it in the form, the lobby states it, the table counts the
seat's time down, and a move the bot made when the time ran out is said. The distribution's Chromium driven by
Playwright, a server on loopback whose deadlines are read on a wall clock the test moves (test_net_clocks.Wall).
"""

from __future__ import annotations

import time

import pytest
from net_support import ServerThread, bounded  # noqa: F401 - bounded: the autouse time limit
from test_net_clocks import FAST_TICKS, Wall
from test_web_browser import CHROMIUM, WAIT, browser, sync_playwright  # noqa: F401 - fixtures and the skip

pytestmark = pytest.mark.slow


def test_the_host_sets_a_clock_the_lobby_states_it_and_the_table_counts_it_down(browser, tmp_path):  # noqa: F811
    wall = Wall()
    server = ServerThread(tmp_path / "boom.sqlite", FAST_TICKS, wall=wall)
    try:
        ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        ana.goto(f"{server.url.replace('ws://', 'http://')}/")
        ana.select_option("#edition", "australia")
        ana.fill("#host-name", "Ana")
        ana.fill("#players", "3")
        ana.fill("#bots", "1")
        ana.select_option("#clock-move", "30")
        ana.click("#create-button")
        link = ana.wait_for_selector("#invite-link", timeout=WAIT).get_attribute("href")
        assert ana.wait_for_selector("#clock", timeout=WAIT).text_content() == "Clock: 30 s a move; then a bot plays it"
        ben = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        ben.goto(link)
        ben.fill("#join-name", "Ben")
        ben.click("#join-button")
        for page in (ana, ben):
            page.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
            said = page.text_content("#clock-left")
            assert said.startswith("Your clock: ")
            assert said.endswith(" s left for this move (30 s a move; then a bot plays it)")
            assert int(said.split()[2]) <= 30  # the page counts down between two states
        wall.now += 31  # both let their time run out: the bot throws for them, and the page says so
        for page in (ana, ben):
            page.wait_for_function(
                "() => (document.querySelector('.note') || {}).textContent?.includes('ran out of time: a bot makes')",
                timeout=WAIT,
            )
        (table,) = server.server.tables.values()
        for _ in range(1200):  # the note comes first, then the bot's moves (a hang guard, not a time asserted)
            if len(table.game.decisions) >= 3:
                break
            time.sleep(0.05)
        assert sorted(seat for seat, _, _ in table.game.decisions[:3]) == [0, 1, 2]  # three Throws, two by the bot
    finally:
        server.stop()
