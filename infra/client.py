"""The address a request came from: one answer for sign-in lockouts (django-axes), the rate
limits, corrections, the security events and the logs.

``X-Forwarded-For`` is anyone's word: a client can send one naming any address. It counts only
when the peer that connected to us (``REMOTE_ADDR``) is one of ``settings.TRUSTED_PROXIES``
(addresses or CIDRs; none by default). Then the header is read from the right, past every hop
that is itself a trusted proxy, and the first untrusted hop is the client: everything to its
left was written by the client and could name anyone.
"""

from __future__ import annotations

import functools
import ipaddress
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def client_ip(request: HttpRequest | None) -> str | None:
    """The client's address as text (IPv4-mapped IPv6 as IPv4), or None without a request."""
    if request is None:
        return None
    peer = _parse(request.META.get("REMOTE_ADDR", ""))
    if peer is None:
        return request.META.get("REMOTE_ADDR") or None
    trusted = trusted_networks(tuple(settings.TRUSTED_PROXIES))
    client = peer
    if _is_trusted(peer, trusted):
        for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
            address = _parse(hop)
            if address is None:
                # Not an address: a trusted proxy would never have written it, so it came from
                # the far side; the last hop we could vouch for stands.
                break
            client = address
            if not _is_trusted(address, trusted):
                break
    return str(client)


@functools.cache
def trusted_networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` parsed; a ValueError names an entry that is neither address nor CIDR."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())


def _is_trusted(address: Address, trusted: tuple[Network, ...]) -> bool:
    return any(address.version == network.version and address in network for network in trusted)


def _parse(text: str) -> Address | None:
    """An address from a header hop: ``1.2.3.4``, ``1.2.3.4:5678``, ``2001:db8::1`` or
    ``[2001:db8::1]:443`` (some load balancers add the port)."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if address.version == 6 and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address
