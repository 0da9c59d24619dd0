"""The 2010 game (a flow of its own) in a real browser: a whole game by clicks against two bots.

The page shows the circle, the pot, each seat's stocks and captures and its own secret choice only;
the final sheet equals the server's. Same setting as test_web_browser.py (the distribution's Chromium).
"""

from __future__ import annotations

import json

import pytest
from net_support import bounded  # noqa: F401 - the autouse time limit
from test_web_browser import ARTEFACTS, WAIT, browser, click_nth, open_table, page_of, server, table_of  # noqa: F401 - fixtures

pytestmark = pytest.mark.slow


def test_a_whole_2010_game_in_the_browser_against_two_bots(browser, server):  # noqa: F811 - fixtures
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page, frames = page_of(browser, server)
    open_table(page, "boomerang-2010", 3, 2)
    page.wait_for_selector("#circle", timeout=WAIT)
    code = page.url.rsplit("/", 1)[1]
    game = table_of(server, code).game
    secrets, bids = 0, 0
    while not page.query_selector("#final"):
        page.wait_for_selector("#final, button.option", timeout=WAIT)
        if page.query_selector("#final"):
            break
        seen = int(page.get_attribute("body", "data-states") or 0)
        panel = page.query_selector("section.choice")
        if panel.get_attribute("data-kind") == "secret":
            click_nth(page, 'section.choice[data-kind="secret"] button.option', secrets % 5)
            secrets += 1
            page.wait_for_selector("#secret", timeout=WAIT)
            # the page shows this seat's own secret choice, as the server has it, and no one else's
            assert page.text_content("#secret").endswith(game.places.secrets[0])
        else:
            if bids == 2:
                page.screenshot(path=str(ARTEFACTS / "flow-bid.png"), full_page=True)
            page.click('button.option[data-option="stop"]' if bids % 2 else 'button.option[data-option="throw"]')
            bids += 1
        page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    page.screenshot(path=str(ARTEFACTS / "flow-final.png"), full_page=True)
    assert game.over and secrets == len(game.history) and bids > 0
    for player in game.scores.sheet()["players"]:
        total = page.text_content(f'#final td[data-player="{player["name"]}"][data-key="total"]')
        assert int(total) == player["total"]
        kept = page.text_content(f'#final td[data-player="{player["name"]}"][data-key="kept.boomerangs"]')
        assert int(kept) == player["stocks"]["boomerangs"]
    over = [json.loads(f) for f in frames if '"game_over"' in f]
    assert over[-1]["record"] == game.record()
    # the frames to Ana held her own secret choice only, and no other seat's decisions
    for frame in map(json.loads, frames):
        if frame.get("type") != "state":
            continue
        view = frame["view"]
        hunt = game.history[min(view["round"], len(game.history)) - 1]  # once over, the view shows the last hunt's
        assert view["secret"] in (None, hunt["choices"]["Ana"])
        assert all(e["seat"] == 0 for e in frame["events"] if e["type"] == "decision")


def test_a_whole_game_with_a_choice_declared_in_secret_in_the_browser(browser, server):  # noqa: F811 - fixtures
    """australia-declared-activity: each round opens with the declaration (a button an activity) under every seat's
    declaration of the round before (the terminal's line); while drafting the page shows the seat's own
    declaration only; the final sheet equals the server's."""
    page, frames = page_of(browser, server)
    open_table(page, "australia-declared-activity", 3, 2)
    page.wait_for_selector("#hand", timeout=WAIT)
    code = page.url.rsplit("/", 1)[1]
    game = table_of(server, code).game
    declared, drafted = [], 0
    while not page.query_selector("#final"):
        page.wait_for_selector("#final, button.card.pickable, button.option", timeout=WAIT)
        if page.query_selector("#final"):
            break
        seen = int(page.get_attribute("body", "data-states") or 0)
        panel = page.query_selector("section.choice")
        if panel is not None and panel.get_attribute("data-kind") == "secret":
            if game.history:  # every seat's declaration of the round before, as its choices turned them up
                chosen = game.history[-1]["choices"]
                said = ", ".join(f"{name} {chosen.get(name, {}).get('activities') or 'none'}" for name in game.players)
                assert page.text_content("#declared") == f"Last round's Activities: {said}."
            else:
                assert not page.query_selector("#declared")
            nth = len(declared) % len(page.query_selector_all("button.option"))
            declared.append(page.get_attribute(f"button.option >> nth={nth}", "data-option"))
            click_nth(page, "button.option", nth)
        else:
            # the seat's own declaration, as the server has it, while it drafts
            assert declared[-1] == game.places.secrets[0]
            own = f"Declared in secret: {declared[-1]} (Activities, turned up at the round's end)"
            assert page.text_content("#secret") == own
            click_nth(page, "button.card.pickable")
            drafted += 1
        page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    assert game.over and len(declared) == 4 and drafted == 4 * 6
    for player in game.scores.sheet()["players"]:
        total = page.text_content(f'#final td[data-player="{player["name"]}"][data-key="total"]')
        assert int(total) == player["total"]
    for number, entry in enumerate(game.history):   # what Ana declared became her choice, if her cards allowed it
        assert entry["choices"].get("Ana", {}).get("activities") in (declared[number], None)
    # no frame to Ana held another seat's declaration before the round's choices turned it up
    for frame in map(json.loads, frames):
        if frame.get("type") == "state" and frame["view"]["phase"] != "over":
            assert frame["view"]["secret"] in (None, declared[frame["view"]["round"] - 1])
            assert all(e["seat"] == 0 for e in frame["events"] if e["type"] == "decision")


def test_a_double_throw_in_the_browser(browser, server):  # noqa: F811 - fixtures
    """boomerang-2010-double-throw: the bid's buttons offer a throw of two; clicking it takes two of Ana's
    boomerangs into the pot on the server."""
    page, _ = page_of(browser, server)
    open_table(page, "boomerang-2010-double-throw", 3, 2)
    page.wait_for_selector("#circle", timeout=WAIT)
    game = table_of(server, page.url.rsplit("/", 1)[1]).game
    while True:
        page.wait_for_selector("button.option", timeout=WAIT)
        seen = int(page.get_attribute("body", "data-states") or 0)
        if page.query_selector("section.choice").get_attribute("data-kind") == "bid":
            break
        click_nth(page, "button.option")
        page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    labels = [b.text_content() for b in page.query_selector_all("button.option")]
    assert labels == ["Throw a boomerang into the pot", "Throw 2 boomerangs into the pot", "Stop (take the pot)"]
    before = game.places.stocks[0]["boomerangs"]
    page.click('button.option[data-option="throw 2"]')
    page.wait_for_function("n => Number(document.body.dataset.states) > n", arg=seen, timeout=WAIT)
    assert game.places.stocks[0]["boomerangs"] == before - 2
    assert [0, "throw 2", None] in game.decisions


def test_the_public_goals_are_on_the_page(browser, server):  # noqa: F811 - fixtures
    """australia-public-goals: the goals the server drew, in their words, above the table."""
    from rulesengine.edition.goals import goals_of

    page, frames = page_of(browser, server)
    open_table(page, "australia-public-goals", 3, 2)
    page.wait_for_selector("#goals", timeout=WAIT)
    game = table_of(server, page.url.rsplit("/", 1)[1]).game
    by_id = goals_of(game.edition).by_id
    drawn = [by_id[goal] for goal in game.places.goals]
    assert page.text_content("#goals") == "Public goals: " + "; ".join(f"{g.name} ({g.description})" for g in drawn)
