"""The evening server's machine facts: the club's folder, its secret key, the laptop's network
addresses and time zone. Plain Python (no Django import): config/settings.py reads these before
Django is set up, and `manage.py serve` prints them.

The evening server (`make serve`, `manage.py serve`) runs with TRICKTABLE_SERVER=evening in its
environment; settings.py then defaults to production mode over the club's own database.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path

# What the evening server's processes use at run time lives with its commands (the apps never
# import config); the settings read the same names from there.
from tournaments.management.machine import (
    ENOUGH_OPEN_FILES,
    EVENING,
    PRIVATE_FILE,
    SERVER_ENV,
    SQLITE_COMPANIONS,
    UNLIMITED_OPEN_FILES,
    private_database,
    raise_open_files,
)

__all__ = [
    "ENOUGH_OPEN_FILES",
    "EVENING",
    "PRIVATE_FILE",
    "SERVER_ENV",
    "SQLITE_COMPANIONS",
    "UNLIMITED_OPEN_FILES",
    "private_database",
    "raise_open_files",
]

SECRET_KEY_FILE = "secret_key"
# Interfaces that are never the club's Wi-Fi: containers, virtual machines, VPN tunnels.
VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vmnet",
    "vboxnet",
    "tun",
    "tap",
    "utun",
    "wg",
    "zt",
    "tailscale",
    "lo",
)


def is_evening_server() -> bool:
    return os.environ.get(SERVER_ENV, "") == EVENING


#: Owner only: the club's folder holds the database (PINs, password hashes, sessions), the
#: secret key and the backups.
PRIVATE_FOLDER = 0o700


def private_folder(folder: Path) -> None:
    """Make `folder` (and its parents) if need be, and leave it readable by its owner only,
    whatever the umask made it or an earlier version left it."""
    folder.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    folder.chmod(PRIVATE_FOLDER)


def secret_key(folder: Path) -> str:
    """The key in `folder/secret_key`, made on first use (readable by its owner only)."""
    path = folder / SECRET_KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if len(key) >= 50:
        return key
    private_folder(folder)
    key = secrets.token_urlsafe(64)
    # O_EXCL: two processes starting at once keep one key (the loser reads the winner's).
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(key + "\n")
    return key


def _rank(interface: str, address: ipaddress.IPv4Address) -> tuple[int, str]:
    """Home and club routers hand out 192.168.x.y first, then 10.x and 172.16–31.x."""
    if address in ipaddress.ip_network("192.168.0.0/16"):
        order = 0
    elif address in ipaddress.ip_network("10.0.0.0/8"):
        order = 1
    elif address.is_private:
        order = 2
    else:
        order = 3
    return order, interface


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses that phones on its network can reach, best first: no
    loopback, no link-local, no container or VPN interface. Read from the interfaces (psutil);
    nothing is sent on the network."""
    import psutil  # only the evening server and its tests need it

    found: list[tuple[tuple[int, str], str]] = []
    stats = psutil.net_if_stats()
    for interface, addresses in psutil.net_if_addrs().items():
        if interface.lower().startswith(VIRTUAL_PREFIXES):
            continue
        if interface in stats and not stats[interface].isup:
            continue
        for entry in addresses:
            if entry.family.name != "AF_INET":
                continue
            try:
                address = ipaddress.IPv4Address(entry.address)
            except ValueError:
                continue
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            found.append((_rank(interface, address), str(address)))
    return [address for _, address in sorted(set(found))]


def machine_time_zone() -> str:
    """The machine's IANA time zone (e.g. Asia/Tokyo), or UTC when it cannot be told."""
    try:
        import tzlocal

        name = tzlocal.get_localzone_name()
    except Exception:  # noqa: BLE001 - an odd /etc/localtime must not stop the server
        name = None
    return name or "UTC"
