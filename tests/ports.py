"""A free loopback port for a server a test (or a bench script) starts as its own process."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on now; the OS may hand it out again, so start the server on it at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
