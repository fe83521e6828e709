"""Which network addresses a source check may connect to.

An IPv6 address can carry an IPv4 one, and the stdlib's ``is_global`` judges only the IPv6
form: ``::127.0.0.1`` or ``64:ff9b::a00:1`` count as global although the packets end at
127.0.0.1 or 10.0.0.1. Such an address is judged by every IPv4 address it carries.
"""

import ipaddress
from ipaddress import IPv4Address, IPv6Address, IPv6Network

# The IPv4 address sits in the last 32 bits.
IPV4_COMPATIBLE = IPv6Network("::/96")
NAT64 = (IPv6Network("64:ff9b::/96"), IPv6Network("64:ff9b:1::/48"))
TEREDO = IPv6Network("2001::/32")
SIXTOFOUR = IPv6Network("2002::/16")


def carried_ipv4(address: IPv6Address) -> list[IPv4Address]:
    """The IPv4 addresses ``address`` carries: IPv4-mapped (``::ffff:a.b.c.d``), IPv4-compatible
    (``::a.b.c.d``), NAT64, 6to4 (bits 16 to 48) and Teredo (the server, bits 32 to 64, and the
    client, the last 32 bits inverted); none for any other address."""
    last_32_bits = IPv4Address(int(address) & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address in IPV4_COMPATIBLE or any(address in network for network in NAT64):
        return [last_32_bits]
    if address in SIXTOFOUR:
        return [IPv4Address((int(address) >> 80) & 0xFFFFFFFF)]
    if address in TEREDO:
        server = IPv4Address((int(address) >> 64) & 0xFFFFFFFF)
        client = IPv4Address(int(last_32_bits) ^ 0xFFFFFFFF)
        return [server, client]
    return []


def is_public(address: str) -> bool:
    """Whether ``address`` (an IP literal, perhaps with an IPv6 zone: ``fe80::1%eth0``) is on
    the public internet: not loopback, private, link-local (a cloud's metadata address),
    reserved, nor an IPv6 form of one of those."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, IPv6Address):
        carried = carried_ipv4(ip)
        if carried:
            return all(ipv4.is_global for ipv4 in carried)
    return ip.is_global
