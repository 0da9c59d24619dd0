"""Clients of a boom server: open a table, or sit at one and play it to the end.

A seat is played by an agent (a bot, or the terminal UI) that decides from the seat's view and a
Decision, exactly as at a local table. A dropped connection is retried with growing pauses and the
seat resumed with its token. The client keeps no secret but its token, and never learns more than
the server sends its seat.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import websockets
from websockets.asyncio.client import connect

from ..edition.model import Edition
from ..errors import BoomError, Diagnostic
from ..game.state import Decision
from .editions import edition_from_data
from .protocol import encode

# At most one decision every DECISION_GAP seconds: a bot answers at once, and a game with hundreds of bids
# (the 2010 game) would outrun the server's rate limit (20 a second by default), which drops the excess.
DECISION_GAP = 0.06

FATAL = (
    "unknown_table",
    "table_full",
    "name_taken",
    "bad_token",
    "bad_edition",
    "bad_players",
    "bad_seat_options",
    "server_full",
    "too_many_tables",
    "bad_message",
)


class NetError(BoomError):
    """The server refused us for good, or could not be reached."""


def refused(message: dict) -> NetError:
    return NetError(Diagnostic(None, f"the server refused: {message.get('message')} ({message.get('code')})", "N301"))


def unreachable(url: str, exc: BaseException) -> NetError:
    return NetError(Diagnostic(None, f"cannot reach the server at {url}: {exc}", "N302"))


async def host_table(
    url: str,
    edition,
    players: int,
    bots: int = 0,
    bot_kind: str = "greedy",
    seed: int | None = None,
    open_timeout: float = 10,
    source: str | None = None,
    clock: int | None = None,
    on_time: str = "bot",
    seat_options: dict | None = None,
) -> dict:
    """Open a table; return the `hosted` message. edition: a name the server knows, or edition data.
    source: the local address to connect from (a bench plays many clients from loopback addresses).
    clock: seconds each seat has for each move (None: no clock); on_time: "bot" or "forfeit" when it runs out;
    seat_options: seat number (from 1, as text) -> option -> number, the edition's seat options the table sets."""
    message = {"type": "host", "edition": edition, "players": players, "bots": bots, "bot_kind": bot_kind, "seed": seed}
    if clock is not None:
        message |= {"clock": clock, "on_time": on_time}
    if seat_options:
        message["seat_options"] = seat_options
    where = {"local_addr": (source, 0)} if source else {}
    try:
        async with connect(url, open_timeout=open_timeout, max_size=None, **where) as socket:
            await socket.send(encode(message))
            answer = json.loads(await socket.recv())
    except (TimeoutError, OSError, websockets.WebSocketException) as exc:
        raise unreachable(url, exc) from None
    if answer.get("type") != "hosted":
        raise refused(answer)
    return answer


def page_link(url: str, hosted: dict) -> str:
    """The table's page to share: the server's own link (its public URL or LAN address) when it gives one,
    else the page at the address this client used (ws:// -> http://, wss:// -> https://)."""
    if hosted.get("link"):
        return hosted["link"]
    base = url.rstrip("/")
    for socket_scheme, page_scheme in (("wss://", "https://"), ("ws://", "http://")):
        if base.startswith(socket_scheme):
            base = page_scheme + base[len(socket_scheme) :]
    return f"{base}/t/{hosted['table']}"


@dataclass
class Seat:
    """What a client knows of its seat."""

    table: str
    name: str
    token: str | None = None
    number: int | None = None
    edition: Edition | None = None
    view: dict | None = None
    events: list = field(default_factory=list)
    final: dict | None = None  # the `game_over` message
    last_sent: float = 0.0  # the event loop's clock at the last decision sent


async def play_seat(
    url: str,
    table: str,
    name: str,
    make_agent: Callable[[Edition], object],
    *,
    token: str | None = None,
    on_message: Callable[[Seat, dict], None] = lambda seat, message: None,
    retries: int = 8,
    first_pause: float = 0.25,
    max_pause: float = 8.0,
    open_timeout: float = 10,
    source: str | None = None,
) -> Seat:
    """Join (or with a token, or after a drop, resume) the seat and let the agent play it to the end."""
    seat, agent, pause, failures = Seat(table, name, token), None, first_pause, 0
    where = {"local_addr": (source, 0)} if source else {}
    while True:
        try:
            async with connect(url, open_timeout=open_timeout, max_size=None, ping_interval=10, **where) as socket:
                hello = (
                    {"type": "join", "table": table, "name": name}
                    if seat.token is None
                    else {"type": "resume", "table": table, "token": seat.token}
                )
                await socket.send(encode(hello))
                sent: set = set()
                async for raw in socket:
                    message = json.loads(raw)
                    kind = message.get("type")
                    on_message(seat, message)
                    if kind == "joined":
                        failures, pause = 0, first_pause
                        seat.number = message["seat"]
                        seat.token = message.get("token", seat.token)
                        if seat.edition is None:
                            seat.edition = edition_from_data(message["edition"])
                            agent = make_agent(seat.edition)
                    elif kind == "error" and message.get("code") in FATAL and seat.number is None:
                        raise refused(message)
                    elif kind == "error" and message.get("code") == "retry" and seat.number is None:
                        await socket.send(encode(hello))  # the table's process restarted before seating us
                    elif kind == "error" and message.get("code") in ("bad_token", "unknown_table", "stopped"):
                        raise refused(message)
                    elif kind == "error" and message.get("code") in ("too_fast", "retry") and seat.view is not None:
                        # what was dropped is unknown (too fast), or was never played (its table's process was
                        # restarted): answer what is pending again
                        await asyncio.sleep(1.0 if message["code"] == "too_fast" else 0.0)
                        sent.clear()
                        await _answer(socket, seat, agent, sent)
                    elif kind == "state":
                        seat.view = message["view"]
                        seat.events.extend(message["events"])
                        await _answer(socket, seat, agent, sent)
                    elif kind == "game_over":
                        seat.final = message
                        return seat
            problem: BaseException = ConnectionError("the server closed the connection")
        except (TimeoutError, OSError, websockets.WebSocketException) as exc:
            problem = exc
        failures += 1
        if failures > retries or seat.token is None:  # never seated: nothing to come back to
            raise unreachable(url, problem)
        await asyncio.sleep(pause)
        pause = min(pause * 2, max_pause)


async def watch_table(
    url: str,
    table: str,
    on_message: Callable[[dict], None],
    *,
    retries: int = 8,
    first_pause: float = 0.25,
    max_pause: float = 8.0,
    open_timeout: float = 10,
) -> dict:
    """Watch a table as a spectator until its game is over (watching again after a drop); return the last
    `spectate` frame. It holds no seat and sends nothing but `watch`: it is sent only the public view."""
    pause, failures = first_pause, 0
    while True:
        try:
            async with connect(url, open_timeout=open_timeout, max_size=None, ping_interval=10) as socket:
                await socket.send(encode({"type": "watch", "table": table}))
                async for raw in socket:
                    message = json.loads(raw)
                    on_message(message)
                    kind = message.get("type")
                    if kind == "watching":
                        failures, pause = 0, first_pause
                    elif kind == "error" and message.get("code") in (*FATAL, "no_spectators", "stopped"):
                        raise refused(message)
                    elif kind == "spectate" and any(e.get("type") == "game_over" for e in message["events"]):
                        return message
            problem: BaseException = ConnectionError("the server closed the connection")
        except (TimeoutError, OSError, websockets.WebSocketException) as exc:
            problem = exc
        failures += 1
        if failures > retries:
            raise unreachable(url, problem)
        await asyncio.sleep(pause)
        pause = min(pause * 2, max_pause)


def decision_key(view: dict, pending: dict) -> str:
    """What tells one decision of this seat from its next of the same kind: the id the server gave it."""
    return pending["id"]


async def _answer(socket, seat: Seat, agent, sent: set) -> None:
    """Answer each pending decision of the seat not answered yet on this connection."""
    view = seat.view
    for pending in view["pending"]:
        key = decision_key(view, pending)
        if key in sent:
            continue
        sent.add(key)
        decision = Decision(
            pending["seat"], pending["kind"], pending["round"], tuple(pending["options"]), pending["category"]
        )
        if getattr(agent, "kind", None) == "human":  # reading a terminal: keep the connection alive meanwhile
            answer = await _in_daemon_thread(agent.decide, view, decision)
        else:
            answer = agent.decide(view, decision)
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, seat.last_sent + DECISION_GAP - loop.time()))
        seat.last_sent = loop.time()
        await socket.send(
            encode(
                {
                    "type": "decide",
                    "table": seat.table,
                    "token": seat.token,
                    "round": decision.round,
                    "kind": decision.kind,
                    "category": decision.category,
                    "id": pending["id"],
                    "answer": answer,
                }
            )
        )


async def _in_daemon_thread(function, *args):
    """function(*args) in a daemon thread: a prompt waiting for a line never keeps the program from exiting."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def settle(result=None, problem=None):
        if not done.cancelled():
            done.set_exception(problem) if problem is not None else done.set_result(result)

    def run():
        try:
            result = function(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting coroutine
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            loop.call_soon_threadsafe(settle, result)

    threading.Thread(target=run, daemon=True).start()
    return await done
