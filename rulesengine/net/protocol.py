"""The network protocol in one place: message types, their JSON Schemas, the limits, and parsing.

Every message is one JSON object in one WebSocket text frame, with a "type". The schemas in
schemas/protocol/ are the definition (docs/protocol.md explains them); this module reads them, so
the server, the client and a future browser client check the same thing. It never touches a game:
what a seat may see is rulesengine.net.secrecy's job.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

from ..edition.shipped import shipped_dir

# schemas/protocol in a checkout, share/boom/schemas/protocol once installed (edition/shipped.py finds either)
SCHEMA_DIR = (shipped_dir("schemas") or Path(__file__).resolve().parents[2] / "schemas") / "protocol"
PROTOCOL = 1  # sent in `hosted` and `joined`; raised only when a message changes incompatibly
CLIENT_TYPES = ("host", "join", "resume", "decide")
SERVER_TYPES = ("hosted", "joined", "lobby", "seat_status", "state", "ack", "error", "game_over")


@dataclass(frozen=True)
class Limits:
    """What one server accepts; documented in docs/protocol.md."""

    max_frame: int = 64 * 1024  # bytes of one client frame; larger ones are answered `too_large`
    hard_frame: int = 1024 * 1024  # bytes; larger frames close the connection (code 1009)
    max_tables: int = 500  # tables not yet finished, over the whole server
    max_tables_per_ip: int = 20  # tables not yet finished opened from one address (since the server started)
    max_seats: int = 12  # seats at one table (an edition may allow fewer)
    rate: float = 20.0  # messages per second per connection, sustained
    burst: int = 40  # messages a connection may send at once
    max_refused: int = 200  # refusals in a row (too fast, too large) before the connection is closed
    away_timeout: float = 60.0  # seconds a player may be gone before a bot plays the seat
    lobby_timeout: float = 3600.0  # seconds a table may wait for its players; then it is closed
    max_connections: int = 2000  # open connections; one more is closed at once (code 1013, try again later)


DEFAULT_LIMITS = Limits()


class ProtocolError(Exception):
    """A refused message: its error code (one of error.schema.json's) and a message for the sender."""

    def __init__(self, code: str, message: str, ref: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


@cache
def validator(message_type: str) -> Draft202012Validator:
    schema = json.loads((SCHEMA_DIR / f"{message_type}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _ref(data: dict) -> int | None:
    ref = data.get("ref")
    return ref if isinstance(ref, int) and not isinstance(ref, bool) else None


def parse_client_message(raw, limits: Limits = DEFAULT_LIMITS) -> dict:
    """A client frame as a checked message, or ProtocolError saying what is wrong with it."""
    if isinstance(raw, bytes):
        raise ProtocolError("bad_message", "send text frames holding JSON, not binary frames")
    if len(raw.encode("utf-8")) > limits.max_frame:
        raise ProtocolError("too_large", f"a frame may hold at most {limits.max_frame} bytes")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {getattr(exc, 'msg', 'nested too deeply')}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", 'a message is a JSON object with a "type"')
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "bad_message",
            f"unknown message type {json.dumps(kind)[:40]}; expected one of {', '.join(CLIENT_TYPES)}",
            _ref(data),
        )
    if kind == "decide" and _plain_decide(data):
        return data
    problems = sorted(validator(kind).iter_errors(data), key=lambda e: list(e.path))
    if problems:
        first = problems[0]
        where = "/".join(str(p) for p in first.path) or "message"
        raise ProtocolError("bad_message", f"{kind}: {where}: {_short(first.message)}", _ref(data))
    return data


_CODE = re.compile(r"[A-Z0-9]{4,12}")
_DECIDE_KEYS = {"type", "table", "token", "round", "kind", "category", "answer", "ref"}


def _plain_decide(data: dict) -> bool:
    """A fast check of the frequent message, stricter than decide.schema.json (test_net_protocol
    checks that it never accepts what the schema refuses); anything else goes to the schema."""

    def integer(value, low, high):
        return type(value) is int and low <= value <= high

    def text_or_null(value):
        return value is None or type(value) is str and len(value) <= 64

    return (
        data.keys() <= _DECIDE_KEYS
        and type(data.get("table")) is str
        and _CODE.fullmatch(data["table"]) is not None
        and type(data.get("token")) is str
        and 16 <= len(data["token"]) <= 64
        and integer(data.get("round"), 1, 100)
        and data.get("kind") in ("throw", "draft", "choice", "mulligan", "secret", "bid")
        and "answer" in data
        and text_or_null(data["answer"])
        and text_or_null(data.get("category"))
        and ("ref" not in data or integer(data["ref"], 0, 2**31))
    )


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def check_server_message(message: dict) -> list[str]:
    """Problems of an outgoing message against its schema (used by the tests on every frame)."""
    kind = message.get("type")
    if kind not in SERVER_TYPES:
        return [f"unknown server message type {kind!r}"]
    return [f"{kind}: {'/'.join(map(str, e.path))}: {e.message}" for e in validator(kind).iter_errors(message)]


def encode(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def error(code: str, message: str, ref: int | None = None) -> dict:
    out = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    return out
