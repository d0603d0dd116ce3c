"""`check_hands --jobs N`: worker processes write what one process writes.

The reference is ``jobs=1`` (the single-process path). Every test compares the standard output
bytes, the messages, where each message falls between the result lines, and the exit status,
for --jobs 1 and --jobs 2, with the batches made small (``batch``) and the workers started for
any input (``in_process=0``) so that a few records already cross many batch boundaries.
"""

from __future__ import annotations

import errno
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.check_files import check_files
from games.simulate.spades import random_hand, to_summary
from games.stream import LineBatch, StreamError, iter_batches, iter_records, parse_lines
from tests import sizes, waiting
from tests.games.generator_file import GeneratorFile, checked_peak

REPO = Path(__file__).resolve().parents[2]
RNG = random.Random(18)
HANDS = [random_hand(RNG) for _ in range(4)]


def invalid(hand: dict) -> dict:
    bad = to_summary(hand)
    bad["tricks"] = dict.fromkeys(bad["tricks"], 1)
    return bad


# Lines of every kind a JSON Lines file may hold.
LINES = {
    "legal": json.dumps(HANDS[0]),
    "legal summary": json.dumps(to_summary(HANDS[1])),
    "spoiled": json.dumps(invalid(HANDS[2])),
    "malformed": '{"format": "hand/1", oops',
    "blank": "   ",
    "array of two": json.dumps([to_summary(HANDS[3]), invalid(HANDS[0])]),
    "two values": json.dumps(to_summary(HANDS[1])) + " " + json.dumps(HANDS[3]),
    "not a record": '"hello"',
    "unicode": json.dumps({"format": "hand/1", "game": "spé♠\ud800", "rules": "standard"}),
}


class Stderr(io.StringIO):
    """Messages, each with how much standard output was written before it."""

    def __init__(self, written: Callable[[], int]) -> None:
        super().__init__()
        self.written = written
        self.messages: list[tuple[int, str]] = []

    def write(self, text: str) -> int:
        self.messages.append((self.written(), text))
        return super().write(text)


def run(
    files: list[str], jobs: int, *, stdin: object = None, text: bool = False, **options: Any
) -> tuple[int, bytes | str, list[tuple[int, str]]]:
    """check_files: (exit status, standard output, messages with their place in it); standard
    output binary (a text layer over bytes, as sys.stdout) or, with `text`, text only (as
    call_command's StringIO)."""
    raw = io.BytesIO()
    if text:
        stdout: Any = io.StringIO()
        stderr = Stderr(lambda: len(stdout.getvalue()))
    else:
        stdout = io.TextIOWrapper(raw, encoding="utf-8")
        stderr = Stderr(lambda: raw.getbuffer().nbytes)
    status = check_files(files, stdout=stdout, stderr=stderr, stdin=stdin, jobs=jobs, **options)
    stdout.flush()
    return status, stdout.getvalue() if text else raw.getvalue(), stderr.messages


def same(
    files: list[str],
    *,
    stdin_data: bytes | None = None,
    text: bool = False,
    batch: int = 2,
    **options: Any,
) -> tuple[int, bytes | str, list[tuple[int, str]]]:
    """Run with --jobs 1 and --jobs 2 (workers for any input); assert equal; the result."""
    runs = []
    for jobs in (1, 2):
        stdin = None if stdin_data is None else io.BytesIO(stdin_data)
        runs.append(run(files, jobs, stdin=stdin, text=text, batch=batch, in_process=0, **options))
    assert runs[1] == runs[0]
    return runs[0]


def write(tmp_path: Path, name: str, data: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


def lines_of(*kinds: str) -> str:
    return "".join(LINES[k] + "\n" for k in kinds)


def test_legal_file_same_with_workers(tmp_path: Path) -> None:
    path = write(tmp_path, "legal.jsonl", lines_of(*["legal", "legal summary"] * 5))
    status, out, messages = same([path])
    assert (status, messages) == (0, []) and out.count(b"\n") == 10


def test_spoiled_records_same_with_workers(tmp_path: Path) -> None:
    path = write(tmp_path, "spoiled.jsonl", lines_of("legal", "spoiled", "legal", "spoiled"))
    status, out, _ = same([path])
    assert status == 1 and out.count(b'"ok":false') == 2


def test_malformed_lines_same_with_workers(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bad.jsonl",
        lines_of("legal", "malformed", "spoiled", "blank", "malformed", "legal"),
    )
    status, out, messages = same([path], batch=1)
    assert status == 2 and out.count(b"\n") == 3
    assert [m.split(" column")[0] for _, m in messages] == [
        f"check_hands: {path}: line {n}" for n in (2, 5)
    ]
    assert messages[0][0] < messages[1][0] < len(out)  # between the result lines


def test_mixed_files_same_with_workers(tmp_path: Path) -> None:
    """JSON Lines, a pretty-printed array, a cut array, a file that is not UTF-8, a missing
    file and a directory, one after another."""
    records = [HANDS[0], invalid(HANDS[1]), to_summary(HANDS[2])] * 3
    files = [
        write(tmp_path, "a.jsonl", lines_of(*LINES)),
        write(tmp_path, "b.json", json.dumps(records, indent=1)),
        write(tmp_path, "c.json", json.dumps(records, indent=1)[:-40]),
        write(tmp_path, "d.jsonl", lines_of("legal", "spoiled").encode() + b'{"x": "\xff"}\n'),
        str(tmp_path / "missing.json"),
        str(tmp_path),
        write(tmp_path, "e.jsonl", lines_of("legal")),
    ]
    status, out, messages = same(files, batch=3)
    assert status == 2 and len(messages) == 5


def test_stdin_same_with_workers() -> None:
    data = lines_of(*LINES).encode() * 3
    status, out, messages = same(["-"], stdin_data=data)
    assert status == 2 and len(messages) == 3 and out.count(b"\n") == 3 * 9


def test_text_stdout_same_with_workers(tmp_path: Path) -> None:
    """A standard output with no binary buffer (call_command's StringIO) gets the same
    text."""
    path = write(tmp_path, "a.jsonl", lines_of(*LINES))
    status, out, _ = same([path], text=True)
    assert status == 2 and isinstance(out, str) and "not 'spé♠" in out


def test_context_rules_and_game_reach_the_workers(tmp_path: Path) -> None:
    bare = to_summary(HANDS[0])
    del bare["rules"], bare["game"]
    path = write(tmp_path, "bare.jsonl", (json.dumps(bare) + "\n") * 5)
    status, out, _ = same([path], rules="hoyle", game="spades")
    assert status == 0 and out.count(b'"rules":"hoyle"') == 5


def test_chunk_boundaries_same_with_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reads of 64 bytes: lines cut across reads, and the line a non-UTF-8 byte is reported
    at (the first line of the read it falls in) stay the same."""
    monkeypatch.setattr("games.stream.CHUNK_SIZE", 64)
    data = lines_of(*LINES).encode() * 2 + b'{"a": "\xff"}\n' + lines_of("legal").encode()
    path = write(tmp_path, "chunks.jsonl", data)
    status, _, messages = same([path], batch=3)
    assert status == 2 and "not UTF-8" in messages[-1][1]


class FailingFile(GeneratorFile):
    """Standard input that fails (EIO) once its pieces are read."""

    def read(self, size: int = -1) -> bytes:
        data = super().read(size)
        if not data:
            raise OSError(errno.EIO, "Input/output error")
        return data


def test_read_error_same_with_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cannot read (after line N)`: N is the last record's line, known only once the
    workers' results before it are written."""
    monkeypatch.setattr("games.stream.CHUNK_SIZE", 256)
    runs = []
    for jobs in (1, 2):
        pieces = iter([lines_of(*LINES).encode()] * 2)
        runs.append(run(["-"], jobs, stdin=FailingFile(pieces), batch=2, in_process=0))
    assert runs[1] == runs[0]
    assert (
        runs[0][2][-1][1] == "check_hands: <stdin>: cannot read (after line 18): "
        "Input/output error\n"
    )


def test_small_input_checked_without_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under `in_process` lines no worker starts: the same output."""
    path = write(tmp_path, "a.jsonl", lines_of(*LINES))
    reference = run([path], 1)

    def no_workers(*args: object) -> None:
        raise AssertionError("a worker was started")

    monkeypatch.setattr("games.check_files._Workers", no_workers)
    assert run([path], 2, batch=2, in_process=100) == reference


def test_workers_from_a_fork_server_when_threads_run(tmp_path: Path) -> None:
    """A process running threads (where forking is unsafe) gets its workers from a fork
    server: the same output."""
    import threading

    path = write(tmp_path, "a.jsonl", lines_of(*LINES) * 3)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert threading.active_count() > 1
        same([path], batch=4)
    finally:
        stop.set()
        thread.join()


@settings(
    max_examples=sizes.examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    kinds=st.lists(st.sampled_from(sorted(LINES)), max_size=14),
    batch=st.integers(1, 5),
    chunk=st.sampled_from([16, 100, 1 << 20]),
    array=st.booleans(),
)
def test_any_file_same_with_workers(kinds: list[str], batch: int, chunk: int, array: bool) -> None:
    """Any JSON Lines file of those lines (or the same records as one array), cut into
    batches of 1 to 5 and read 16 bytes at a time or more: --jobs 2 writes what --jobs 1
    writes."""
    import games.stream

    if array:
        data = json.dumps(
            [json.loads(LINES[k]) for k in kinds if k not in ("malformed", "blank", "two values")],
            indent=1,
        ).encode()
    else:
        data = lines_of(*kinds).encode()
    saved = games.stream.CHUNK_SIZE
    games.stream.CHUNK_SIZE = chunk
    try:
        same(["-"], stdin_data=data, batch=batch)
    finally:
        games.stream.CHUNK_SIZE = saved


@settings(max_examples=sizes.examples(60), deadline=None)
@given(
    kinds=st.lists(st.sampled_from(sorted(LINES)), max_size=12),
    batch=st.integers(1, 4),
    chunk=st.sampled_from([8, 50, 1 << 20]),
    broken=st.booleans(),
)
def test_batches_hold_the_records_and_errors_of_iter_records(
    kinds: list[str], batch: int, chunk: int, broken: bool
) -> None:
    """iter_batches, with parse_lines on its line batches, gives iter_records' records and
    errors in iter_records' order (a byte that is not UTF-8 at the end, or not)."""
    data = lines_of(*kinds).encode() + (b"\xff\n" if broken else b"")
    expected: list[object] = []

    def note(error: StreamError) -> None:
        expected.append(("error", str(error)))

    for line, value in iter_records(io.BytesIO(data), chunk_size=chunk, on_error=note):
        expected.append((line, value))
    got: list[object] = []
    for item in iter_batches(io.BytesIO(data), batch, chunk_size=chunk):
        if isinstance(item, StreamError):
            got.append(("error", str(item)))
        elif isinstance(item, LineBatch):
            assert 1 <= len(item.lines) <= batch
            got.extend(parse_lines(item, lambda e: got.append(("error", str(e)))))
        else:
            got.extend(item)
    assert got == expected


# -- memory ------------------------------------------------------------------------------------


def test_memory_is_flat_with_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """4,000 and 40,000 summary records through two workers (default batches and window):
    the same peak in this process, give or take: the batches in flight are bounded. Locally
    (tests/sizes.py) the larger run is 16,000 records: four times the smaller one still
    shows whether the peak grows with the input."""
    monkeypatch.setattr("games.stream.CHUNK_SIZE", 32 * 1024)
    lines = [(json.dumps(to_summary(h)) + "\n").encode() for h in HANDS]
    many = 40_000 if sizes.full() else 16_000
    n_small, small = checked_peak(lines, 4_000, jobs=2)
    n_large, large = checked_peak(lines, many, jobs=2)
    assert (n_small, n_large) == (4_000, many)
    assert large < small * 1.5 + 256 * 1024, (small, large)


# -- the command, in a process of its own --------------------------------------------------------


def manage(*args: str, **options: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check_hands", *args],
        cwd=REPO,
        capture_output=True,
        timeout=120,
        **options,
    )


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """3,000 summary records, some spoiled, one malformed line: past the in-process size."""
    records = [
        to_summary(h) if i % 7 else invalid(h)
        for i, h in zip(range(3_000), HANDS * 750, strict=False)
    ]
    text = "".join(json.dumps(r) + "\n" for r in records)
    path = tmp_path_factory.mktemp("jobs") / "big.jsonl"
    path.write_text(text.replace("\n", "\n{oops\n", 1))
    return str(path)


def test_manage_py_same_for_any_jobs_and_stdin(big_file: str) -> None:
    data = Path(big_file).read_bytes()
    runs = [
        manage(*jobs, big_file, "-", input=data)
        for jobs in ([], ["--jobs", "1"], ["--jobs=2"], ["--jobs", "3"])
    ]
    for done in runs:
        assert (done.returncode, done.stdout, done.stderr) == (
            runs[1].returncode,
            runs[1].stdout,
            runs[1].stderr,
        )
    assert runs[1].returncode == 2 and runs[1].stdout.count(b"\n") == 6_000


def test_jobs_must_be_a_positive_number(big_file: str) -> None:
    for value in ("0", "x", "-1"):
        done = manage("--jobs", value, big_file)
        assert done.returncode == 2 and b"--jobs" in done.stderr and done.stdout == b""


def test_broken_pipe_ends_quietly_with_workers(big_file: str) -> None:
    """`check_hands big.jsonl | head -1`: exit 2 and no traceback, as with --jobs 1."""
    ends = []
    for jobs in ("1", "2"):
        read, write_end = os.pipe()
        with subprocess.Popen(
            [sys.executable, "manage.py", "check_hands", "--jobs", jobs, big_file, big_file],
            cwd=REPO,
            stdout=write_end,
            stderr=subprocess.PIPE,
        ) as proc:
            os.close(write_end)
            with os.fdopen(read, "rb") as reader:
                assert reader.readline().startswith(b"{")
            _, err = proc.communicate(timeout=120)
        ends.append((proc.returncode, err))
    assert ends[1] == ends[0]
    assert ends[0][0] == 2 and b"Traceback" not in ends[0][1]


def _stream_forever(count: int) -> Iterator[bytes]:
    line = (json.dumps(to_summary(HANDS[0])) + "\n").encode()
    yield line * count


def _status(pid: str) -> dict[str, str]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def _waits_for_input(pid: int) -> bool:
    """Whether the command's main thread is blocked (state S), as it is once it has read all
    that was written and waits for more; twice, a twentieth of a second apart."""

    def blocked() -> bool:
        stat = Path(f"/proc/{pid}/task/{pid}/stat").read_text()
        return stat.rpartition(")")[2].split()[0] == "S"

    if not blocked():
        return False
    time.sleep(0.05)
    return blocked()


def _workers_ignore_ctrl_c(pid: int, jobs: int) -> bool:
    """Whether the command's `jobs` workers (none with --jobs 1) have started and each ignores
    SIGINT (its first act: until then a Ctrl-C would give it a traceback of its own). The
    workers are the processes of the command's group but the command itself,
    multiprocessing's resource tracker and its fork server (which ignore SIGINT from their
    start)."""
    if jobs == 1:
        return True
    workers = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or entry.name == str(pid):
            continue
        try:
            if os.getpgid(int(entry.name)) != pid:
                continue
            status = _status(entry.name)
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, ProcessLookupError):
            continue
        if "resource_tracker" in command:
            continue
        if "forkserver" in command and status.get("PPid") == str(pid):
            continue
        workers.append(int(status["SigIgn"], 16) & (1 << (signal.SIGINT - 1)))
    return len(workers) >= jobs and all(workers)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_every_process_with_one_traceback() -> None:
    """Ctrl-C (SIGINT to the process group) while the workers run: the command dies of
    SIGINT with KeyboardInterrupt's traceback, once (the workers ignore Ctrl-C and are
    stopped by the parent), as with --jobs 1; no process of the group is left."""
    for jobs in ("1", "2"):
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "check_hands", "--jobs", jobs, "-"],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            # Ctrl-C as at a terminal, even where this test runs from a shell's background job
            # (which starts with SIGINT ignored, and a child would inherit that).
            preexec_fn=_default_sigint,
        )
        assert proc.stdin is not None and proc.stderr is not None
        for piece in _stream_forever(5_000):  # past the in-process size; stdin stays open
            proc.stdin.write(piece)
        proc.stdin.flush()
        # Ctrl-C once the command has checked what it was given and waits for more input
        # (with workers: once each of them ignores Ctrl-C), however long that took on this
        # machine. Sent while the command was still reading lines in C code, a signal can
        # land just before that code's next read of stdin, which then waits with the signal
        # noted and not yet acted on (CPython acts on it when the read returns): a half
        # second's sleep here was long enough on a quiet machine only.
        waiting.until(
            lambda pid=proc.pid, n=int(jobs): (
                _waits_for_input(pid) and _workers_ignore_ctrl_c(pid, n)
            ),
            f"--jobs {jobs} waiting for more input",
        )
        os.killpg(proc.pid, signal.SIGINT)
        err = proc.stderr.read()
        proc.wait(timeout=waiting.SECONDS)
        proc.stdin.close()
        assert proc.returncode == -signal.SIGINT, (jobs, err)
        assert err.count(b"KeyboardInterrupt") == 1, (jobs, err)
        waiting.until(
            lambda pid=proc.pid: not _group_alive(pid), f"--jobs {jobs}: its workers to go"
        )
