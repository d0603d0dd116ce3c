"""Rules-engine benchmark: Spades `standard` hands checked through the Python API, as summary
records, by `manage.py check_hands` end to end, and replayed by OpenSpiel for comparison.

Run from the repository root:

    .venv/bin/python bench/rules_engine.py              # 100,000 hands
    .venv/bin/python bench/rules_engine.py --quick      # 5,000 hands, a smoke run
    .venv/bin/python bench/rules_engine.py --hands 20000 --seed 7

The engine measured is the one `import games` picks: the compiled one where `make accel` built it
for these sources (`make bench` builds it), else the pure-Python one. With the compiled engine,
the pure-Python reference is measured too, in a child with TRICKTABLE_ACCEL=off, on the same
hands in the same run (full and summary records, and OpenSpiel's hands).

Single core (pinned to CPU 0 when the OS allows), except `check_hands` with its default
--jobs, which gets every CPU this process had (its figure is the one held to the bar; the
--jobs 1 figure, pinned, is printed beside it). In-process figures are the best of
`--repeat` runs (default 3), timed with time.perf_counter. The hands are generated once with
games.simulate.spades.random_hand and cached as JSON Lines (see --cache-dir). See
bench/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# product.md's bars, raised by issue 18 for summary records and check_hands
TARGETS = {"api-full": 20_000, "api-summary": 150_000, "check_hands": 30_000}
OPENSPIEL_RATIO = 1.0  # issue 18: full records at least as fast as OpenSpiel's checked replay
CHECK_HANDS = ROOT / "games" / "management" / "commands" / "check_hands.py"
DEFAULT_CACHE = Path(os.environ.get("TMPDIR", "/tmp")) / "tricktable-bench"


# -- the hands -----------------------------------------------------------------------------------


def cache_path(cache: Path, hands: int, seed: int) -> Path:
    """Where the hands for (`hands`, `seed`) are cached; the key also holds a digest of the
    generator's source, so a changed generator makes new hands."""
    source = (ROOT / "games" / "simulate" / "spades.py").read_bytes()
    digest = hashlib.sha1(source).hexdigest()[:10]
    return cache / f"spades-standard-{hands}-seed{seed}-{digest}.jsonl"


def hands_file(cache: Path, hands: int, seed: int) -> Path:
    """The cached JSONL file of `hands` random full `standard` hands for `seed` (made once)."""
    path = cache_path(cache, hands, seed)
    if path.exists():
        return path
    from games.simulate.spades import random_hand

    cache.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    start = time.perf_counter()
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    with tmp.open("w") as out:
        for _ in range(hands):
            out.write(json.dumps(random_hand(rng, "standard"), separators=(",", ":")) + "\n")
    tmp.replace(path)
    print(f"generated {hands:,} hands in {time.perf_counter() - start:.1f} s -> {path}")
    return path


def head_file(path: Path, hands: int) -> Path:
    """The first `hands` lines of `path`, as their own file (for the flatness check)."""
    head = path.with_name(f"{path.stem}-head{hands}.jsonl")
    if not head.exists():
        with path.open() as src, head.open("w") as out:
            for _, line in zip(range(hands), src, strict=False):
                out.write(line)
    return head


def load(path: Path) -> list[dict]:
    with path.open() as f:
        return [json.loads(line) for line in f]


# -- measurements ---------------------------------------------------------------------------------


def best_of(repeat: int, fn, *args) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def check_all(records: list[dict]) -> None:
    from games.records import check_record

    for record in records:
        check_record(record)


def assert_all_valid(records: list[dict], what: str) -> None:
    from games.records import check_record

    bad = [r for r in map(check_record, records) if not r["ok"]]
    if bad:
        raise SystemExit(f"{len(bad)} {what} records do not validate, e.g. {bad[0]}")


def run_child(
    argv: list[str], *, discard_output: bool = False, cpus: set[int] | None = None
) -> tuple[float, float, int, bytes, bytes]:
    """Run a command; (wall seconds, its own peak RSS in MiB, exit code, stdout, stderr).
    With `discard_output` its standard output goes to /dev/null; with `cpus` it may run on
    those CPUs (else on this process's).

    os.wait4 gives this child's own resource usage (RUSAGE_CHILDREN would give the maximum
    over every child so far)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL if discard_output else subprocess.PIPE,
        preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus),
    )
    out = b"" if discard_output else proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    for stream in (proc.stdout, proc.stderr):
        if stream:
            stream.close()
    return wall, usage.ru_maxrss / 1024, proc.returncode, out, err


def child_api(path: str) -> None:
    """(subprocess) Stream a file through the API, one line read, parsed and checked at a time;
    print the time, the process's peak RSS, and tracemalloc's peak over checking 20,000 hands
    (the engine's own allocations: results are dropped as in check_hands)."""
    import tracemalloc

    from games.records import check_record

    with open(path) as f:
        check_record(json.loads(f.readline()))  # imports, rule compilation
    start = time.perf_counter()
    hands = ok = 0
    with open(path) as f:
        for line in f:
            ok += check_record(json.loads(line))["ok"]
            hands += 1
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tracemalloc.start()
    with open(path) as f:
        for _, line in zip(range(20_000), f, strict=False):
            check_record(json.loads(line))
    traced_peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(
        json.dumps(
            {
                "hands": hands,
                "ok": ok,
                "seconds": seconds,
                "peak_mib": peak,
                "traced_peak_mib": traced_peak,
            }
        )
    )


def child_pure(path: str, accepted: str, repeat: int) -> None:
    """(subprocess, TRICKTABLE_ACCEL=off) The pure-Python engine on the same hands: full and
    summary records, and OpenSpiel's accepted hands (`accepted`, a JSONL file, may be empty)."""
    import games
    from games.simulate.spades import to_summary

    records = load(Path(path))
    summaries = [to_summary(r) for r in records]
    subset = load(Path(accepted)) if accepted else []
    print(
        json.dumps(
            {
                "engine": games.ENGINE.engine,
                "hands": len(records),
                "full": best_of(repeat, check_all, records),
                "summary": best_of(repeat, check_all, summaries),
                "accepted": len(subset),
                "accepted_seconds": best_of(repeat, check_all, subset) if subset else None,
            }
        )
    )


def pure_reference(path: Path, subset: list[dict], repeat: int) -> dict | str:
    """The pure engine's figures from `child_pure` (this process's CPU affinity), or why not."""
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.writelines(json.dumps(record) + "\n" for record in subset)
    try:
        argv = [
            sys.executable,
            __file__,
            "--child-pure",
            str(path),
            "--accepted",
            f.name if subset else "",
            "--repeat",
            str(repeat),
        ]
        env = {**os.environ, "TRICKTABLE_ACCEL": "off"}
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    finally:
        os.unlink(f.name)
    if done.returncode:
        return f"failed (exit {done.returncode}: {done.stderr.strip()[-200:]})"
    figures = json.loads(done.stdout)
    if figures["engine"] != "pure Python":
        return f"the child ran the {figures['engine']} engine"
    return figures


def api_memory(path: Path) -> dict:
    wall, rss, code, out, err = run_child([sys.executable, __file__, "--child-api", str(path)])
    if code:
        raise SystemExit(f"API child failed: {err.decode()[-2000:]}")
    figures = json.loads(out)
    figures["child_rss_mib"] = rss
    return figures


def check_hands(
    path: Path, repeat: int, jobs: int | None = None, cpus: set[int] | None = None
) -> tuple[float, float] | str:
    """Best wall time and peak RSS of `manage.py check_hands [--jobs N] FILE > /dev/null`, or
    why not. `cpus`: the CPUs the child may use (this process is pinned to one; the default
    --jobs is the number the child may use, so the parallel figure needs them all).

    The peak RSS is the largest of the command's processes (os.wait4 gives the child's
    ru_maxrss, which Linux makes the maximum over it and the workers it waited for)."""
    if not CHECK_HANDS.exists():
        return "not available"
    option = [] if jobs is None else ["--jobs", str(jobs)]
    best, peak = float("inf"), 0.0
    for _ in range(repeat):
        wall, rss, code, _, err = run_child(
            [sys.executable, "manage.py", "check_hands", *option, str(path)],
            discard_output=True,
            cpus=cpus,
        )
        if code:
            tail = err.decode(errors="replace").strip().splitlines()[-1:] or [""]
            return f"failed (exit {code}: {tail[0][:120]})"
        best, peak = min(best, wall), max(peak, rss)
    return best, peak


def openspiel_actions(
    records: list[dict], refused: dict[str, int] | None = None
) -> tuple[Any, list[tuple[dict, list[int]]]]:
    """OpenSpiel's game and (record, action sequence) of each hand it accepts; `refused`
    counts the others by reason. Needs pyspiel."""
    from games.simulate import openspiel as osp

    game = osp.load_game()
    accepted = []
    for record in records:
        # standard's last-bidder calls are not OpenSpiel bids: made legal, scores not compared.
        actions = osp.actions_from_record(record, bids="legal")
        try:
            osp.replay(game, actions)
        except osp.Rejected as why:
            if refused is not None:
                refused[why.reason] = refused.get(why.reason, 0) + 1
            continue
        accepted.append((record, actions))
    return game, accepted


def openspiel_replay(records: list[dict], repeat: int) -> dict | str:
    """OpenSpiel's checked replay of the same hands (those it accepts)."""
    try:
        from games.simulate import openspiel as osp
    except ImportError as error:  # pragma: no cover
        return f"not available ({error})"
    if osp.pyspiel is None:
        return "not available (pip install open_spiel: make openspiel)"
    refused: dict[str, int] = {}
    game, pairs = openspiel_actions(records, refused)
    sequences = [actions for _, actions in pairs]

    def replay_all() -> None:
        new = game.new_initial_state
        for actions in sequences:
            state = new()
            apply = state.apply_action_with_legality_check
            for a in actions:
                apply(a)

    subset = [record for record, _ in pairs]
    os_seconds = best_of(repeat, replay_all) if sequences else float("nan")
    tt_seconds = best_of(repeat, check_all, subset) if subset else float("nan")
    return {
        "accepted": len(pairs),
        "refused": refused,
        "seconds": os_seconds,
        "tt_seconds": tt_seconds,
        "subset": subset,
    }


# -- report ---------------------------------------------------------------------------------------


def row(
    name: str,
    hands: int | str,
    seconds: float | str,
    peak: float | str = "",
    target: int | None = None,
) -> str:
    rate = hands / seconds if isinstance(seconds, float) and isinstance(hands, int) else None
    secs = f"{seconds:.3f}" if isinstance(seconds, float) else seconds
    rate_s = f"{rate:,.0f}" if rate else ""
    peak_s = (f"{peak:.0f}" if peak >= 10 else f"{peak:.2f}") if isinstance(peak, float) else peak
    goal = ""
    if target:
        goal = f">= {target:,}  " + ("ok" if rate and rate >= target else "MISSED")
    hands_s = f"{hands:,}" if isinstance(hands, int) else hands
    return f"{name:<38} {hands_s:>9} {secs:>9} {rate_s:>10} {peak_s:>9}  {goal}"


def emit(
    n: int,
    full: float,
    summary: float,
    mem: dict,
    mem_small: dict,
    check: tuple[float, float] | str,
    spiel: dict | str,
    check_one: tuple[float, float] | str = "not measured",
    cores: int = 1,
) -> None:
    """The figures for bench/all.py's table (bench/report.py; nothing unless it asks)."""
    from bench import report

    for bar, seconds, target in (
        ("full records", full, TARGETS["api-full"]),
        ("summary records", summary, TARGETS["api-summary"]),
    ):
        rate = n / seconds
        report.figure(
            bar=f"Rules engine: {bar}, hands/s on one core",
            value=rate,
            unit="hands/s",
            target=f">= {target:,}",
            ok=rate >= target,
        )
    big, small = mem["child_rss_mib"], mem_small["child_rss_mib"]
    report.figure(  # flat: the peak for N hands within 10% (+1 MiB) of the peak for N/10
        bar="Rules engine: memory flat in the number of records (streaming)",
        value=big,
        unit="MiB",
        shown=f"{big:.0f} / {small:.0f} MiB ({mem['hands']:,} / {mem_small['hands']:,} hands)",
        target="same peak RSS for N and N/10",
        ok=big <= small * 1.1 + 1,
    )
    if isinstance(check, str):
        report.error(bar="Rules engine: check_hands end to end, hands/s", why=check)
    else:
        rate = n / check[0]
        one = f"{n / check_one[0]:,.0f}" if not isinstance(check_one, str) else check_one
        report.figure(
            bar="Rules engine: check_hands end to end, hands/s",
            value=rate,
            unit="hands/s",
            target=f">= {TARGETS['check_hands']:,}",
            ok=rate >= TARGETS["check_hands"],
            shown=f"{rate:,.0f} hands/s (default --jobs, {cores} cores; --jobs 1: {one})",
        )
    if isinstance(spiel, dict) and spiel["accepted"]:
        ratio = spiel["seconds"] / spiel["tt_seconds"]
        report.figure(
            bar="Rules engine vs OpenSpiel's C++ replay (same hands)",
            value=ratio,
            unit="x",
            target=f">= {OPENSPIEL_RATIO:g} x in the same run",
            ok=ratio >= OPENSPIEL_RATIO,
            shown=f"{ratio:.2f} x OpenSpiel ({spiel['accepted']:,} hands)",
        )
    elif isinstance(spiel, str):
        report.skipped(bar="Rules engine vs OpenSpiel's C++ replay (same hands)", why=spiel)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="5,000 hands, one run each")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (best is kept)")
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--child-api", help=argparse.SUPPRESS)
    parser.add_argument("--child-pure", help=argparse.SUPPRESS)
    parser.add_argument("--accepted", help=argparse.SUPPRESS)
    parser.add_argument("--child-generate", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_api:
        return child_api(args.child_api)
    if args.child_pure:
        return child_pure(args.child_pure, args.accepted, args.repeat)
    if args.child_generate:
        hands_file(Path(args.child_generate), args.hands, args.seed)
        return None
    if args.quick:
        args.hands, args.repeat = 5_000, 1
    from bench import report

    try:
        cpus: set[int] | None = os.sched_getaffinity(0)  # before pinning: check_hands' default
    except AttributeError:  # pragma: no cover - not Linux
        cpus = None
    pinned = report.pin_to_one_core()
    cores = len(cpus) if cpus else os.cpu_count() or 1

    def progress(text: str) -> None:
        print(f"... {text}", file=sys.stderr, flush=True)

    # Children first, while this process is small: a child's peak RSS (ru_maxrss) counts the
    # memory of the process it was forked from until its exec.
    path = cache_path(args.cache_dir, args.hands, args.seed)
    if not path.exists():
        progress(f"generating {args.hands:,} hands (cached for the next runs)")
        _, _, code, out, err = run_child(
            [
                sys.executable,
                __file__,
                "--child-generate",
                str(args.cache_dir),
                "--hands",
                str(args.hands),
                "--seed",
                str(args.seed),
            ]
        )
        if code:
            raise SystemExit(err.decode())
        progress(out.decode().strip())
    small = head_file(path, max(1, args.hands // 10))
    parent_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows: list[str] = []
    progress("API streaming in a subprocess (memory)")
    mem = api_memory(path)
    mem_small = api_memory(small)
    if mem["ok"] != mem["hands"]:
        raise SystemExit(f"only {mem['ok']} of {mem['hands']} hands validated")
    progress(f"check_hands (default --jobs, {cores} CPUs), then --jobs 1 (pinned)")
    result = check_hands(path, args.repeat, cpus=cpus)
    small_result = (
        check_hands(small, args.repeat, cpus=cpus) if not isinstance(result, str) else result
    )
    one = check_hands(path, args.repeat, jobs=1) if not isinstance(result, str) else result
    small_one = check_hands(small, args.repeat, jobs=1) if not isinstance(one, str) else one

    progress("loading the hands (json.loads, not timed)")
    from games.simulate.spades import to_summary

    records = load(path)
    summaries = [to_summary(r) for r in records]
    n = len(records)
    assert_all_valid(records[:2000], "full")
    assert_all_valid(summaries[:2000], "summary")
    progress("API, full and summary records")
    full = best_of(args.repeat, check_all, records)
    summary = best_of(args.repeat, check_all, summaries)

    rows.append(row("API check_record, full records", n, full, target=TARGETS["api-full"]))
    rows.append(row("API check_record, summary records", n, summary, target=TARGETS["api-summary"]))
    rows.append(
        row(
            "API stream (read+json.loads+check)", mem["hands"], mem["seconds"], mem["child_rss_mib"]
        )
    )
    rows.append(
        row(
            "  same, 10x fewer hands",
            mem_small["hands"],
            mem_small["seconds"],
            mem_small["child_rss_mib"],
        )
    )
    rows.append(
        row(
            "  checking's allocations (tracemalloc)",
            min(mem["hands"], 20_000),
            "",
            mem["traced_peak_mib"],
        )
    )
    if isinstance(result, str):
        rows.append(f"{'check_hands':<38} {result}")
    else:
        rows.append(
            row(
                f"check_hands FILE > /dev/null ({cores} CPUs)",
                n,
                result[0],
                result[1],
                target=TARGETS["check_hands"],
            )
        )
        rows.append(row("  same, 10x fewer hands", max(1, n // 10), *small_result))
        for name, figures, hands in (
            ("check_hands --jobs 1 FILE (1 CPU)", one, n),
            ("  same, 10x fewer hands", small_one, max(1, n // 10)),
        ):
            if isinstance(figures, str):
                rows.append(f"{name:<38} {figures}")
            else:
                rows.append(row(name, hands, *figures))

    spiel: dict | str = "skipped (--no-openspiel)"
    if not args.no_openspiel:
        progress("OpenSpiel: converting and classifying the hands, then replaying")
        spiel = openspiel_replay(records, args.repeat)
    notes: list[str] = []
    if isinstance(spiel, str):
        rows.append(f"{'OpenSpiel replay':<38} {spiel}")
    else:
        k = spiel["accepted"]
        rows.append(row("OpenSpiel checked replay (accepted)", k, spiel["seconds"]))
        rows.append(row("  TrickTable API on the same hands", k, spiel["tt_seconds"]))
        refused = ", ".join(f"{v:,} {r}" for r, v in sorted(spiel["refused"].items())) or "none"
        notes.append(
            f"OpenSpiel refused {n - k:,} of {n:,} hands ({refused}): it never lets a "
            "spade be led while the leader holds another suit."
        )
        if k:
            notes.append(
                "TrickTable / OpenSpiel hands/s on the hands both accept: "
                f"{spiel['seconds'] / spiel['tt_seconds']:.2f}"
            )

    import games

    if games.ENGINE.active:
        progress("the pure-Python engine on the same hands (the reference, TRICKTABLE_ACCEL=off)")
        pure = pure_reference(path, spiel["subset"] if isinstance(spiel, dict) else [], args.repeat)
        if isinstance(pure, str):
            rows.append(f"{'pure-Python engine (reference)':<38} {pure}")
        else:
            rows.append("pure-Python engine, the reference (TRICKTABLE_ACCEL=off):")
            rows.append(row("  API check_record, full records", n, pure["full"]))
            rows.append(row("  API check_record, summary records", n, pure["summary"]))
            if pure["accepted_seconds"]:
                k = pure["accepted"]
                rows.append(row("  on OpenSpiel's accepted hands", k, pure["accepted_seconds"]))
                notes.append(
                    "pure-Python engine / OpenSpiel hands/s on the same hands: "
                    f"{spiel['seconds'] / pure['accepted_seconds']:.2f}; compiled / "
                    f"pure: full records {pure['full'] / full:.2f} x, summary "
                    f"{pure['summary'] / summary:.2f} x"
                )
    emit(n, full, summary, mem, mem_small, result, spiel, one, cores)
    print(
        f"TrickTable rules-engine benchmark: {n:,} Spades `standard` hands (seed {args.seed}), "
        f"Python {sys.version.split()[0]}, {pinned}, best of {args.repeat}"
    )
    print(f"engine: {games.ENGINE.engine} ({games.ENGINE.reason})")
    print(f"input: {path} ({path.stat().st_size / 2**20:.1f} MiB)\n")
    print(
        f"{'measurement':<38} {'hands':>9} {'seconds':>9} {'hands/s':>10} {'peak MiB':>9}  target"
    )
    print("-" * 100)
    print("\n".join(rows))
    print("-" * 100)
    notes.append(
        f"peak MiB of a subprocess is its ru_maxrss (os.wait4); the parent was "
        f"{parent_rss:.0f} MiB when it spawned them."
    )
    for note in notes:
        print(note)
    return None


if __name__ == "__main__":
    main()
