"""Test data built once per test process and loaded again for every test that asks for it.

Building the demo's Spades Swiss plays its hands through the services and the rules engine;
a browser story's database is emptied after each test (the live server needs real
transactions), so eight stories on the same evening built it eight times. The `built_once`
fixture (tests/conftest.py) builds it for the first test, saves the rows with Django's
`dumpdata`, and gives every later test the same rows with `loaddata`: the same data, as the
stories read it, without playing the hands again.

    def test_x(built_once):
        built_once("room-evening", lambda: demo.build_spades(7, teams=16, played=1))
        tournament = Tournament.objects.get(name="Friday Night Spades")

Under pytest-xdist the rows are saved where every worker of the run finds them (the pattern
pytest-xdist documents for a session fixture that runs once: the folder above each worker's
temporary folder, and a file lock), so each is built once per run, not once per worker: the
worker that comes second waits for the first's build, then loads it. A test that keeps more
than rows (files the build wrote) keeps them in `folder(name)`, saved beside the rows; one
that needs to find its rows again (their ids, a secret the database keeps only hashed) has
`kept(name, build)` save what `build()` returns.
"""

from __future__ import annotations

import fcntl
import json
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.management import call_command

#: Rows Django makes again by itself after a test's database is emptied (post_migrate), and
#: sessions, which belong to a browser, not to the data.
NOT_SAVED = ["contenttypes", "auth.permission", "sessions", "admin.logentry"]


@contextmanager
def alone(lock: Path) -> Iterator[None]:
    """This process alone holding the file lock `lock` (made if missing): every other process
    of the run that asks for it waits meanwhile."""
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


class BuiltOnce:
    def __init__(self, folder: Path) -> None:
        self._folder = folder

    def folder(self, name: str) -> Path:
        """Where the build `name` keeps what it saves besides its rows (made when asked)."""
        path = self._folder / name
        path.mkdir(exist_ok=True)
        return path

    def __call__(self, name: str, build: Callable[[], object]) -> bool:
        """The database holds what `build()` makes (built now if no process of this run has
        built it yet, else loaded from what that one saved). True when it was built now."""
        path = self._folder / f"{name}.json"
        with alone(self._folder / f"{name}.lock"):
            if path.exists():
                call_command("loaddata", str(path), verbosity=0)
                return False
            extra = self._folder / name
            if extra.exists():  # what a build that failed half way left
                shutil.rmtree(extra)
            extra.mkdir()
            build()
            partial = path.with_suffix(".partial.json")
            call_command(
                "dumpdata",
                exclude=NOT_SAVED,
                # Clubs and accounts by their natural keys (address, user name): a worker's
                # database may already hold the home club, or its accounts, under other ids.
                use_natural_foreign_keys=True,
                use_natural_primary_keys=True,
                output=str(partial),
                verbosity=0,
            )
            partial.replace(path)  # whole, or not there
            return True

    def kept(self, name: str, build: Callable[[], Any]) -> Any:
        """As `self(name, build)`, for a `build()` that returns what the tests need to find its
        rows again (ids, addresses, secrets), as JSON: saved beside the rows, and returned to
        every test, whether it built them or loaded them."""
        value = self.folder(name) / "kept.json"
        self(name, lambda: value.write_text(json.dumps(build())))
        return json.loads(value.read_text())
