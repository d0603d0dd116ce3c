#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def _plain_check_hands(argv: list[str]) -> bool:
    """`check_hands FILE...` with no option: it needs nothing of Django (no settings, no
    database), so it runs before Django starts, the same function the command calls
    (games/check_files.py). Anything else, options and help included, goes through Django."""
    files = argv[2:]
    return argv[1:2] == ["check_hands"] and bool(files) and all(
        f == "-" or not f.startswith("-") for f in files
    )


def main() -> None:
    if _plain_check_hands(sys.argv):
        from games.check_files import main as check_hands

        raise SystemExit(check_hands(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
