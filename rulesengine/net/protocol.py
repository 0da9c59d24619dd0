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

from ..edition.shipped import shipped_dir
from ..edition.steps import DECISION_KINDS

# schemas/protocol in a checkout, share/boom/schemas/protocol once installed (edition/shipped.py finds either)
SCHEMA_DIR = (shipped_dir("schemas") or Path(__file__).resolve().parents[2] / "schemas") / "protocol"
# sent in `hosted` and `joined`; raised only when a message changes incompatibly (2: `decide` names its `id`)
PROTOCOL = 2
CLIENT_TYPES = ("host", "join", "resume", "decide", "watch")
SERVER_TYPES = (
    "hosted",
    "joined",
    "lobby",
    "seat_status",
    "state",
    "ack",
    "error",
    "game_over",
    "watching",
    "spectate",
)


@dataclass(frozen=True)
class Limits:
    """What one server accepts; documented in docs/protocol.md."""

    max_frame: int = 64 * 1024  # bytes of one client frame; larger ones are answered `too_large`
    hard_frame: int = 1024 * 1024  # bytes; larger frames close the connection (code 1009)
    max_tables: int = 500  # tables not yet finished, over the whole server
    max_tables_per_ip: int = 20  # tables not yet finished opened from one address (since the server started)
    max_spectators: int = 50  # spectators of one table
    max_seats: int = 12  # seats at one table (an edition may allow fewer)
    rate: float = 20.0  # messages per second per connection, sustained
    burst: int = 40  # messages a connection may send at once
    max_refused: int = 200  # refused messages from one address within refusal_window; then its connections close
    refusal_window: float = 60.0  # seconds; an address past max_refused may not connect again for that long
    away_timeout: float = 60.0  # seconds a player may be gone before a bot plays the seat
    lobby_timeout: float = 3600.0  # seconds a table may wait for its players; then it is closed
    max_connections: int = 2000  # open connections; one more is closed at once (code 1013, try again later)
    max_connections_per_ip: int = 64  # open connections from one address (an IPv6 /64); one more is closed at once
    open_timeout: float = 10.0  # seconds to complete the opening handshake (TLS and WebSocket)
    idle_timeout: float = 30.0  # seconds a connection holding no seat may stay silent; then it is closed
    address_rate: float = 100.0  # messages per second from one address, sustained (every connection together)
    address_burst: int = 200
    max_lookups: int = 30  # look-ups of tables that do not exist from one address, per lookup_window
    lookup_window: float = 600.0
    host_rate: float = 0.5  # requests to open a table from one address, per second, sustained
    host_burst: int = 10
    max_editions: int = 32  # compiled editions kept in memory (by content); the oldest used is dropped
    table_cpu: float = 10.0  # CPU seconds one call for one table may take (a move, a bot's decision); then it stops
    edition_cpu: float = 10.0  # CPU seconds reading (checking, compiling) an edition a host sent may take
    worker_memory: int = 1024  # MiB of address space a worker process may use (0: no limit)
    bot_cpu_rate: float = 0.25  # CPU seconds a second the bots of one table may spend, sustained
    bot_cpu_burst: float = 2.0  # ... at once (twice that for an address)
    bot_cpu_per_address: float = 0.25  # CPU seconds a second the bots of every table one address opened may spend
    keep_bot_games: int = 200  # finished tables played by bots alone kept in the database; older ones are deleted


DEFAULT_LIMITS = Limits()


class ProtocolError(Exception):
    """A refused message: its error code (one of error.schema.json's) and a message for the sender."""

    def __init__(self, code: str, message: str, ref: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


@cache
def strict_validator():
    """JSON Schema's "integer" admits 3.0; a message's integers are integers (a float seat count or seed reached the
    engine as a float): only a JSON number written without a fraction or an exponent is one. Made at the first
    message, not at import: `boom serve --help` starts without jsonschema."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda checker, value: type(value) is int),
    )


@cache
def validator(message_type: str):
    schema = json.loads((SCHEMA_DIR / f"{message_type}.schema.json").read_text(encoding="utf-8"))
    strict = strict_validator()
    strict.check_schema(schema)
    return strict(schema)


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
_DECIDE_KEYS = {"type", "table", "token", "round", "kind", "category", "answer", "id", "ref"}
_DECISION_ID = re.compile(r"[0-9]{1,3}\.[a-z]{1,16}\.[a-z0-9_-]{0,64}\.[0-9]{1,5}")


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
        and data.get("kind") in DECISION_KINDS
        and "answer" in data
        and text_or_null(data["answer"])
        and text_or_null(data.get("category"))
        and type(data.get("id")) is str
        and _DECISION_ID.fullmatch(data["id"]) is not None
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
