"""Check the records of files and print their results: the body of ``manage.py check_hands``.

Plain Python (no Django import), so that ``manage.py check_hands FILE...`` with no option can
run it before Django starts (see manage.py: Django's set-up is most of a small run's time);
the management command (games/management/commands/check_hands.py) calls the same function, so
both print the same lines and exit with the same status.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO, Any

from games.records import check_record
from games.stream import StreamError, iter_records

BATCH = 1000  # result lines written at once


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


def main(files: list[str]) -> int:
    """``manage.py check_hands FILE...`` without options, as the command runs it."""
    try:
        return check_files(files, stdout=sys.stdout, stderr=sys.stderr)
    except BrokenPipeError:  # the reader went away (`check_hands big.jsonl | head`)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python exits
        return 2
