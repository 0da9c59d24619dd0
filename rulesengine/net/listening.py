"""Where a server listens and who may talk to it: the socket, TLS, the addresses to share, the allowed origins.

A server bound to every interface prints the machine's own addresses (a friend on the LAN types one of
those, never 0.0.0.0), and a public URL (`--public-url`, e.g. behind a reverse proxy or a forwarded port)
is what the page and `boom host` share. A browser's WebSocket is accepted only from a page of the server's
own origins (or one allowed by name): a page of another site cannot use the player's connection to the
server (say, to spend their table quota). Clients other than browsers send no Origin and are not affected.
It never reads a message: server.py does.
"""

from __future__ import annotations

import asyncio
import fcntl
import resource
import socket
import ssl
import struct
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

from ..errors import BoomError, Diagnostic
from .cluster import HOP_HEADER, Cluster, hop_address
from .server import BoomServer, connection_class
from .web import process_request

ANY = ("0.0.0.0", "::", "")
SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """This machine's addresses other than loopback (IPv4 from each interface, then global IPv6), read from
    the system; nothing is sent anywhere to find them."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    try:
        lines = Path("/proc/net/if_inet6").read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 4 and fields[3] == "00":  # scope global
            raw = bytes.fromhex(fields[0])
            address = socket.inet_ntop(socket.AF_INET6, raw)
            if address not in found:
                found.append(address)
    return found


def share_hosts(host: str) -> list[str]:
    """The host names a friend can reach this server by: the LAN addresses when bound to every interface."""
    if host in ANY:
        return lan_addresses() or ["127.0.0.1"]
    return [host]


def share_urls(host: str, port: int, tls: bool, public_url: str | None) -> list[tuple[str, str]]:
    """(WebSocket URL, page URL) pairs to give friends: the public URL alone when there is one, else one per
    address this server can be reached at."""
    if public_url:
        page = public_url.rstrip("/")
        parts = urlsplit(page)
        socket_url = page.replace(parts.scheme, {"https": "wss", "http": "ws"}.get(parts.scheme, parts.scheme), 1)
        return [(socket_url, page)]
    web, ws = ("https", "wss") if tls else ("http", "ws")
    return [(f"{ws}://{url_host(h)}:{port}", f"{web}://{url_host(h)}:{port}") for h in share_hosts(host)]


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def origin_of(url: str) -> str | None:
    """The Origin a browser sends for a page at this URL (scheme, host, port unless the default)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    default = 443 if scheme == "https" else 80
    port = parts.port if parts.port not in (None, default) else None
    return f"{scheme}://{url_host(parts.hostname.lower())}" + (f":{port}" if port else "")


def own_origins(host: str, port: int, tls: bool, public_url: str | None, allowed: Iterable[str]) -> set[str]:
    """Every origin a page of this server can have: its addresses and names at this port, the public URL's."""
    scheme = "https" if tls else "http"
    names = {"127.0.0.1", "localhost", "::1"}
    if host in ANY:
        names |= set(lan_addresses()) | {socket.gethostname(), f"{socket.gethostname()}.local"}
    else:
        names.add(host)
    origins = {origin_of(f"{scheme}://{url_host(name)}:{port}") for name in names}
    origins |= {origin_of(url) for url in (public_url, *allowed) if url}
    return {o for o in origins if o}


def tls_context(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """The TLS context of --certfile/--keyfile (wss:// and https://), or None for plain ws:// and http://."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None:
        raise BoomError(Diagnostic(None, "--keyfile needs --certfile (the certificate it belongs to)", "N207"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as exc:
        raise BoomError(
            Diagnostic(None, f"cannot use the certificate {certfile}: {getattr(exc, 'strerror', None) or exc}", "N207")
        ) from None
    return context


def raise_file_limit() -> int:
    """Let the server hold as many sockets as the system allows this process (the soft limit up to the hard
    one): with the default of 1,024, idle sockets would run it out of descriptors before any cap applied."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            return hard
        except (ValueError, OSError):
            pass
    return soft


def guarded_requests(origins: set[str], server: BoomServer | None = None) -> Callable:
    """websockets' request hook: a WebSocket from a page of another origin is refused (403); the rest as web.py.
    In a cluster, another node's hop (cluster.py) proves itself with the nodes' key and is counted as the client
    it carries, not as the node (whose address carries many clients)."""

    def forbidden(text: str) -> Response:
        body = text.encode()
        headers = Headers([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))])
        return Response(403, "Forbidden", headers, body)

    def process(connection, request):
        hop = request.headers.get(HOP_HEADER)
        if hop is not None and request.headers.get("Upgrade", "").lower() == "websocket":
            carried = hop_address(server.store, hop) if server is not None and server.cluster is not None else None
            if carried is None:
                return forbidden("not a node of this cluster\n")
            now = server.clock()
            refusal = server.guard.admit(carried or None, now)
            if refusal is not None:  # still counted as the node's until it closes
                return forbidden(refusal + "\n")
            server.guard.release(connection.address, now)
            connection.address = carried or None
            return None
        if request.headers.get("Upgrade", "").lower() == "websocket":
            origin = request.headers.get("Origin")
            if origin is not None and origin.lower() not in origins:
                return forbidden(
                    f"a page of {origin} may not use this server; it accepts its own pages "
                    "(boom serve --allow-origin adds one)\n"
                )
            return None
        return process_request(connection, request)

    return process


async def listen(
    server: BoomServer,
    host: str,
    port: int,
    ready=None,
    *,
    tls: ssl.SSLContext | None = None,
    public_url: str | None = None,
    allowed: Iterable[str] = (),
    node_url: str | None = None,
) -> None:
    """Serve this server's tables on host:port until cancelled; `ready(port)` once it listens. On a store shared
    by several servers (PostgreSQL) it joins them as a node, reached by the others at `node_url` (by default its
    own address)."""
    raise_file_limit()
    limits = server.limits
    origins: set[str] = set()
    async with serve(
        server.handle,
        host or None,
        port,
        max_size=limits.hard_frame,
        max_queue=64,
        process_request=guarded_requests(origins, server),
        create_connection=connection_class(server),
        open_timeout=limits.open_timeout,
        ssl=tls,
    ) as listener:
        actual = listener.sockets[0].getsockname()[1]
        origins |= own_origins(host, actual, tls is not None, public_url, allowed)
        if server.store.node is not None:
            own = node_url or share_urls(host, actual, tls is not None, None)[0][0]
            server.cluster = Cluster(server, server.store, own)
        await server.start(share_urls(host, actual, tls is not None, public_url)[0][1])
        watcher = asyncio.get_running_loop().create_task(server.watch())
        sampler = asyncio.get_running_loop().create_task(server.sample_lag())
        if ready is not None:
            ready(actual)
        try:
            await asyncio.Future()
        finally:
            watcher.cancel()
            sampler.cancel()
            await server.close()


async def serve_forever(
    store, host: str, port: int, limits=None, ready=None, *, workers: int = 0, db=None, fsync=False, **options
) -> None:
    """Run a server until cancelled; `ready(port)` is called once it listens. workers: 0 plays the tables on
    the server's own event loop; N >= 1 in N worker processes (workers.py), each table in one of them."""
    from .protocol import DEFAULT_LIMITS

    limits = limits or DEFAULT_LIMITS
    side = None
    if workers:
        from .workers import WorkerPool

        side = WorkerPool(store, db, fsync, limits, workers)
    await listen(BoomServer(store, limits, side=side), host, port, ready, **options)
