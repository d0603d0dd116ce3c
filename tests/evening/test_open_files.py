"""The evening server raises its own open-file limit at start (issue 30, item 3): every phone's
connection and live page is an open file, and at a common default of 1,024 one client opening
~1,000 event streams reset every other request. `manage.py serve` raises its soft limit to the
hard one (`resource.setrlimit`, config/evening.py), and says so at start when even the hard
limit is low. Started here from a shell that lowered the limits first, as a laptop's may be."""

from __future__ import annotations

import re
import resource
from pathlib import Path

from tests.evening.conftest import free_port, migrated_club, start


def open_files(pid: int) -> tuple[int, int]:
    """(soft, hard) limits on open files of the process `pid`, from /proc."""
    limits = Path(f"/proc/{pid}/limits").read_text()
    found = re.search(r"^Max open files\s+(\d+)\s+(\d+)", limits, re.M)
    assert found, limits
    return int(found.group(1)), int(found.group(2))


def serve_with_limits(tmp_path: Path, soft: int, hard: int):
    shell = ["bash", "-c", f'ulimit -Sn {soft} && ulimit -Hn {hard} && exec "$@"', "serve"]
    port = free_port()
    return start(
        shell, migrated_club(tmp_path / "club"), port, as_make_serve=True, quick_passwords=True
    )


def test_the_soft_limit_is_raised_to_the_hard_one(tmp_path):
    hard = min(8192, resource.getrlimit(resource.RLIMIT_NOFILE)[1])  # lowering needs no root
    server = serve_with_limits(tmp_path, 256, hard)
    try:
        assert open_files(server.process.pid) == (hard, hard)
        assert "Open files:" not in server.text
    finally:
        server.stop()


def test_a_low_hard_limit_is_said_at_start(tmp_path):
    server = serve_with_limits(tmp_path, 256, 1024)
    try:
        assert open_files(server.process.pid) == (1024, 1024)
        assert "Open files: at most 1024" in server.text
    finally:
        server.stop()
