"""The hand checker page's work: read records from pasted text or a file, check each one.

A thin layer over the rules engine (`games`), shared by the page and its tests: the page never
computes a score itself.
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass, field
from typing import Any

from games.records import check_record
from games.registry import GAMES
from games.stream import StreamError, iter_records
from tournaments.presentation import presentation

MAX_BYTES = 2 * 1024 * 1024  # larger files: `manage.py check_hands`
MAX_RECORDS = 500


@dataclass
class Checked:
    """One record's result, with where it stood in the input."""

    number: int
    line: int
    result: dict[str, Any]

    @property
    def is_match(self) -> bool:
        return self.result.get("format") == "match/1"


@dataclass
class Report:
    checked: list[Checked] = field(default_factory=list)
    # Input that is not JSON at all: where (line, column) and the reader's English `message`.
    problems: list[StreamError] = field(default_factory=list)
    truncated: bool = False

    @property
    def valid(self) -> int:
        return sum(1 for c in self.checked if c.result["ok"])


def check_text(data: bytes) -> Report:
    """Check every record in `data` (one record, an array, or JSON Lines)."""
    report = Report()

    def problem(error: StreamError) -> None:
        report.problems.append(error)

    for line, value in iter_records(io.BytesIO(data), on_error=problem):
        if len(report.checked) == MAX_RECORDS:
            report.truncated = True
            break
        report.checked.append(Checked(len(report.checked) + 1, line, check_record(value)))
    return report


def demo_records(game: str, seed: int = 2026) -> str:
    """A simulated record of legal play to try the checker with, as pretty JSON."""
    record = presentation(game).demo_record(random.Random(seed))
    return json.dumps(record, ensure_ascii=False, indent=1)


DEMO_GAMES = GAMES
