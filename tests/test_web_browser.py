"""The web client in a real browser: the distribution's Chromium driven by Playwright, against a loopback server.

Few tests, each bounded (net_support's alarm): a whole game with one browser seat and two bots, and two
browser seats where the second never sees the first's hand or Throw and a reload returns to the seat.
Screenshots go to tests/artefacts/web/ (BOOM_ARTEFACTS overrides it).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from net_support import ServerThread, bounded  # noqa: F401 - bounded: the autouse time limit

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTEFACTS = Path(os.environ.get("BOOM_ARTEFACTS", Path(__file__).parent / "artefacts" / "web"))
MISSING = (
    "the browser tests need the distribution's Chromium and Playwright for Python: "
    "`apt-get install -y chromium` and `pip install -e '.[dev]'` (`make test` does both)"
)

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - reported below
    sync_playwright = None

if CHROMIUM is None or sync_playwright is None:
    if os.environ.get("CI"):
        pytest.fail(MISSING, pytrace=False)
    pytest.skip(MISSING, allow_module_level=True)

WAIT = 30_000  # ms, for one thing to appear in the page


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path):
    server = ServerThread(tmp_path / "boom.sqlite")
    yield server
    server.stop()


def page_of(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(f"http://127.0.0.1:{server.port}/")
    return page, frames


def table_of(server, code):
    return server.server.tables[code]


def test_a_whole_game_in_the_browser_against_two_bots(browser, server):
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page, frames = page_of(browser, server)
    page.select_option("#edition", "australia")
    page.fill("#host-name", "Ana")
    page.fill("#players", "3")
    page.fill("#bots", "2")
    page.screenshot(path=str(ARTEFACTS / "lobby.png"), full_page=True)
    page.click("#create-button")
    page.wait_for_selector("#hand", timeout=WAIT)
    code = page.url.rsplit("/", 1)[1]
    drafted = 0
    while not page.query_selector("#final"):
        page.wait_for_selector("#final, button.card.pickable, button.option", timeout=WAIT)
        if page.query_selector("#final"):
            break
        seen = int(page.get_attribute("body", "data-states") or 0)
        cards = page.query_selector_all("button.card.pickable")
        if cards:
            if drafted == 3:
                page.screenshot(path=str(ARTEFACTS / "draft.png"), full_page=True)
            cards[0].click()
            drafted += 1
        else:
            page.query_selector_all("button.option")[0].click()
        page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    page.screenshot(path=str(ARTEFACTS / "final.png"), full_page=True)
    game = table_of(server, code).game
    assert game.over and drafted == 4 * 6  # each round: a Throw and 5 drafts (the 7th card is the Catch)
    sheet = game.scores.sheet()
    for player in sheet["players"]:
        total = page.text_content(f'#final td[data-player="{player["name"]}"][data-key="total"]')
        assert int(total) == player["total"]
        for key, points in player["categories"].items():
            cells = page.query_selector_all(f'#final td[data-player="{player["name"]}"][data-key="{key}"]')
            assert sum(int(c.text_content() or 0) for c in cells) == points
    over = [json.loads(f) for f in frames if '"game_over"' in f]
    assert over[-1]["record"] == game.record()
