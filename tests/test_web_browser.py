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
pytestmark = pytest.mark.slow  # a few seconds each: `make test` runs them, `make check` does not


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
    if server._thread.is_alive():
        server.stop()


def page_of(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(f"http://127.0.0.1:{server.port}/")
    return page, frames


def open_table(page, edition: str, players: int, bots: int, host: str = "Ana") -> None:
    """Fill the lobby's form and create the table (the page then waits for the other seats or plays)."""
    page.select_option("#edition", edition)
    page.fill("#host-name", host)
    page.fill("#players", str(players))
    page.fill("#bots", str(bots))
    page.click("#create-button")


def click_nth(page, selector: str, n: int = 0) -> None:
    """Click the n-th element the selector finds, found again when clicked: the page draws its panels afresh at
    every state it is sent, so a handle found before (query_selector_all) may be detached by the click."""
    page.click(f"{selector} >> nth={n}", timeout=WAIT)


def click_first(page) -> None:
    """Click the first card to pick, or the first option."""
    click_nth(page, "button.card.pickable" if page.query_selector("button.card.pickable") else "button.option")


def table_of(server, code):
    return server.server.tables[code]


@pytest.mark.parametrize("edition", ["australia", "australia-no-throw-catch"])
def test_a_whole_game_in_the_browser_against_two_bots(browser, server, edition):
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page, frames = page_of(browser, server)
    page.select_option("#edition", edition)
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
            click_nth(page, "button.card.pickable")
            drafted += 1
        else:
            if not (ARTEFACTS / "choice.png").exists() or drafted == 6:
                page.screenshot(path=str(ARTEFACTS / "choice.png"), full_page=True)
            click_nth(page, "button.option")
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
    # a line with `counts: false` is shown apart: named so, in rows of its own class (#31)
    apart = {row.text_content() for row in page.query_selector_all("#final tr.uncounted th")}
    assert apart == ({"Throw & Catch (not counted)"} if edition == "australia-no-throw-catch" else set())


def strings_in(frames: list[str]) -> set[str]:
    """Every string value in the frames after `joined` (whose edition data names every card)."""
    found: set[str] = set()

    def walk(value):
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for frame in frames:
        message = json.loads(frame)
        if message["type"] != "joined":
            walk(message)
    return found


def cards_shown(page) -> set[str]:
    return {node.get_attribute("data-card") for node in page.query_selector_all("[data-card]")}


def hand_shown(page) -> list[str]:
    return [node.get_attribute("data-card") for node in page.query_selector_all("#hand .row > [data-card]")]


def test_a_second_seat_never_sees_the_first_ones_cards_and_a_reload_returns_to_the_seat(browser, server):
    ana, _ = page_of(browser, server)
    ana.select_option("#edition", "australia")
    ana.fill("#host-name", "Ana")
    ana.fill("#players", "3")
    ana.fill("#bots", "1")
    ana.click("#create-button")
    link = ana.wait_for_selector("#share", timeout=WAIT).get_attribute("href")
    code = link.rsplit("/", 1)[1]
    ben, ben_frames = page_of(browser, server)
    ben.goto(link)
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ana.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    ben.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    game = table_of(server, code).game
    ana_hand = set(game.view(0)["hand"])
    assert len(ana_hand) == 7 and set(hand_shown(ana)) == ana_hand
    # nobody has passed yet: Ben can know none of Ana's cards
    assert not cards_shown(ben) & ana_hand and not strings_in(ben_frames) & ana_hand

    ana_throw = ana.get_attribute("#hand button.card.pickable >> nth=0", "data-card")
    ana.click("#hand button.card.pickable >> nth=0")
    ben.click("#hand button.card.pickable >> nth=0")
    ben.wait_for_function("() => document.querySelector('#turn').textContent.includes('draft')", timeout=WAIT)
    assert game.round == 0 and ana_throw not in cards_shown(ben) and ana_throw not in strings_in(ben_frames)
    assert ben.query_selector_all(".card.back")  # the others' Throws, face down

    # a reload mid-round: the same seat and the same hand, from the token kept in the browser
    ana.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    before = hand_shown(ana)
    assert set(before) == set(game.view(0)["hand"]) and game.view(0)["throw"] == ana_throw
    ana.reload()
    ana.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    assert hand_shown(ana) == before
    assert ana.text_content(".seat.me h3").startswith("Ana (you)")
    assert ana_throw in cards_shown(ana)  # her own Throw, shown to her alone
    assert ana_throw not in cards_shown(ben) and ana_throw not in strings_in(ben_frames)

    server.stop()  # the server gone: the page says so, and keeps trying
    ben.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('cannot be reached')", timeout=WAIT
    )
