"""Fuzz the rules engine for a while and count the cases: hypothesis (the properties of
tests/games/test_fuzz.py, with many more examples) and, when it is installed, atheris (coverage-
guided, mutating legal records byte by byte as JSON).

    .venv/bin/python bench/fuzz.py                     # 20,000 hypothesis cases, atheris 60 s
    .venv/bin/python bench/fuzz.py --examples 2000 --seconds 10

The contract checked on every case: `check_record` never raises, answers a dict with a boolean
`ok`, and a refusal carries coded errors; a card dealt or played twice is always refused.
atheris is optional (`pip install atheris`); without it that part is skipped and says so.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402
from games.fuzzing import PRESETS, check, legal_hand, with_duplicate_card  # noqa: E402


def run_hypothesis(examples: int) -> dict:
    """The fuzz properties, each with `examples` cases; returns cases tried and failures."""
    os.environ["TRICKTABLE_FUZZ_EXAMPLES"] = str(examples)
    from tests.games import test_fuzz as properties

    tried = {}
    failures = []
    for name in dir(properties):
        test = getattr(properties, name)
        if not name.startswith("test_") or not hasattr(test, "hypothesis"):
            continue
        counted = [0]
        inner = test.hypothesis.inner_test

        def counting(*args, _inner=inner, _counted=counted, **kwargs):
            _counted[0] += 1
            return _inner(*args, **kwargs)

        test.hypothesis.inner_test = counting
        try:
            test()
        except Exception as error:  # a property broke: report it, go on with the others
            failures.append(f"{name}: {type(error).__name__}: {str(error)[:300]}")
        finally:
            test.hypothesis.inner_test = inner
        tried[name] = counted[0]
    return {"tried": tried, "failures": failures}


def _atheris_target(seconds: int, out: str) -> None:
    import atheris

    atheris.instrument_all()  # coverage feedback from the engine's own code

    seeds = [
        json.dumps(legal_hand(n, *PRESETS[n % len(PRESETS)])).encode()
        for n in range(len(PRESETS) * 2)
    ]
    count = [0]
    start = time.monotonic()

    def one(data: bytes) -> None:
        count[0] += 1
        if time.monotonic() - start > seconds:
            Path(out).write_text(str(count[0]))
            os._exit(0)
        try:
            value = json.loads(data)
        except (ValueError, RecursionError):
            value = data.decode("utf-8", "replace")
        check(value)

    corpus = Path(os.environ.get("TMPDIR", "/tmp")) / "tricktable-fuzz-corpus"
    corpus.mkdir(exist_ok=True)
    for n, seed in enumerate(seeds):
        (corpus / f"seed-{n}.json").write_bytes(seed)
    atheris.Setup([sys.argv[0], str(corpus), "-max_len=20000", "-rss_limit_mb=2048"], one)
    atheris.Fuzz()


def run_atheris(seconds: int) -> dict:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return {"skipped": "atheris is not installed (pip install atheris)"}
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"tricktable-fuzz-{os.getpid()}.count"
    out.unlink(missing_ok=True)
    process = multiprocessing.get_context("fork").Process(
        target=_atheris_target, args=(seconds, str(out))
    )
    process.start()
    process.join(seconds + 120)
    if process.is_alive():
        process.kill()
    if out.exists():
        executions = int(out.read_text())
        out.unlink()
        return {"executions": executions}
    return {
        "crash": f"atheris stopped with exit code {process.exitcode} (a failing input is "
        "saved as crash-* in the working directory)"
    }


def duplicates(count: int) -> int:
    """Legal records with one card doubled: how many were (wrongly) accepted."""
    rng = random.Random(2026)
    accepted = 0
    for n in range(count):
        bent = with_duplicate_card(legal_hand(n, *PRESETS[n % len(PRESETS)]), rng)
        accepted += bool(bent and check(bent)["ok"])
    return accepted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--examples", type=int, default=20_000, help="hypothesis cases per property"
    )
    parser.add_argument("--seconds", type=int, default=60, help="atheris run time")
    parser.add_argument("--quick", action="store_true", help="2,000 cases, atheris 10 s")
    args = parser.parse_args()
    if args.quick:
        args.examples, args.seconds = 2_000, 10
    start = time.perf_counter()
    hyp = run_hypothesis(args.examples)
    hyp_seconds = time.perf_counter() - start
    ath = run_atheris(args.seconds)
    doubled = duplicates(2_000)
    total = sum(hyp["tried"].values())
    print(
        f"hypothesis: {total:,} cases in {hyp_seconds:.0f} s over {len(hyp['tried'])} "
        f"properties; failures: {len(hyp['failures'])}"
    )
    for name, n in sorted(hyp["tried"].items()):
        print(f"  {name}: {n:,}")
    for failure in hyp["failures"]:
        print(f"  FAILED {failure}")
    if "executions" in ath:
        print(f"atheris: {ath['executions']:,} executions in {args.seconds} s, no crash")
    else:
        print(f"atheris: {ath.get('skipped') or ath.get('crash')}")
    print(f"records with a card doubled, accepted: {doubled} of 2,000")
    report.figure(
        bar="rules engine fuzz (hypothesis): cases, failures",
        value=total,
        unit="cases",
        target="0 failures",
        ok=not hyp["failures"],
        command="bench/fuzz.py",
    )
    if "executions" in ath:
        report.figure(
            bar="rules engine fuzz (atheris): executions, crashes",
            value=ath["executions"],
            unit="runs",
            target="0 crashes",
            ok=True,
            command="bench/fuzz.py",
        )
    elif "crash" in ath:
        report.figure(
            bar="rules engine fuzz (atheris): executions, crashes",
            value=0,
            unit="runs",
            target="0 crashes",
            ok=False,
            command="bench/fuzz.py",
        )


if __name__ == "__main__":
    main()
