"""The web page at the table (issue 33), in the distribution's Chromium through Playwright: the table code
always in view (the invitation in the header, #37), icon values on the cards, `?` advice with the
terminal's numbers, a choice titled by its category, each round's total on the sheet, and the game-end
lines shown as still to come.

Screenshots go to tests/artefacts/web/ (advice.png, sheet.png).
"""

from __future__ import annotations

import json

import pytest
from net_support import bounded  # noqa: F401 - the autouse time limit
from test_web_browser import ARTEFACTS, WAIT, browser, open_table, page_of, server, table_of  # noqa: F401 - fixtures

from rulesengine import Decision, load_edition
from rulesengine.bots.advice import card_advice, shown_lines

pytestmark = pytest.mark.slow  # a browser game: `make test` runs it, `make check` does not


def last_state(frames: list[str]) -> dict:
    return [json.loads(f) for f in frames if '"type": "state"' in f or '"type":"state"' in f][-1]


def test_the_table_page_shows_code_values_advice_titles_and_round_totals(browser, server):  # noqa: F811
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    australia = load_edition("australia")
    page, frames = page_of(browser, server)
    open_table(page, "australia", 2, 1)
    page.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    code = page.url.rsplit("/", 1)[1]
    assert page.text_content("#invite").startswith(f"Table {code}") and page.is_visible("#invite")

    # icons with their values, as the cards print them (Emus 4, Leaves 1; an activity has none)
    for card in page.query_selector_all("#hand [data-card]"):
        letter = card.get_attribute("data-card")
        icons = [li.text_content() for li in card.query_selector_all(".icons li")]
        expected = []
        for icon in australia.card(letter).icons:
            family = next(f for f in australia.families.values() if icon in f.icon_set)
            expected.append(f"{icon} {family.values[icon]}" if family.values else icon)
        assert icons == expected

    # `?`: the advice of the Throw, the numbers the terminal computes from the same view
    state = last_state(frames)
    entry = next(d for d in state["view"]["pending"] if d["seat"] == state["view"]["seat"])
    decision = Decision(entry["seat"], entry["kind"], entry["round"], tuple(entry["options"]), entry["category"])
    advice = card_advice(australia, state["view"], decision)
    page.keyboard.press("?")
    page.wait_for_selector("#advice", timeout=WAIT)
    page.screenshot(path=str(ARTEFACTS / "advice.png"), full_page=True)
    assert page.text_content("#advice h3").startswith("If you throw it (the lines known now")
    lines = shown_lines(australia, advice, throw=True)
    assert [th.text_content() for th in page.query_selector_all("#advice thead th")] == [
        "card", *[title for _, title in lines], "expected round score"]
    assert "Throw & Catch" not in [title for _, title in lines]          # it needs the Catch: not known yet
    for item in advice:
        row = f'#advice tr[data-card="{item.letter}"]'
        assert page.text_content(f'{row} td[data-key="expected"]') == f"{item.expected:.1f}"
        for key, _ in lines:
            change = item.change(key)
            assert page.text_content(f'{row} td[data-key="{key}"]') == (f"{change:+g}" if change else "")

    # play round 1 to its choice: titled by the category, not its key
    while not page.query_selector("button.option"):
        seen = int(page.get_attribute("body", "data-states") or 0)
        page.click("#hand button.card.pickable >> nth=0")
        page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
        page.wait_for_selector("#hand button.card.pickable, button.option", timeout=WAIT)
    assert page.text_content('[data-category="activities"] h2') == "Round 1: Activities"
    seen = int(page.get_attribute("body", "data-states") or 0)
    page.click("button.option >> nth=0")
    page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    page.wait_for_selector('.sheet td[data-key="round_total"]', timeout=WAIT)
    page.screenshot(path=str(ARTEFACTS / "sheet.png"), full_page=True)

    # the sheet: round 1's total (its categories, not the bonuses), and the tourist sites still to come
    sheet = table_of(server, code).game.scores.sheet()
    races = {race.key for race in australia.races}
    for player in sheet["players"]:
        total = sum(v for k, v in player["rounds"][0].items() if k not in races)
        cell = f'.sheet td[data-player="{player["name"]}"][data-round="1"][data-key="round_total"]'
        assert page.text_content(cell) == str(total)
        assert page.text_content(f'.sheet tr.to-come td[data-player="{player["name"]}"][data-key="sites"]') == (
            "to come")
    assert page.text_content("#invite").startswith(f"Table {code}")     # the code, all game long
