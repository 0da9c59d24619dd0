"""Network play: an authoritative server hosting many tables over WebSockets, and its clients.

The front door: serve_forever(store, host, port) runs a server; host_table(url, ...) opens a table;
play_seat(url, table, name, make_agent) plays a seat to the end; export_table(store, code) gives a
finished table's record. The protocol (messages, schemas, limits) lives in protocol.py alone.
Nothing here decides for a seat or scores a game: the engine and the bots do; this package only
carries decisions in and each seat's own view out.
"""

from .client import NetError, host_table, play_seat
from .export import export_table
from .protocol import Limits, ProtocolError
from .server import BoomServer, serve_forever
from .storage import Store

__all__ = [
    "BoomServer",
    "Limits",
    "NetError",
    "ProtocolError",
    "Store",
    "export_table",
    "host_table",
    "play_seat",
    "serve_forever",
]
