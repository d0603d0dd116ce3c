"""A file fed by a generator, for tests that prove reading streams rather than slurps."""

from __future__ import annotations

import io
from collections.abc import Iterator


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
