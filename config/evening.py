"""The evening server's machine facts: the club's folder, its secret key, the laptop's network
addresses and time zone. Plain Python (no Django import): config/settings.py reads these before
Django is set up, and `manage.py serve` prints them.

The evening server (`make serve`, `manage.py serve`) runs with TRICKTABLE_SERVER=evening in its
environment; settings.py then defaults to production mode over the club's own database.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
from pathlib import Path

SERVER_ENV = "TRICKTABLE_SERVER"
EVENING = "evening"
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
PRIVATE_FILE = 0o600
#: The files SQLite keeps beside a database in WAL mode (and a rollback journal's).
SQLITE_COMPANIONS = ("", "-wal", "-shm", "-journal")


#: Below this many open files the evening server warns at start: every phone's connection and
#: event stream is an open file, and Linux's common default of 1,024 is used up by a few
#: hundred phones with a page or two open each.
ENOUGH_OPEN_FILES = 4096
#: What the soft limit is raised to when the hard limit is unlimited.
UNLIMITED_OPEN_FILES = 1 << 20


def raise_open_files() -> int | None:
    """Raise this process's soft limit on open files to its hard limit (the most an
    unprivileged process may: `resource.setrlimit`), so neither the room's phones nor one
    client flooding streams run the server out of them at 1,024; the server processes it starts
    inherit it. Returns the soft limit now (None where the platform has no such limit)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = UNLIMITED_OPEN_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        # A system cap below the hard limit (macOS's maxfilesperproc): the limit stays as it was.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def private_folder(folder: Path) -> None:
    """Make `folder` (and its parents) if need be, and leave it readable by its owner only,
    whatever the umask made it or an earlier version left it."""
    folder.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    folder.chmod(PRIVATE_FOLDER)


def private_database(path: str | os.PathLike[str]) -> None:
    """The SQLite database at `path` and its WAL, shared-memory and journal files, those that
    exist, readable and writable by their owner only. SQLite gives the WAL and shared-memory
    files it creates later the database file's own mode, so once this ran they are born 0600
    too (and the evening server's umask, 077, says the same for anything else it creates)."""
    for suffix in SQLITE_COMPANIONS:
        try:
            os.chmod(f"{os.fspath(path)}{suffix}", PRIVATE_FILE)
        except FileNotFoundError:
            continue


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
