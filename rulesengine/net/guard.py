"""Fair shares of one server: what each address may hold and send, so that one client cannot crowd out the others.

Everything is counted per address, not per connection, so that reconnecting resets nothing: open connections,
messages a second, refusals, failed table look-ups (so that table codes cannot be probed) and tables asked for.
An address is an IPv4 address or an IPv6 /64 (one household's whole prefix). Each budget is a token bucket
that refills with time, so a quiet address is whole again after a while and a noisy one is held back without
a list of offences. It never reads a message: the server says what happened and asks what may happen next.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from .protocol import Limits


def address_key(peer) -> str | None:
    """The address a budget is kept for: an IPv4 address, or the /64 of an IPv6 one (None when unknown)."""
    if not peer:
        return None
    try:
        address = ipaddress.ip_address(str(peer[0]).split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass
class Bucket:
    """A token bucket: `size` at most, refilled at `rate` a second; spend() is False when it is empty."""

    size: float
    rate: float
    level: float | None = None  # full until first used; below zero: in debt (a cost known only afterwards)
    checked: float = 0.0

    def spend(self, now: float, cost: float = 1.0) -> bool:
        if self.level is None:
            self.level, self.checked = self.size, now
        self.level = min(self.size, self.level + (now - self.checked) * self.rate)
        self.checked = now
        if self.level < cost:
            return False
        self.level -= cost
        return True

    def full(self, now: float) -> bool:
        return self.level is None or self.level + (now - self.checked) * self.rate >= self.size


@dataclass
class Share:
    """What one address holds and may still do."""

    messages: Bucket
    refusals: Bucket
    lookups: Bucket
    hosts: Bucket
    connections: int = 0
    barred_until: float = 0.0  # after too many refusals: no new connection before then
    seen: float = 0.0


@dataclass
class Guard:
    """The server's per-address budgets and its one global count of connections."""

    limits: Limits
    shares: dict[str | None, Share] = field(default_factory=dict)
    connections: int = 0

    def _share(self, address: str | None, now: float) -> Share:
        share = self.shares.get(address)
        if share is None:
            limits = self.limits
            share = self.shares[address] = Share(
                messages=Bucket(limits.address_burst, limits.address_rate),
                refusals=Bucket(limits.max_refused, limits.max_refused / limits.refusal_window),
                lookups=Bucket(limits.max_lookups, limits.max_lookups / limits.lookup_window),
                hosts=Bucket(limits.host_burst, limits.host_rate),
            )
        share.seen = now
        return share

    def admit(self, address: str | None, now: float) -> str | None:
        """Count a new connection from this address; or say why it is refused (nothing is counted then)."""
        if self.connections >= self.limits.max_connections:
            return "the server has too many connections; try again later"
        share = self._share(address, now)
        if share.barred_until > now:
            return "too many refused messages from your address; try again in a minute"
        if address is not None and share.connections >= self.limits.max_connections_per_ip:
            return f"at most {self.limits.max_connections_per_ip} connections from one address"
        share.connections += 1
        self.connections += 1
        return None

    def release(self, address: str | None, now: float) -> None:
        share = self._share(address, now)
        share.connections = max(0, share.connections - 1)
        self.connections = max(0, self.connections - 1)

    def spend(self, address: str | None, now: float) -> bool:
        """One message from this address: False when the address sends faster than its share."""
        return address is None or self._share(address, now).messages.spend(now)

    def refuse(self, address: str | None, now: float) -> bool:
        """One refused message: True when the address is past its refusals (its connections are closed then,
        and new ones refused for the refusal window)."""
        share = self._share(address, now)
        if share.refusals.spend(now):
            return False
        share.barred_until = now + self.limits.refusal_window
        return True

    def look_up(self, address: str | None, now: float) -> bool:
        """A look-up of a table that does not exist: False once the address has tried too many."""
        return address is None or self._share(address, now).lookups.spend(now)

    def may_host(self, address: str | None, now: float) -> bool:
        """One request to open a table (which may compile an edition): False when the address asks too often."""
        return address is None or self._share(address, now).hosts.spend(now)

    def sweep(self, now: float) -> None:
        """Forget the addresses with nothing open and every budget whole again (memory stays bounded)."""
        for address in [
            a
            for a, s in self.shares.items()
            if s.connections == 0
            and s.barred_until <= now
            and all(b.full(now) for b in (s.messages, s.refusals, s.lookups, s.hosts))
        ]:
            del self.shares[address]
