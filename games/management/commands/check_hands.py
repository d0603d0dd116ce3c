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

The command needs no database and no server: no system checks, no migration checks, and the
engine it calls (`games.records`) is plain Python.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError

from games.errors import RecordError
from games.records import check_record
from games.registry import GAME_MODULES, get_game
from games.stream import StreamError, iter_records

BATCH = 1000  # result lines written at once


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
            help='rules for records that do not state them: a preset id, or a JSON object '
            '{"preset": "standard", "options": {...}}; records that state rules must agree',
        )
        parser.add_argument(
            "--game",
            choices=tuple(GAME_MODULES),
            help="the game of records that do not state it; records that state it must agree",
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
            )
        except BrokenPipeError:  # the reader went away (`check_hands big.jsonl | head`)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # no second error when Python exits
            status = 2
        if status:
            raise SystemExit(status)


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


class _Writer:
    """Result lines in batches: bytes to a binary buffer when the stream has one."""

    def __init__(self, stream: IO[Any]) -> None:
        self.stream = stream
        self.binary = getattr(stream, "buffer", None)
        self.lines: list[str] = []

    def flush(self) -> None:
        if self.lines:
            text = "\n".join(self.lines) + "\n"
            self.lines.clear()
            if self.binary is not None:
                self.binary.write(text.encode("utf-8", "backslashreplace"))
            else:
                self.stream.write(text)
        if self.binary is not None:
            self.binary.flush()
        else:
            self.stream.flush()


def check_files(
    files: list[str],
    *,
    rules: Any = None,
    game: str | None = None,
    stdout: IO[Any],
    stderr: IO[Any],
    stdin: IO[Any] | None = None,
) -> int:
    """Check every record of `files` in order, writing result lines to `stdout` and problems
    with the files to `stderr`; the exit status (0 all valid, 1 any invalid, 2 unreadable)."""
    out = _Writer(stdout)
    if out.binary is not None:
        stdout.flush()
    lines = out.lines
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    check = check_record
    invalid = broken = False

    def problem(name: str, message: str) -> None:
        nonlocal broken
        broken = True
        out.flush()
        stderr.write(f"check_hands: {name}: {message}\n")
        stderr.flush()

    for path in files:
        name = "<stdin>" if path == "-" else path
        try:
            if path == "-":
                file = stdin if stdin is not None else sys.stdin.buffer
                close = False
            else:
                file = open(path, "rb")  # noqa: SIM115 (closed below, after streaming)
                close = True
        except OSError as error:
            problem(name, f"cannot open: {error.strerror or error}")
            continue
        line = 0

        def report(error: StreamError, name: str = name) -> None:
            problem(name, str(error))

        try:
            for line, record in iter_records(file, on_error=report):
                try:
                    result = check(record, rules=rules, game=game)
                except Exception as error:  # an engine bug: say where, go on
                    problem(name, f"line {line}: internal error checking this record: {error!r}")
                    continue
                if not result["ok"]:
                    invalid = True
                lines.append(encode(result))
                if len(lines) >= BATCH:
                    out.flush()
        except OSError as error:
            if isinstance(error, BrokenPipeError):
                raise
            problem(name, f"cannot read (after line {line}): {error.strerror or error}")
        finally:
            if close:
                file.close()
    out.flush()
    return 2 if broken else 1 if invalid else 0
