"""``manage.py check_hands [--rules PRESET] [--game GAME] FILE...``: check hand records.

Reads each FILE in order (``-`` is standard input, read as UTF-8 bytes) holding a ``hand/1`` or
``match/1`` record, a JSON array of those, JSON Lines, or JSON values one after another
(`games.stream`). Prints one result object per record, one per line, in input order (compact
JSON, UTF-8): a match gives one line, its result holding the per-hand results under
``hands``. Exit status: 0 when every record is valid, 1 when any is not, 2 when a file cannot be
read or parsed (a message on standard error names the file and the line; the other files, and
the later lines of a JSON Lines file, are still checked).

``--rules`` and ``--game`` are the context: a record that leaves out ``rules`` or ``game`` takes
them, and one that states them must agree (``rules-mismatch``). ``--rules`` is a preset id or a
JSON object ``{"preset": "standard", "options": {...}}``.

``--jobs N`` checks in N worker processes (default: the number of usable cores); ``--jobs 1``
checks in this process alone. The output, the messages and the exit status do not depend on
it (`games.check_files`); an input under a couple of thousand records is checked in this
process whatever N is.

The command needs no database and no server: no system checks, no migration checks, and the
engine it calls (`games.records`) is plain Python.
"""

from __future__ import annotations

import json
import os
import sys
from argparse import ArgumentTypeError
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.check_files import check_files, default_jobs
from games.errors import RecordError
from games.registry import GAME_MODULES, get_game

__all__ = ["Command", "check_files", "parse_rules"]


class Command(BaseCommand):
    help = (
        "Check hand/1 and match/1 records (a record, an array of them, or JSON Lines) and "
        "print one result object per record, one per line. Exit 0 when all are valid, 1 when "
        "any is not, 2 when a file cannot be read or parsed. Needs no database."
    )
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "files", nargs="+", metavar="FILE", help="a file of records; - for standard input"
        )
        parser.add_argument(
            "--rules",
            metavar="PRESET",
            help="rules for records that do not state them: a preset id, or a JSON object "
            '{"preset": "standard", "options": {...}}; records that state rules must agree',
        )
        parser.add_argument(
            "--game",
            choices=tuple(GAME_MODULES),
            help="the game of records that do not state it; records that state it must agree",
        )
        parser.add_argument(
            "--jobs",
            type=_positive,
            metavar="N",
            help="check in N worker processes (default: the number of usable cores, "
            f"{default_jobs()} here); 1 checks in this process alone. The output is the same",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        game = options.get("game")
        rules = parse_rules(options.get("rules"), game)
        try:
            status = check_files(
                options["files"],
                rules=rules,
                game=game,
                stdout=options.get("stdout") or sys.stdout,
                stderr=options.get("stderr") or sys.stderr,
                stdin=options.get("stdin"),
                jobs=options.get("jobs") or default_jobs(),
            )
        except BrokenPipeError:  # the reader went away (`check_hands big.jsonl | head`)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # no second error when Python exits
            status = 2
        if status:
            raise SystemExit(status)


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise ArgumentTypeError(f"not a positive number: {value!r}")
    return number


def parse_rules(value: str | None, game: str | None) -> Any:
    """The --rules value as a record would state it (a preset id or an object)."""
    if value is None:
        return None
    rules: Any = value
    if value.lstrip().startswith("{"):
        try:
            rules = json.loads(value)
        except ValueError as error:
            raise CommandError(f"--rules is not valid JSON: {error}", returncode=2) from None
    if game is not None:
        try:
            get_game(game).book.resolve(rules)
        except RecordError as error:
            raise CommandError(f"--rules: {error.message}", returncode=2) from None
    return rules
