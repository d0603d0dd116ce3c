#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def _plain_check_hands(argv: list[str]) -> tuple[list[str], int | None] | None:
    """`check_hands [--jobs N] FILE...`: it needs nothing of Django (no settings, no database),
    so it runs before Django starts, the same function the command calls
    (games/check_files.py): (files, jobs or None for the default). Anything else (other
    options, help, a --jobs that is not a positive number) goes through Django: None."""
    if argv[1:2] != ["check_hands"]:
        return None
    files: list[str] = []
    jobs = None
    args = iter(argv[2:])
    for arg in args:
        if arg == "--jobs" or arg.startswith("--jobs="):
            value = arg[7:] if arg.startswith("--jobs=") else next(args, "")
            if jobs is not None or not value.isascii() or not value.isdigit() or not int(value):
                return None
            jobs = int(value)
        elif arg == "-" or not arg.startswith("-"):
            files.append(arg)
        else:
            return None
    return (files, jobs) if files else None


def main() -> None:
    plain = _plain_check_hands(sys.argv)
    if plain is not None:
        from games.check_files import main as check_hands

        raise SystemExit(check_hands(*plain))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
