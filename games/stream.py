"""Read hand records from a file, one at a time, whatever the file's layout.

A file may hold one JSON value (a hand or a match), a JSON array of those, JSON Lines, or JSON
values one after another separated by whitespace (pretty-printed or not). `iter_records` yields
``(line, value)`` for each record, ``line`` being the 1-based line on which the record starts,
without ever holding more than one record (plus a read chunk) in memory: the elements of a
top-level array are streamed one by one, so a file of a million records reads in flat memory.

Layouts, as the reader decides them from the start of the file:

- **Lines** (JSON Lines): the first non-blank line is a complete JSON value. Each line is then
  parsed on its own (``json.loads``, the fastest path); blank lines are skipped; a line holding
  several values separated by whitespace is read value by value; a line holding an array yields
  its elements (a top-level array is a list of records). A line that does not parse is one
  error, and reading goes on at the next line, so every later record is still checked.
- **Stream**: anything else: a top-level array (its elements streamed), or values that span
  lines (pretty-printed, concatenated). Read in chunks with ``JSONDecoder.raw_decode`` at the
  current offset. A value cut by the end of a chunk is retried with more input; at the end of
  the file a failure is a real parse error. After an error the reader cannot know where the
  next record starts, so it stops there.

Arrays nest one level only: an element of a top-level array that is itself an array is yielded
as it is (and is not a record: checking it reports `bad-format`).

Errors are `StreamError` (line, column, character offset). Without `on_error` the first one is
raised; with it, each is passed to `on_error` and reading continues where it can (see above).

Plain Python: no Django import (the `check_hands` command and the future API both use it).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from typing import IO, Any

__all__ = ["CHUNK_SIZE", "LineBatch", "StreamError", "iter_batches", "iter_records", "parse_lines"]

CHUNK_SIZE = 1 << 20  # characters (text input) or bytes (binary input) per read
_NOTHING = object()  # no value read yet
#: JSON Lines: the C scanner json.loads ends in, called directly on each line (no whitespace
#: regex on either side, no Python frames: issue 18); a line it does not read whole, from its
#: first character to its last, goes to json.loads, which reads or refuses it as before.
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # set in its __init__
_WS = re.compile(r"[ \t\n\r]*")
_NOT_WS = re.compile(r"[^ \t\n\r]")


def _after_ws(text: str, pos: int) -> int:
    """The first position at or after `pos` that is not JSON whitespace (or the end)."""
    match = _WS.match(text, pos)
    return pos if match is None else match.end()  # the pattern matches everywhere


# A decoding failure this close to the end of the buffer may only mean the value is cut short.
_TAIL = 64
# The first lines decide the layout; a first line longer than this is not read as JSON Lines.
_PEEK = 1 << 22


class StreamError(ValueError):
    """A file (or part of it) that is not JSON: where (1-based line and column, 0-based
    character offset) and why."""

    def __init__(self, message: str, *, line: int, column: int, offset: int) -> None:
        super().__init__(f"line {line} column {column}: {message}")
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset


class LineBatch:
    """Lines of a JSON Lines file, not parsed yet: `parse_lines` reads them. `before` is the
    number of lines before the first (so its line number is ``before + 1``). (Not a
    NamedTuple: making one compiles code, a cost at every start of `check_hands`.)"""

    __slots__ = ("before", "lines")

    def __init__(self, before: int, lines: list[str]) -> None:
        self.before = before
        self.lines = lines


class _Source:
    """Text from a binary or text file object, read in chunks (binary is UTF-8, BOM allowed)."""

    def __init__(self, file: IO[Any], chunk_size: int) -> None:
        self.file = file
        self.chunk_size = chunk_size
        self.decoder: Any = None  # set on the first bytes read
        self.eof = False

    def read(self, size: int | None = None) -> str:
        if self.eof:
            return ""
        data = self.file.read(size or self.chunk_size)
        if isinstance(data, str):
            if not data:
                self.eof = True
            elif self.decoder is None:
                self.decoder = False  # text: only a leading BOM to drop
                data = data.removeprefix("\ufeff")
            return data
        if not self.decoder:
            self.decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
        if not data:
            self.eof = True
        text: str = self.decoder.decode(data, final=not data)
        return text


def iter_records(
    file: IO[Any],
    *,
    on_error: Callable[[StreamError], None] | None = None,
    chunk_size: int | None = None,
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, value)`` for each record of `file` (binary UTF-8 or text), in order.

    Raises `StreamError` at the first error unless `on_error` is given (then each error goes
    to it and reading continues at the next line of a JSON Lines file, or stops otherwise).
    A `UnicodeDecodeError` in binary input is reported as a `StreamError` and ends the file.
    """
    state = _Scan(_Source(file, chunk_size or CHUNK_SIZE), on_error)
    try:
        yield from state.run()
    except UnicodeDecodeError as error:
        state.report(
            f"the file is not UTF-8 text ({error.reason}), at or after this line",
            state.lines_done + 1,
            1,
            -1,
        )


def iter_batches(
    file: IO[Any], size: int, *, chunk_size: int | None = None
) -> Iterator[LineBatch | list[tuple[int, Any]] | StreamError]:
    """`iter_records` in batches, for checking them elsewhere (``check_hands --jobs``): what
    the file holds, in order, as

    - `LineBatch`: up to `size` lines of a JSON Lines file, not parsed (`parse_lines` gives
      their records and errors exactly as `iter_records` would);
    - a list of up to `size` ``(line, value)`` pairs: records of any other layout, parsed;
    - `StreamError`: an error found here (a stream layout's parse error, a file that is not
      UTF-8), after every record before it and before every record after it.
    """
    errors: list[StreamError] = []
    state = _Scan(_Source(file, chunk_size or CHUNK_SIZE), errors.append)
    records: list[tuple[int, Any]] = []
    try:
        for item in state.run(size):
            if errors:  # reported before this item
                if records:
                    yield records
                    records = []
                yield from errors
                errors.clear()
            if type(item) is LineBatch:
                yield item
                continue
            records.append(item)
            if len(records) >= size:
                yield records
                records = []
    except UnicodeDecodeError as error:
        state.report(
            f"the file is not UTF-8 text ({error.reason}), at or after this line",
            state.lines_done + 1,
            1,
            -1,
        )
    if records:
        yield records
    yield from errors


def parse_lines(
    batch: LineBatch, on_error: Callable[[StreamError], None]
) -> Iterator[tuple[int, Any]]:
    """The ``(line, value)`` records of a `LineBatch`, each error passed to `on_error`: what
    `iter_records` yields and reports for those lines."""
    return _Scan(None, on_error)._parse_lines(batch.lines, batch.before)


class _Scan:
    def __init__(self, source: Any, on_error: Callable[[StreamError], None] | None) -> None:
        self.source = source
        self.on_error = on_error
        self.decoder = json.JSONDecoder()
        self.lines_done = 0  # for errors outside the scanners' own bookkeeping

    def report(self, message: str, line: int, column: int, offset: int) -> None:
        error = StreamError(message, line=line, column=column, offset=offset)
        if self.on_error is None:
            raise error
        self.on_error(error)

    def run(self, batch: int = 0) -> Iterator[Any]:
        """The records, ``(line, value)``; with `batch`, a JSON Lines file's lines come in
        `LineBatch`es of that size instead, unparsed."""
        source = self.source
        # Peek: the first two non-blank lines (or the whole file if shorter).
        text = ""
        while not source.eof:
            text += source.read()
            first = _NOT_WS.search(text)
            if first is None:
                continue
            if text[first.start()] == "[" or len(text) > max(4 * source.chunk_size, _PEEK):
                break  # an array, or a first line too long for JSON Lines: the stream scanner
            end = text.find("\n", first.start())
            if end < 0:
                continue
            second = _NOT_WS.search(text, end)
            if second is not None and text.find("\n", second.start()) >= 0:
                break
        first = _NOT_WS.search(text)
        if first is None:
            return  # an empty (or all-blank) file holds no records
        if text[first.start()] != "[" and self._first_line_is_value(text, first.start()):
            yield from self._line_batches(text, batch) if batch else self._lines(text)
        else:
            yield from self._stream(text)

    def _first_line_is_value(self, text: str, start: int) -> bool:
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        try:
            json.loads(line)
        except ValueError:
            if end < 0:
                return False
            # A first line that is not a value: JSON Lines with a bad first line, or a value
            # spanning lines? JSON Lines if the next non-blank line is a value on its own.
            nxt = _NOT_WS.search(text, end)
            if nxt is None or text[nxt.start()] == "[":
                return False
            stop = text.find("\n", nxt.start())
            try:
                self.decoder.decode(text[nxt.start() : None if stop < 0 else stop])
            except ValueError:
                return False
            try:  # ... unless the first line starts a value that the next lines complete
                _, stop_at = self.decoder.raw_decode(text, start)
            except ValueError:
                return True
            return stop_at <= end
        return True

    # -- JSON Lines: one value per line, each parsed on its own --------------------------------

    def _chunks(self, text: str) -> Iterator[tuple[int, list[str]]]:
        """The file's lines, a chunk at a time: ``(lines before, lines)``, cut at the newlines,
        with a line the next chunk completes carried over. `lines_done` counts the lines of
        the chunks already handed out and dealt with."""
        source = self.source
        carry = ""
        number = 0
        while True:
            final = source.eof
            lines = (carry + text if carry else text).split("\n")
            text = ""
            carry = "" if final else lines.pop()  # a line the next chunk completes
            yield number, lines
            number += len(lines)
            self.lines_done = number
            if final:
                return
            text = source.read()

    def _lines(self, text: str) -> Iterator[tuple[int, Any]]:
        for number, lines in self._chunks(text):
            yield from self._parse_lines(lines, number)

    def _line_batches(self, text: str, size: int) -> Iterator[LineBatch]:
        """`_lines` without the parsing: the same lines, cut at the same places, in batches of
        at most `size` (a chunk's last batch may be smaller), for `parse_lines` elsewhere."""
        for number, lines in self._chunks(text):
            for start in range(0, len(lines), size):
                yield LineBatch(number + start, lines[start : start + size])

    def _parse_lines(self, lines: list[str], number: int) -> Iterator[tuple[int, Any]]:
        """The records of `lines`, JSON Lines, the first being line `number` + 1."""
        loads = json.loads
        scan = _SCAN
        for line in lines:
            number += 1
            try:
                value, end = scan(line, 0)
                if end != len(line):
                    raise ValueError
            except (StopIteration, ValueError):
                value = _NOTHING
            if value is _NOTHING:
                try:
                    value = loads(line)
                except ValueError as error:
                    if not line.strip():
                        continue
                    yield from self._line_values(line, number, error)
                    continue
            if type(value) is list:
                for item in value:
                    yield number, item
            else:
                yield number, value

    def _line_values(self, line: str, number: int, error: ValueError) -> Iterator[tuple[int, Any]]:
        """A line that is not one value: several values, or an error (reported; go on)."""
        if isinstance(error, json.JSONDecodeError) and error.msg == "Extra data":
            pos = _after_ws(line, 0)
            raw = self.decoder.raw_decode
            values = []
            while pos < len(line):
                try:
                    value, pos = raw(line, pos)
                except json.JSONDecodeError as inner:
                    error = inner
                    break
                values.append(value)
                pos = _after_ws(line, pos)
            else:
                for value in values:
                    if type(value) is list:
                        for item in value:
                            yield number, item
                    else:
                        yield number, value
                return
        if isinstance(error, json.JSONDecodeError):
            self.report(error.msg, number, error.colno, -1)
        else:
            self.report(str(error), number, 1, -1)

    # -- Anything else: a chunked scanner over the text ----------------------------------------

    def _stream(self, text: str) -> Iterator[tuple[int, Any]]:
        source = self.source
        raw = self.decoder.raw_decode
        buf = text
        pos = 0  # where scanning resumes in buf
        base = 0  # the file offset of buf[0]
        line, lpos = 1, 0  # the line number at buf[lpos]
        in_array = False
        expect = "value"  # in an array: "first" (value or ]), "value", "sep" (, or ])

        last_nl = -1  # the file offset of the last newline before buf[lpos]

        def where(i: int) -> tuple[int, int]:
            """(line, column) of buf[i], counting lines incrementally (i never goes back)."""
            nonlocal line, lpos, last_nl
            newlines = buf.count("\n", lpos, i)
            if newlines:
                line += newlines
                last_nl = base + buf.rfind("\n", lpos, i)
            lpos = i
            return line, base + i - last_nl

        def fill(size: int | None = None) -> bool:
            """Drop what is read, append more text; False at the end of the file."""
            nonlocal buf, pos, base, lpos
            if source.eof:
                return False
            where(pos)
            self.lines_done = line - 1
            buf, base, lpos = buf[pos:], base + pos, lpos - pos
            pos = 0
            buf += source.read(size)
            return True

        while True:
            pos = _after_ws(buf, pos)
            if pos == len(buf):
                if fill():
                    continue
                if in_array:
                    self._fail("unexpected end of the file inside the array", buf, pos, where, base)
                return
            c = buf[pos]
            if in_array:
                if expect in ("first", "sep") and c == "]":
                    in_array, expect = False, "value"
                    pos += 1
                    continue
                if expect == "sep":
                    if c != ",":
                        self._fail(
                            "expecting ',' or ']' between the array's records",
                            buf,
                            pos,
                            where,
                            base,
                        )
                        return
                    expect = "value"
                    pos += 1
                    continue
            elif c == "[":
                in_array, expect = True, "first"
                pos += 1
                continue
            # A value starts at pos.
            size = source.chunk_size
            while True:
                try:
                    value, end = raw(buf, pos)
                except json.JSONDecodeError as error:
                    near_end = error.pos + _TAIL >= len(buf) or error.msg.startswith(
                        "Unterminated string"
                    )
                    if near_end and not source.eof:
                        fill(size)
                        size *= 2  # a long record: read more each time, not quadratically
                        continue
                    self._fail(error.msg, buf, error.pos, where, base)
                    return
                # A number that ends the buffer may go on in the next chunk.
                if end == len(buf) and not source.eof and type(value) in (int, float):
                    fill(size)
                    continue
                break
            start_line, _ = where(pos)
            yield start_line, value
            pos = end
            if in_array:
                expect = "sep"

    def _fail(self, message: str, buf: str, i: int, where: Any, base: int) -> None:
        line, column = where(i)
        self.report(message, line, column, base + i)
