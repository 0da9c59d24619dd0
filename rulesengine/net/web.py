"""The web client over plain HTTP, on the server's own port: the page, its scripts and the editions' names.

A browser asks `GET /` (the lobby) or `GET /t/CODE` (a table's shared link) and gets the same page;
its scripts then open the WebSocket of the protocol on the same port. Everything served is a file of
rulesengine/net/static/ (package data, no build step, nothing fetched from elsewhere) or the list of
edition names. It never serves a path a client made up, nor anything about a table: a table is only
ever told over the WebSocket, to a seat that proved itself.
"""

from __future__ import annotations

import json
import re
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

STATIC = Path(__file__).resolve().parent / "static"
FILES = {
    "index.html": "text/html; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "protocol.js": "text/javascript; charset=utf-8",
    "cards.js": "text/javascript; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "rounds.js": "text/javascript; charset=utf-8",
}
PAGE = re.compile(r"^/(t/[A-Z2-9]{6,12})?$")
# The page runs only its own scripts and talks only to this server (no CDN, no other site).
POLICY = (
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; frame-ancestors 'none'"
)


def process_request(connection, request: Request) -> Response | None:
    """websockets' hook: a WebSocket upgrade goes on to the protocol; any other request is HTTP."""
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None
    path = request.path.split("?", 1)[0]
    if PAGE.match(path):
        return _file("index.html")
    if path.startswith("/static/") and path[len("/static/") :] in FILES:
        return _file(path[len("/static/") :])
    if path == "/editions.json":
        return _respond(HTTPStatus.OK, "application/json", json.dumps(edition_choices()).encode("utf-8"))
    return _respond(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found: the table is at / or /t/CODE\n")


def edition_choices() -> list[dict]:
    """The editions a table can be opened with: their names and player counts, for the lobby's form."""
    from .editions import data_for_name, known_editions

    out = []
    for name in known_editions():
        try:
            data = data_for_name(name)
        except Exception:  # noqa: BLE001 - a broken file is left out of the list; `boom host` reports it
            continue
        players = data.get("players", {})
        out.append({"id": name, "name": data.get("name", name), "min": players.get("min"), "max": players.get("max")})
    return out


def _file(name: str) -> Response:
    return _respond(HTTPStatus.OK, FILES[name], (STATIC / name).read_bytes())


def _respond(status: HTTPStatus, kind: str, body: bytes) -> Response:
    headers = Headers(
        [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", POLICY),
            ("Connection", "close"),
        ]
    )
    return Response(status.value, status.phrase, headers, body)
