"""Is a loopback port free for a server of ours? Asked before anything starts, to fail clearly."""

from __future__ import annotations

import socket
from collections.abc import Mapping

from devstack.servers import port_open


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """True if something listens on the port or the kernel would refuse to bind it to us."""
    if port_open(port, host):
        return True
    with socket.socket() as sock:
        # SO_REUSEADDR, as the servers use it: a closed socket lingering in TIME_WAIT is no conflict
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def busy_ports(wanted: Mapping[str, int]) -> list[tuple[str, int]]:
    """The (name, port) pairs that cannot be used: taken already, or wanted twice."""
    busy = [(name, port) for name, port in wanted.items() if port_in_use(port)]
    seen: dict[int, str] = {}
    for name, port in wanted.items():
        if port in seen and (name, port) not in busy:
            busy.append((name, port))
        seen.setdefault(port, name)
    return busy
