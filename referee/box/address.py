"""Which address phones reach this box at: the one the QR codes carry.

The address of the interface the default route leaves by (the home or
club network), not the first one found, which can be a VPN's or a
link-local 169.254.x.x (an interface where no DHCP server answered).
``referee doctor`` prints the choice and why.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass

ROUTES = "/proc/net/route"
SYS_NET = "/sys/class/net"     # <interface>/flags: the kernel's IFF_ flags, in hex
IFF_UP, IFF_RUNNING = 0x1, 0x40


@dataclass(frozen=True)
class Choice:
    address: str
    interface: str
    why: str


def default_interfaces(routes: str) -> list[str]:
    """The interfaces of the IPv4 default routes in ``/proc/net/route``'s
    text (destination and mask 0), the preferred (lowest metric) first."""
    found = []
    for line in routes.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 8 and fields[1] == "00000000" and fields[7] == "00000000":
            found.append((int(fields[6]) if fields[6].isdigit() else 0, fields[0]))
    return [name for _, name in sorted(found)]


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def choose(routes: str, addresses: dict[str, list[str]], up: set[str]) -> Choice:
    """``addresses``: IPv4 addresses by interface; ``up``: interfaces that are up."""
    for via in default_interfaces(routes):
        for address in addresses.get(via, ()) if via in up else ():
            if _usable(address):
                return Choice(address, via, "the default route's interface")
    for name, found in sorted(addresses.items()):
        for address in found if name in up else ():
            if _usable(address):
                return Choice(address, name, "no default route: the first interface with a usable address")
    return Choice("127.0.0.1", "lo", "no network: only this machine can reach it")


def this_box() -> Choice:
    import psutil
    try:
        with open(ROUTES) as f:
            routes = f.read()
    except OSError:
        routes = ""
    addresses = {name: [a.address for a in found if a.family.name == "AF_INET"]
                 for name, found in psutil.net_if_addrs().items()}
    return choose(routes, addresses, interfaces_up(addresses))


def interfaces_up(names) -> set[str]:
    """Which of ``names`` are up and running.  psutil asks the driver for
    speed and duplex too, which some systems refuse (an ARM root under
    qemu-user: ENOSYS for SIOCETHTOOL); the same two flags are then read
    from sysfs, and where sysfs has no such interface the refusal stands."""
    import psutil
    try:
        return {name for name, s in psutil.net_if_stats().items() if s.isup}
    except OSError as refused:
        up = set()
        for name in names:
            try:
                with open(f"{SYS_NET}/{name}/flags", encoding="ascii") as f:
                    flags = int(f.read().strip(), 16)
            except (OSError, ValueError):
                raise refused from None
            if flags & IFF_UP and flags & IFF_RUNNING:
                up.add(name)
        return up
