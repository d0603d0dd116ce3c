"""The evening server's processes and the machine they run on: the switch that makes a process
the evening server (TRICKTABLE_SERVER=evening), the club's files readable by their owner only,
and the open-files limit raised for a room of phones. Plain Python (no Django import): the
settings (config/evening.py) read these before Django is set up, and the apps' connection hook and
`manage.py serve` use them at run time.
"""

from __future__ import annotations

import contextlib
import os

SERVER_ENV = "TRICKTABLE_SERVER"
EVENING = "evening"
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
