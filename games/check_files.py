"""Check the records of files and print their results: the body of ``manage.py check_hands``.

Plain Python (no Django import), so that ``manage.py check_hands FILE...`` with no option can
run it before Django starts (see manage.py: Django's set-up is most of a small run's time);
the management command (games/management/commands/check_hands.py) calls the same function, so
both print the same lines and exit with the same status.

With ``jobs`` above 1 (``--jobs N``; the command's default is the number of usable cores) the
records are checked in worker processes, a batch of lines at a time: this process reads the
file and cuts it into batches of lines (JSON Lines; other layouts: batches of parsed records,
`games.stream.iter_batches`), the workers parse, check and encode them (`check_batch`), and
this process writes their results in input order, a bounded number of batches in flight (flat
memory). The lines, the messages, where the messages fall between the lines, and the exit
status are those of ``jobs=1``, the single-process reference. An input smaller than
`IN_PROCESS` records or lines is checked here, with no worker started.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections import deque
from typing import IO, Any

from games.records import check_record
from games.stream import LineBatch, StreamError, iter_batches, iter_records, parse_lines

BATCH = 1000  # result lines written at once
JOB_BATCH = 500  # lines (or parsed records) a worker checks at a time
IN_PROCESS = 2000  # fewer lines or records than this in all: checked here, no worker started
WINDOW = 4  # batches in flight per worker: bounds memory, keeps every worker busy

_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def default_jobs() -> int:
    """The number of CPUs this process may use (``--jobs``' default)."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if count is not None:
        return max(1, count() or 1)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class _Writer:
    """Result lines in batches: bytes to a binary buffer when the stream has one."""

    def __init__(self, stream: IO[Any]) -> None:
        self.stream = stream
        self.binary = getattr(stream, "buffer", None)
        self.lines: list[str] = []

    def write(self, data: str | bytes) -> None:
        """Text already joined and ended (bytes when the stream has a binary buffer)."""
        if self.binary is not None:
            self.binary.write(data)
        else:
            self.stream.write(data)

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
    jobs: int = 1,
    batch: int = JOB_BATCH,
    in_process: int = IN_PROCESS,
) -> int:
    """Check every record of `files` in order, writing result lines to `stdout` and problems
    with the files to `stderr`; the exit status (0 all valid, 1 any invalid, 2 unreadable).

    `jobs` above 1 checks in that many worker processes once the input reaches `in_process`
    lines or records, `batch` at a time; what is written is the same as with ``jobs=1``."""
    if jobs > 1:
        return _check_parallel(files, rules, game, stdout, stderr, stdin, jobs, batch, in_process)
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
        _say(out, stderr, name, message)

    for path in files:
        name = "<stdin>" if path == "-" else path
        try:
            file, close = _open(path, stdin)
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


def check_batch(
    batch: LineBatch | list[tuple[int, Any]], rules: Any, game: str | None, binary: bool
) -> tuple[list[tuple[str | bytes, str | None]], bool, int]:
    """Check a batch (`games.stream.iter_batches`) as ``jobs=1`` would: ``(parts, invalid,
    last)``, where each part is result lines (joined, each ended by a newline; UTF-8 bytes if
    `binary`) followed by a message about the file or None, `invalid` says whether any record
    is invalid, and `last` is the line of the last record (0 if none)."""
    parts: list[tuple[str | bytes, str | None]] = []
    lines: list[str] = []
    invalid = False
    last = 0
    encode = _ENCODE
    check = check_record

    def cut(message: str | None) -> None:
        text = "\n".join(lines) + "\n" if lines else ""
        lines.clear()
        parts.append((text.encode("utf-8", "backslashreplace") if binary else text, message))

    def report(error: StreamError) -> None:
        cut(str(error))

    records = parse_lines(batch, report) if isinstance(batch, LineBatch) else batch
    for line, record in records:
        last = line
        try:
            result = check(record, rules=rules, game=game)
        except Exception as error:  # an engine bug: say where, go on
            cut(f"line {line}: internal error checking this record: {error!r}")
            continue
        if not result["ok"]:
            invalid = True
        lines.append(encode(result))
    if lines:
        cut(None)
    return parts, invalid, last


def _say(out: Any, stderr: Any, name: str, message: str) -> None:
    """A file's problem on stderr, after the results written before it."""
    out.flush()
    stderr.write(f"check_hands: {name}: {message}\n")
    stderr.flush()


def _open(path: str, stdin: Any) -> tuple[Any, bool]:
    """The file to read for `path` ("-" is stdin: `stdin` when given, else the process's) and
    whether to close it after streaming. Raises OSError when it cannot be opened."""
    if path == "-":
        return (stdin if stdin is not None else sys.stdin.buffer), False
    return open(path, "rb"), True  # noqa: SIM115 (closed by the caller, after streaming)


def _threads() -> int:
    """This process's threads as the system counts them (Linux), so that threads started by C
    code count too; else Python's own count."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _serve(conn: Any, rules: Any, game: str | None, binary: bool) -> None:
    """A worker: check the batches `conn` brings, one after another, sending each result back
    (``(True, number, result)``, or ``(False, number, exception)``) until it brings None."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops us
    while True:
        task = conn.recv()
        if task is None:
            return
        number, batch = task
        try:
            answer: tuple[bool, int, Any] = (True, number, check_batch(batch, rules, game, binary))
        except Exception as error:  # pragma: no cover - check_batch catches the engine's
            answer = (False, number, error)
        conn.send(answer)


class _Workers:
    """`jobs` worker processes, each batch going to the worker with the fewest in hand (at
    most `PER_WORKER`), so that a worker slowed down (another program on its CPU) gets fewer;
    results are put back in input order here. A thread sends the batches (a worker sending
    a long result must never wait on this process sending it a long batch). Forked (they
    inherit the engine, already imported) unless this process runs threads, where forking is
    unsafe: then from a fork server that imports this module (the engine, no Django). No
    pool: multiprocessing.Pool's own threads cost more than reading the file."""

    PER_WORKER = 2

    def __init__(self, jobs: int, rules: Any, game: str | None, binary: bool) -> None:
        import multiprocessing  # imported here: 15 % of a small check's start-up
        import multiprocessing.connection
        import queue

        methods = multiprocessing.get_all_start_methods()
        context: Any
        if "fork" in methods and _threads() == 1:
            context = multiprocessing.get_context("fork")
        elif "forkserver" in methods:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["games.check_files"])
        else:  # pragma: no cover - not POSIX
            context = multiprocessing.get_context("spawn")
        self.wait: Any = multiprocessing.connection.wait
        self.conns: list[Any] = []
        self.processes: list[Any] = []
        for _ in range(jobs):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_serve, args=(theirs, rules, game, binary), daemon=True
            )
            process.start()
            theirs.close()
            self.conns.append(mine)
            self.processes.append(process)
        self.in_hand = [0] * jobs  # batches sent to each worker and not answered yet
        self.room = threading.Condition()
        self.results: dict[int, Any] = {}  # answered, not yet taken (by batch number)
        self.received = 0  # batches taken (in input order)
        self.batches: Any = queue.SimpleQueue()
        self.sender = threading.Thread(target=self._send, daemon=True)
        self.sender.start()

    def _send(self) -> None:
        conns, in_hand, room = self.conns, self.in_hand, self.room
        number = 0
        try:
            while True:
                batch = self.batches.get()
                if batch is None:
                    for conn in conns:
                        conn.send(None)
                    return
                with room:
                    while True:
                        worker = min(range(len(conns)), key=in_hand.__getitem__)
                        if in_hand[worker] < self.PER_WORKER:
                            break
                        room.wait()
                    in_hand[worker] += 1
                conns[worker].send((number, batch))
                number += 1
        except OSError:  # the workers were stopped (an error here, Ctrl-C)
            return

    def submit(self, batch: Any) -> None:
        self.batches.put(batch)

    def _take(self, timeout: float | None) -> None:
        """Receive the answers that have come (waiting up to `timeout` for one)."""
        ready: list[Any] = self.wait(self.conns, timeout)
        for conn in ready:
            try:
                ok, number, value = conn.recv()
            except EOFError:
                raise RuntimeError("check_hands: a worker process died") from None
            with self.room:
                self.in_hand[self.conns.index(conn)] -= 1
                self.room.notify()
            if not ok:
                raise value
            self.results[number] = value

    def ready(self) -> bool:
        """Whether the next result (in input order) has come."""
        if self.received not in self.results:
            self._take(0)
        return self.received in self.results

    def result(self) -> Any:
        """The next result, in input order."""
        while self.received not in self.results:
            self._take(None)
        self.received += 1
        return self.results.pop(self.received - 1)

    def close(self) -> None:
        """Stop the workers once they are done."""
        self.batches.put(None)
        self.sender.join()
        for process in self.processes:
            process.join()

    def terminate(self) -> None:
        """Stop the workers now."""
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.join()
        for conn in self.conns:
            conn.close()


def _check_parallel(
    files: list[str],
    rules: Any,
    game: str | None,
    stdout: IO[Any],
    stderr: IO[Any],
    stdin: IO[Any] | None,
    jobs: int,
    size: int,
    in_process: int,
) -> int:
    """`check_files` with workers: each file read here in batches (`iter_batches`), every
    batch and every message queued in input order, written in that order."""
    out = _Writer(stdout)
    binary = out.binary is not None
    if binary:
        stdout.flush()
    invalid = broken = False
    last: dict[int, int] = {}  # a file's (by position) last record's line, as written
    # Entries in input order: (file position, name, what): what is ("check", batch),
    # ("result", None) (a batch sent to the workers), ("problem", message) or ("unread", why)
    # (the line it comes after is only known once the batches before it are written).
    held: list[tuple[int, str, tuple[str, Any]]] = []  # before the workers start
    held_size = 0
    pending: deque[tuple[int, str, tuple[str, Any]]] = deque()
    workers: _Workers | None = None
    window = WINDOW * jobs

    def write(index: int, name: str, what: tuple[str, Any]) -> None:
        nonlocal invalid, broken
        kind, value = what
        if kind in ("check", "result"):
            parts, bad, line = (
                check_batch(value, rules, game, binary) if workers is None else workers.result()
            )
            for data, message in parts:
                if data:
                    out.write(data)
                if message is not None:
                    problem(name, message)
            out.flush()
            invalid = invalid or bad
            if line:
                last[index] = line
            return
        if kind == "unread":
            value = f"cannot read (after line {last.get(index, 0)}): {value}"
        problem(name, value)

    def problem(name: str, message: str) -> None:
        nonlocal broken
        broken = True
        _say(out, stderr, name, message)

    def enqueue(index: int, name: str, what: tuple[str, Any]) -> None:
        nonlocal workers, held_size
        if workers is None:
            held.append((index, name, what))
            if what[0] == "check":
                held_size += len(what[1].lines if type(what[1]) is LineBatch else what[1])
            if held_size < in_process:
                return
            workers = _Workers(jobs, rules, game, binary)
            for entry in held:
                enqueue(*entry)
            held.clear()
            return
        if what[0] == "check":
            workers.submit(what[1])
            what = ("result", None)
        pending.append((index, name, what))
        while len(pending) > window or (pending and pending[0][2][0] != "result"):
            write(*pending.popleft())
        while pending and workers.ready():  # written as soon as done, in order
            write(*pending.popleft())
            while pending and pending[0][2][0] != "result":
                write(*pending.popleft())

    try:
        for index, path in enumerate(files):
            name = "<stdin>" if path == "-" else path
            try:
                file, close = _open(path, stdin)
            except OSError as error:
                enqueue(index, name, ("problem", f"cannot open: {error.strerror or error}"))
                continue
            try:
                for item in iter_batches(file, size):
                    if type(item) is StreamError:
                        enqueue(index, name, ("problem", str(item)))
                    else:
                        enqueue(index, name, ("check", item))
            except OSError as error:
                if isinstance(error, BrokenPipeError):
                    raise
                enqueue(index, name, ("unread", error.strerror or error))
            finally:
                if close:
                    file.close()
        for entry in held:  # a small input: checked here
            write(*entry)
        while pending:
            write(*pending.popleft())
        if workers is not None:
            workers.close()
            workers = None
    finally:
        if workers is not None:  # an error (a broken pipe, Ctrl-C): stop the workers now
            workers.terminate()
    out.flush()
    return 2 if broken else 1 if invalid else 0


def main(files: list[str], jobs: int | None = None) -> int:
    """``manage.py check_hands [--jobs N] FILE...``, as the command runs it (`jobs` defaults
    to the number of usable cores)."""
    try:
        return check_files(
            files,
            stdout=sys.stdout,
            stderr=sys.stderr,
            jobs=default_jobs() if jobs is None else jobs,
        )
    except BrokenPipeError:  # the reader went away (`check_hands big.jsonl | head`)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python exits
        return 2
