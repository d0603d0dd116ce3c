"""One line per benchmark figure, and the one table `make bench` prints from them.

A bench command reports each figure it measured with one call:

    from bench import report

    report.figure(bar="Standings engine: 1,000 teams x 9 rounds, full recompute",
                  value=0.040, unit="s", target="<= 50 ms", ok=True)

When the environment variable TRICKTABLE_BENCH_REPORT names a file (bench/all.py sets it), the
call appends one JSON line to that file; otherwise it does nothing, so a bench run by hand prints
only its own output. `ok` is True (pass), False (fail) or None (a figure for the record, with no
bar). `shown` replaces the formatted value in the table when one number does not say it all
("47 / 68 ms"); `command` defaults to the running script (bench/standings.py). Every line also
records the time and the 1-minute load average when it was measured, since other work on a
shared machine inflates wall-clock figures. A figure that could not be measured is reported
with `report.skipped(bar=..., why=...)` or `report.error(bar=..., why=...)`.

bench/all.py reads the lines back (`read`), adds rows for benches that were skipped or failed
(`Row.skipped`, `Row.error`) and prints `table(rows, machine())`.
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ENV = "TRICKTABLE_BENCH_REPORT"
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Row:
    """One figure: what was measured, against which bar, and how it went."""

    bar: str
    value: float | None = None
    unit: str = ""
    target: str = ""
    ok: bool | None = None
    command: str = ""
    note: str = ""
    shown: str = ""
    status: str = ""  # "" (measured), or "skipped: why" / "error: why"
    load: float | None = None
    at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    @classmethod
    def skipped(cls, bar: str, why: str, command: str = "") -> Row:
        return cls(bar=bar, command=command, status=f"skipped: {why}")

    @classmethod
    def error(cls, bar: str, why: str, command: str = "") -> Row:
        return cls(bar=bar, command=command, status=f"error: {why}")

    @property
    def measured(self) -> str:
        if self.shown:
            return self.shown
        return format_value(self.value, self.unit)

    @property
    def verdict(self) -> str:
        if self.status:
            return self.status
        if self.ok is None:
            return "-"
        return "pass" if self.ok else "FAIL"


def _command() -> str:
    """The running bench script, relative to the repository (bench/standings.py)."""
    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if script is None:
        return ""
    try:
        return str(script.relative_to(ROOT))
    except ValueError:
        return script.name


def figure(
    *,
    bar: str,
    value: float | None,
    unit: str = "",
    target: str = "",
    ok: bool | None = None,
    command: str | None = None,
    note: str = "",
    shown: str = "",
) -> Row | None:
    """Report one figure (a no-op unless TRICKTABLE_BENCH_REPORT is set); returns the row
    written, or None."""
    if not os.environ.get(ENV):
        return None
    return _write(
        Row(
            bar=bar,
            value=value,
            unit=unit,
            target=target,
            ok=ok,
            command=_command() if command is None else command,
            note=note,
            shown=shown,
        )
    )


def skipped(*, bar: str, why: str, command: str | None = None) -> Row | None:
    """Report a figure that was not measured, and why (a missing service, --engine-only)."""
    return _write(Row.skipped(bar, why, _command() if command is None else command))


def error(*, bar: str, why: str, command: str | None = None) -> Row | None:
    """Report a figure whose measurement failed, with the reason in a few words."""
    return _write(Row.error(bar, why, _command() if command is None else command))


def _write(row: Row) -> Row | None:
    path = os.environ.get(ENV)
    if not path:
        return None
    row.load = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
    with open(path, "a", encoding="utf-8") as out:  # one short write: lines never interleave
        out.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")
    return row


_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit)\b")


def why_failed(lines: list[str]) -> str:
    """The line of a failed command's standard error that says why: the last exception line of
    a traceback if there is one, else the last line."""
    lines = [line.strip() for line in lines if line.strip()]
    named = [line for line in lines if _EXCEPTION.match(line)]
    return (named or lines or ["no output"])[-1][:200]


def read(path: str | Path) -> list[Row]:
    """The rows written to `path` so far (a missing file: none)."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    known = set(Row.__dataclass_fields__)
    return [
        Row(**{k: v for k, v in json.loads(line).items() if k in known})
        for line in lines
        if line.strip()
    ]


# -- formatting -----------------------------------------------------------------------------------


def format_value(value: float | None, unit: str = "") -> str:
    """A figure as people read it: seconds below one as ms, thousands separated."""
    if value is None:
        return "-"
    if unit == "s" and abs(value) < 1:
        ms = value * 1000
        return f"{ms:.1f} ms" if ms < 10 else f"{ms:.0f} ms"
    if isinstance(value, int) or abs(value) >= 100 or (unit.endswith("/s") and abs(value) >= 10):
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text}{unit}" if unit.startswith("/") else f"{text} {unit}".strip()


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _postgres_version(url: str | None) -> str:
    if not url:
        return "PostgreSQL not used"
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            return "PostgreSQL " + conn.execute("show server_version").fetchone()[0].split()[0]
    except Exception as error:  # any failure: the table still prints
        return f"PostgreSQL unreachable ({type(error).__name__})"


def _redis_version(url: str | None) -> str:
    if not url:
        return "Redis not used"
    try:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
        return "Redis " + str(client.info("server")["redis_version"])
    except Exception as error:
        return f"Redis unreachable ({type(error).__name__})"


def pin_to_one_core() -> str:
    """Keep this process on one CPU (the single-core figures), and say which."""
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return f"pinned to CPU {min(os.sched_getaffinity(0))}"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


def machine(database_url: str | None = None, redis_url: str | None = None) -> dict:
    """What the figures were measured on: cores, CPU, versions, date, load average."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        usable = os.cpu_count()
    return {
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "cpu": _cpu_model(),
        "python": platform.python_version(),
        "postgresql": _postgres_version(database_url),
        "redis": _redis_version(redis_url),
        "date": datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "load": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }


def machine_line(info: dict) -> str:
    cores = f"{info['cores']} cores"
    if info.get("usable_cores") not in (None, info["cores"]):
        cores += f" ({info['usable_cores']} usable)"
    line = (
        f"{cores}, {info['cpu']}, Python {info['python']}, {info['postgresql']}, "
        f"{info['redis']}, {info['date']}"
    )
    if info.get("load") is not None:
        line += f"; 1-min load average {info['load']}"
        if info.get("load_end") is not None:
            line += f" at the start, {info['load_end']} at the end"
    return line


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def table(
    rows: list[Row], info: dict, *, title: str = "TrickTable benchmarks", note: str = ""
) -> str:
    """The Markdown table: figure | measured | target | result, headed by the machine line."""
    head = ("figure", "measured", "target", "result")
    body = [(r.bar, r.measured, r.target, r.verdict) for r in rows]
    widths = [max(len(_cell(c)) for c in col) for col in zip(head, *body, strict=True)]
    aligns = ("<", ">", "<", "<")

    def line(cells: tuple[str, ...]) -> str:
        return (
            "| "
            + " | ".join(
                f"{_cell(c):{a}{w}}" for c, a, w in zip(cells, aligns, widths, strict=True)
            )
            + " |"
        )

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if a == ">" else "-" * (w + 2)
            for a, w in zip(aligns, widths, strict=True)
        )
        + "|"
    )
    out = [
        f"## {title}",
        "",
        machine_line(info) + (f"  \n{note}" if note else ""),
        "",
        line(head),
        rule,
    ]
    out += [line(cells) for cells in body]
    notes = [f"- {r.bar}: {r.note}" for r in rows if r.note]
    if notes:
        out += ["", *notes]
    return "\n".join(out)


def failures(rows: list[Row]) -> int:
    """Rows that missed their bar (skipped and errored rows are counted apart)."""
    return sum(1 for r in rows if not r.status and r.ok is False)


# -- timed engine measurements (bench/duplicate.py, bench/knockout.py) ---------------------------


def timed(fn: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each of `repeat` calls of `fn`."""
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return wall, cpu


def timing_row(
    name: str, wall: list[float], cpu: list[float], target: float | None, extra: str = ""
) -> dict:
    """A measurement judged on the time it spent on its core: the worst repeat's CPU time and
    the median wall time must both be within the target (the worst wall time, also shown,
    includes the time other processes held the core on a shared machine)."""
    median = statistics.median(wall)
    return {
        "name": name,
        "repeats": len(wall),
        "worst_s": max(wall),
        "median_s": median,
        "worst_cpu_s": max(cpu),
        "target": (
            f"CPU worst, wall median <= {target * 1000:g} ms" if target is not None else "-"
        ),
        "pass": None if target is None else max(cpu) <= target and median <= target,
        "extra": extra,
    }


def emit_timings(rows: list[dict], reported: dict[str, str]) -> None:
    """The rows named in `reported` (row name -> bar) as figures for bench/all.py's table."""
    for r in rows:
        if r["name"] in reported:
            shown = (
                f"{format_value(r['worst_cpu_s'], 's')} CPU worst, "
                f"{format_value(r['median_s'], 's')} wall median"
            )
            figure(
                bar=reported[r["name"]],
                value=r["worst_cpu_s"],
                unit="s",
                target=r["target"],
                ok=r["pass"],
                shown=shown,
            )


def print_timings(title: str, rows: list[dict], *, pinned: str, facts: dict, as_json: bool) -> None:
    """The rows as a table under a line about the machine, or as JSON with `--json`."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    info = {
        "cores": os.cpu_count(),
        "pinned": pinned,
        "load_average_1m": round(load[0], 2),
        "python": sys.version.split()[0],
        **facts,
    }
    if as_json:
        print(json.dumps({"machine": info, "rows": rows}, indent=2))
        return
    print(
        f"{title}: {info['cores']} cores, {pinned}, load average {load[0]:.2f}, "
        f"Python {info['python']}"
    )
    width = max([len("measurement"), *(len(r["name"]) for r in rows)])
    head = (
        f"{'measurement':<{width}} {'repeats':>7} {'worst ms':>9} {'median ms':>10} "
        f"{'worst CPU':>9}  {'target':<30} {'result':<6} notes"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        verdict = "-" if r["pass"] is None else ("pass" if r["pass"] else "FAIL")
        print(
            f"{r['name']:<{width}} {r['repeats']:>7} {r['worst_s'] * 1000:>9.1f} "
            f"{r['median_s'] * 1000:>10.1f} {r['worst_cpu_s'] * 1000:>9.1f}  "
            f"{r['target']:<30} {verdict:<6} {r['extra']}"
        )
    print("-" * len(head))
    print("worst/median: wall milliseconds of one repeat; worst CPU: process time of the slowest.")
