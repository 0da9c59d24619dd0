"""The invitation in a real browser, over TLS: the host's page shows the link, a friend's browser follows it to a
seat, and the seat token shown once takes a seat back from a third browser. The distribution's Chromium driven by
Playwright, a server on loopback with a self-signed certificate made by openssl for the test (https://, wss://).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from net_support import ServerThread, bounded  # noqa: F401 - bounded: the autouse time limit
from test_web_browser import CHROMIUM, WAIT, browser, sync_playwright  # noqa: F401 - fixtures and the skip

from rulesengine.net.listening import tls_context

pytestmark = pytest.mark.slow
OPENSSL = shutil.which("openssl")


@pytest.fixture
def tls_server(tmp_path):
    if OPENSSL is None:
        pytest.fail("the TLS browser test needs the openssl command (apt-get install openssl)", pytrace=False)
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"]
        + ["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    server = ServerThread(tmp_path / "boom.sqlite", tls=tls_context(str(cert), str(key)))
    yield server
    server.stop()


def test_from_the_hosts_link_to_a_seated_friend_and_a_seat_taken_back_with_its_token_over_tls(browser, tls_server):  # noqa: F811
    port = tls_server.port
    sockets: list[str] = []

    def context_page():
        context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.on("websocket", lambda ws: sockets.append(ws.url))
        return page

    ana = context_page()
    ana.goto(f"https://127.0.0.1:{port}/")
    ana.select_option("#edition", "australia")
    ana.fill("#host-name", "Ana")
    ana.fill("#players", "3")
    ana.fill("#bots", "1")
    ana.click("#create-button")
    link = ana.wait_for_selector("#invite-link", timeout=WAIT).get_attribute("href")
    code = link.rsplit("/", 1)[1]
    assert link == f"https://127.0.0.1:{port}/t/{code}" and len(code) == 8
    assert ana.text_content("#invite").startswith(f"Table {code} · invite: ")
    token = ana.text_content("#seat-token")
    assert len(token) >= 16

    ben = context_page()
    ben.goto(link)
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    ana.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    assert ben.text_content(".seat.me h3").startswith("Ben (you)")
    # the invitation stays in view all game long, and the token note goes once dismissed
    assert ana.get_attribute("#invite-link", "href") == link and ben.get_attribute("#invite-link", "href") == link
    ana.click("#token-done")
    assert ana.query_selector("#seat-token") is None

    # Ana's phone: the same link, her token pasted: her seat and hand, and the old window is told
    phone = context_page()
    phone.goto(link)
    phone.fill("#seat-token-input", token)
    phone.click("#join-button")
    phone.wait_for_selector("#hand button.card.pickable", timeout=WAIT)
    assert phone.text_content(".seat.me h3").startswith("Ana (you)")
    assert phone.query_selector("#seat-token") is None  # the token is never sent again
    ana.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('another window')", timeout=WAIT
    )
    game = tls_server.server.tables[code].game
    hand = sorted(game.view(0)["hand"])
    shown = sorted(n.get_attribute("data-card") for n in phone.query_selector_all("#hand .row > [data-card]"))
    assert shown == hand
    # a spectator's link: the table as everyone sees it, no hand, no token
    watcher = context_page()
    watcher.goto(f"{link}?watch")
    watcher.wait_for_selector("#spectate .seat", timeout=WAIT)
    assert watcher.text_content("#turn").startswith(f"Watching table {code} (live)")
    assert watcher.query_selector("#hand") is None and watcher.query_selector("#seat-token") is None
    assert [n.text_content().split(" ·")[0] for n in watcher.query_selector_all("#spectate .seat h3")] == [
        "Ana",
        "Ben",
        "Bot 1",
    ]
    assert sockets and all(url.startswith(f"wss://127.0.0.1:{port}") for url in sockets)
