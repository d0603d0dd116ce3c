"""games.stream: every file layout, positions, errors and resync, streaming in flat memory."""

from __future__ import annotations

import io
import json
import tracemalloc
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stream import StreamError, iter_records
from tests import sizes
from tests.games.generator_file import GeneratorFile

HAND = {"format": "hand/1", "game": "spades", "dealer": "N", "tricks": {"N": 3, "E": 4}}


def records(data: str | bytes, *, chunk_size: int = 1 << 20, text: bool = False):
    """(records, error strings) with errors collected, for binary (default) or text input."""
    if isinstance(data, str) and not text:
        data = data.encode()
    file = io.StringIO(data) if text else io.BytesIO(data)
    errors: list[StreamError] = []
    out = list(iter_records(file, on_error=errors.append, chunk_size=chunk_size))
    return out, [(e.line, e.column, e.message) for e in errors]


LAYOUTS = {
    "one value": ('{"a": 1}', [(1, {"a": 1})]),
    "one value, pretty": ('{\n  "a": [\n    1,\n    2\n  ]\n}\n', [(1, {"a": [1, 2]})]),
    "json lines": ('{"a":1}\n{"b":2}\n\n{"c":3}\n', [(1, {"a": 1}), (2, {"b": 2}), (4, {"c": 3})]),
    "json lines, crlf": ('{"a":1}\r\n{"b":2}\r\n', [(1, {"a": 1}), (2, {"b": 2})]),
    "array": ('[{"a":1}, {"b":2},\n {"c":3}]', [(1, {"a": 1}), (1, {"b": 2}), (2, {"c": 3})]),
    "array, pretty": (
        '[\n  {\n    "a": 1\n  },\n  {\n    "b": 2\n  }\n]\n',
        [(2, {"a": 1}), (5, {"b": 2})],
    ),
    "empty array": ("[]", []),
    "nested array is one element": ('[[{"a":1}], {"b":2}]', [(1, [{"a": 1}]), (1, {"b": 2})]),
    "two arrays": ('[{"a":1}]\n[{"b":2}]', [(1, {"a": 1}), (2, {"b": 2})]),
    "concatenated, pretty": ('{\n "a": 1\n}\n{\n "b": 2\n}', [(1, {"a": 1}), (4, {"b": 2})]),
    "concatenated on one line": (
        '{"a":1}{"b":2} {"c":3}',
        [(1, {"a": 1}), (1, {"b": 2}), (1, {"c": 3})],
    ),
    "several values on a json line": (
        '{"a":1} {"b":2}\n{"c":3}\n',
        [(1, {"a": 1}), (1, {"b": 2}), (2, {"c": 3})],
    ),
    "json lines of arrays": (
        '[{"a":1},{"b":2}]\n[{"c":3}]\n',
        [(1, {"a": 1}), (1, {"b": 2}), (2, {"c": 3})],
    ),
    "bom and unicode": ('\ufeff{"n": "é♠"}\n', [(1, {"n": "é♠"})]),
    "blank file": ("  \n\n ", []),
    "empty file": ("", []),
    "numbers across chunks": (
        "12345678901234567890 -1.5e3",
        [(1, 12345678901234567890), (1, -1500.0)],
    ),
    "long string across chunks": ('{"a": "' + "x" * 300 + '"}', [(1, {"a": "x" * 300})]),
}


@pytest.mark.parametrize("name", LAYOUTS)
@pytest.mark.parametrize("chunk_size", [1, 3, 7, 64, 1 << 20])
def test_layouts(name: str, chunk_size: int) -> None:
    data, expected = LAYOUTS[name]
    assert records(data, chunk_size=chunk_size) == (expected, [])
    assert records(data, chunk_size=chunk_size, text=True) == (expected, [])


ERRORS = {
    # JSON Lines: each bad line is reported, reading goes on at the next line.
    "bad json lines": (
        '{"a":1}\nnot json\n{"b":2}\n{"c": \n{"d":4}\n',
        [(1, {"a": 1}), (3, {"b": 2}), (5, {"d": 4})],
        [(2, 1, "Expecting value"), (4, 7, "Expecting value")],
    ),
    "bad first json line": ('garbage\n{"b":2}\n', [(2, {"b": 2})], [(1, 1, "Expecting value")]),
    "bad value after good ones on a line": (
        '{"a":1} {"b":\n{"c":3}\n',
        [(2, {"c": 3})],
        [(1, 14, "Expecting value")],
    ),
    # Anything else: the first error ends the file.
    "trailing comma in array": ('[{"a":1},]', [(1, {"a": 1})], [(1, 10, "Expecting value")]),
    "missing comma in array": (
        '[{"a":1}\n {"b":2}]',
        [(1, {"a": 1})],
        [(2, 2, "expecting ',' or ']' between the array's records")],
    ),
    "unclosed array": (
        '[{"a":1},{"b":2}',
        [(1, {"a": 1}), (1, {"b": 2})],
        [(1, 17, "unexpected end of the file inside the array")],
    ),
    "bad pretty value": ('{\n "a": 1,\n "b": \n}\n{"x": 1}', [], [(4, 1, "Expecting value")]),
    "unterminated string at the end": (
        '{"a": "abc',
        [],
        [(1, 7, "Unterminated string starting at")],
    ),
}


@pytest.mark.parametrize("name", ERRORS)
@pytest.mark.parametrize("chunk_size", [1, 5, 1 << 20])
def test_errors(name: str, chunk_size: int) -> None:
    data, expected, errors = ERRORS[name]
    assert records(data, chunk_size=chunk_size) == (expected, errors)


def test_error_raises_without_on_error() -> None:
    reader = iter_records(io.BytesIO(b'{"a":1}\n{bad\n{"c":3}\n'))
    assert next(reader) == (1, {"a": 1})
    with pytest.raises(StreamError) as info:
        next(reader)
    assert (info.value.line, info.value.column) == (2, 2)
    assert str(info.value).startswith("line 2 column 2: ")


def test_offset_of_error_in_stream() -> None:
    data = b'[{"a": 1},\n {"b": 2} {"c": 3}]'
    with pytest.raises(StreamError) as info:
        list(iter_records(io.BytesIO(data), chunk_size=4))
    assert info.value.offset == data.index(b'{"c"')
    assert (info.value.line, info.value.column) == (2, 11)


def test_not_utf8() -> None:
    out, errors = records(b'{"a": 1}\n{"b": "\xff"}\n')
    assert out == [] or out == [(1, {"a": 1})]
    assert len(errors) == 1 and "not UTF-8" in errors[0][2]


def test_array_is_streamed_not_loaded() -> None:
    """The first records of an endless array come out: the reader never needs the end."""
    line = json.dumps(HAND).encode()

    def endless() -> Iterator[bytes]:
        yield b"["
        while True:
            yield line + b",\n"

    file = GeneratorFile(endless())
    reader = iter_records(file, chunk_size=4096)
    first = [next(reader) for _ in range(3)]
    assert [value for _, value in first] == [HAND] * 3
    assert [line for line, _ in first] == [1, 2, 3]
    assert file.read_bytes <= 4 * 4096


def test_large_array_reads_a_chunk_for_the_first_record() -> None:
    line = json.dumps(HAND).encode()
    data = b"[" + b",".join([line] * 20_000) + b"]"
    file = GeneratorFile(iter([data[i : i + 1000] for i in range(0, len(data), 1000)]))
    reader = iter_records(file, chunk_size=8192)
    assert next(reader) == (1, HAND)
    assert file.read_bytes < len(data) / 50
    assert sum(1 for _ in reader) == 19_999
    assert file.read_bytes == len(data)


def _peak(count: int, layout: str) -> int:
    line = json.dumps(HAND).encode()

    def pieces() -> Iterator[bytes]:
        if layout == "array":
            yield b"[\n"
            for i in range(count):
                yield line + (b",\n" if i < count - 1 else b"\n]\n")
        else:
            for _ in range(count):
                yield line + b"\n"

    tracemalloc.start()
    try:
        n = sum(1 for _ in iter_records(GeneratorFile(pieces()), chunk_size=64 * 1024))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert n == count
    return peak


@pytest.mark.parametrize("layout", ["array", "lines"])
def test_memory_is_flat_in_the_number_of_records(layout: str) -> None:
    small, large = _peak(2_000, layout), _peak(20_000, layout)
    # Ten times the records (about 1.3 MB against 13 MB of input): nearly the same peak.
    assert large < small * 1.5 + 64 * 1024, (small, large)
    assert large < 2_000_000


def _scan_nothing(line: str, pos: int) -> tuple[object, int]:
    raise StopIteration(pos)


LINE = st.one_of(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
        max_leaves=6,
    ).map(json.dumps),
    st.sampled_from(
        [
            "",
            " ",
            "\r",
            "{",
            '{"a": 1',
            "1 2",
            '{"a":1} {"b":2}',
            "nul",
            "[1,",
            '  {"a": 1}',
            '{"a": 1}  ',
            "\ufeff{}",
            '"\\ud800"',
            "1e999",
            "NaN",
        ]
    ),
)


@settings(max_examples=sizes.examples(200), deadline=None)
@given(lines=st.lists(LINE, max_size=8))
def test_json_lines_read_as_json_loads_reads_each_line(lines):
    """The scanner called directly on each JSON line (games.stream._SCAN) gives the records
    and errors that json.loads alone gives, whatever the lines hold."""
    text = '{"first": 1}\n' + "\n".join(lines) + "\n"
    fast = records(text)
    with pytest.MonkeyPatch.context() as m:
        m.setattr("games.stream._SCAN", _scan_nothing)
        reference = records(text)
    assert repr(fast) == repr(reference)
