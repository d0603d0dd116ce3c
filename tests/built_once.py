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
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.core.management import call_command

#: Rows Django makes again by itself after a test's database is emptied (post_migrate), and
#: sessions, which belong to a browser, not to the data.
NOT_SAVED = ["contenttypes", "auth.permission", "sessions", "admin.logentry"]


class BuiltOnce:
    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._saved: dict[str, Path] = {}

    def __call__(self, name: str, build: Callable[[], object]) -> None:
        """The database holds what `build()` makes (built now if this process has not yet,
        else loaded from what it saved)."""
        saved = self._saved.get(name)
        if saved is not None:
            call_command("loaddata", str(saved), verbosity=0)
            return
        build()
        path = self._folder / f"{name}.json"
        call_command(
            "dumpdata",
            exclude=NOT_SAVED,
            use_natural_foreign_keys=True,
            output=str(path),
            verbosity=0,
        )
        self._saved[name] = path
