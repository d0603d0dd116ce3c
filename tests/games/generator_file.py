"""A file fed by a generator, and a stdout that only counts lines, for tests that prove
`check_hands` streams rather than slurps; `checked_peak` puts them together."""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Iterator

from games.check_files import check_files


class GeneratorFile(io.RawIOBase):
    """A read-only binary file fed by a generator of byte strings; counts what was read."""

    def __init__(self, pieces: Iterator[bytes]) -> None:
        self.pieces = pieces
        self.pending = b""
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self.pending) < size:
            piece = next(self.pieces, None)
            if piece is None:
                break
            self.pending += piece
        if size < 0:
            size = len(self.pending)
        out, self.pending = self.pending[:size], self.pending[size:]
        self.read_bytes += len(out)
        return out


class Sink(io.RawIOBase):
    """A binary stdout that keeps only a count of lines."""

    lines = 0

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.lines += bytes(data).count(b"\n")
        return len(data)


def checked_peak(records: list[bytes], copies: int, *, jobs: int = 1) -> tuple[int, int]:
    """`copies` lines cycled from `records` through `check_files` from standard input, with
    `jobs` workers: (result lines written, tracemalloc's peak in this process)."""
    sink = Sink()
    stdout = io.TextIOWrapper(io.BufferedWriter(sink), encoding="utf-8")
    tracemalloc.start()
    try:
        pieces = (records[i % len(records)] for i in range(copies))
        status = check_files(
            ["-"], stdout=stdout, stderr=io.StringIO(), stdin=GeneratorFile(pieces), jobs=jobs
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert status == 0
    return sink.lines, peak
