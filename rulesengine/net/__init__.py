"""Network play: an authoritative server hosting many tables over WebSockets, and its clients.

The front door: serve_forever(store, host, port) runs a server; host_table(url, ...) opens a table;
play_seat(url, table, name, make_agent) plays a seat to the end; export_table(store, code) gives a
finished table's record. The protocol (messages, schemas, limits) lives in protocol.py alone.
Nothing here decides for a seat or scores a game: the engine and the bots do; this package only
carries decisions in and each seat's own view out. Names are imported when first used, so a
command that plays no network game does not load the WebSocket library.
"""

from importlib import import_module

_HOMES = {
    "BoomServer": "server",
    "serve_forever": "listening",
    "NetError": "client",
    "host_table": "client",
    "play_seat": "client",
    "export_table": "export",
    "Limits": "protocol",
    "ProtocolError": "protocol",
    "Store": "storage",
    "open_store": "stores",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_HOMES[name]}", __name__), name)
