"""`manage.py check_hands`: input forms, output order, exit codes, context rules, no database.

No test here uses the `db` fixture: pytest-django fails any test that touches the database,
so these tests also prove that the command needs none.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.simulate.spades import random_hand, random_match, to_summary
from tests.games.generator_file import checked_peak

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def hands() -> list[dict]:
    rng = random.Random(20240601)
    return [random_hand(rng) for _ in range(6)]


@pytest.fixture(scope="module")
def match() -> dict:
    return random_match(random.Random(7))


def invalid(hand: dict) -> dict:
    """A summary record whose tricks do not add up to 13."""
    bad = to_summary(hand)
    bad["tricks"] = dict.fromkeys(bad["tricks"], 1)
    return bad


def run(*args: str, stdin: bytes | None = None) -> tuple[int, list[dict], str]:
    """call_command with captured output: (exit status, result objects, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    options = {"stdout": out, "stderr": err}
    if stdin is not None:
        options["stdin"] = io.BytesIO(stdin)
    try:
        call_command("check_hands", *args, **options)
        status = 0
    except SystemExit as exit:
        status = exit.code
    text = out.getvalue()
    assert text == "" or text.endswith("\n")
    return status, [json.loads(line) for line in text.splitlines()], err.getvalue()


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return str(path)


def jsonl(records: list) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def test_single_hand(tmp_path: Path, hands: list[dict]) -> None:
    path = write(tmp_path, "hand.json", json.dumps(hands[0], indent=2))
    status, results, err = run(path)
    assert (status, err) == (0, "")
    assert len(results) == 1
    result = results[0]
    assert result["ok"] is True
    assert result["game"] == "spades" and result["rules"] == "standard"
    assert result["tricks"] == hands[0]["tricks"]
    assert set(result) >= {"score", "after", "notes"}


def test_match_gives_one_line(tmp_path: Path, match: dict) -> None:
    path = write(tmp_path, "match.json", json.dumps(match))
    status, results, _ = run(path)
    assert status == 0
    (result,) = results
    assert result["format"] == "match/1" and result["ok"] is True
    assert len(result["hands"]) == len(match["hands"])
    assert result["ended"] is True and result["winner"] in ("NS", "EW")


def test_array_in_order(tmp_path: Path, hands: list[dict], match: dict) -> None:
    records = [hands[0], invalid(hands[1]), match, to_summary(hands[2])]
    path = write(tmp_path, "array.json", json.dumps(records, indent=1))
    status, results, err = run(path)
    assert status == 1 and err == ""
    assert [r["ok"] for r in results] == [True, False, True, True]
    assert results[1]["errors"][0]["code"] == "tricks-do-not-sum"
    assert results[2]["format"] == "match/1"
    assert results[3]["tricks"] == hands[2]["tricks"]


def test_json_lines_one_line_per_record(tmp_path: Path, hands: list[dict]) -> None:
    records = [hands[i % len(hands)] if i % 3 else invalid(hands[0]) for i in range(30)]
    path = write(tmp_path, "hands.jsonl", jsonl(records))
    status, results, _ = run(path)
    assert status == 1
    assert len(results) == 30
    assert [r["ok"] for r in results] == [bool(i % 3) for i in range(30)]
    for i, result in enumerate(results):
        if i % 3:
            assert result["tricks"] == records[i]["tricks"]


def test_stdin(hands: list[dict]) -> None:
    status, results, _ = run("-", stdin=jsonl(hands[:3]).encode())
    assert status == 0
    assert [r["tricks"] for r in results] == [h["tricks"] for h in hands[:3]]


def test_several_files_in_order(tmp_path: Path, hands: list[dict], match: dict) -> None:
    a = write(tmp_path, "a.jsonl", jsonl(hands[:2]))
    b = write(tmp_path, "b.json", json.dumps(match))
    c = write(tmp_path, "c.json", json.dumps([hands[2], hands[3]]))
    status, results, _ = run(a, b, c, a)
    assert status == 0
    assert [r.get("format", "hand") for r in results] == ["hand"] * 2 + ["match/1"] + ["hand"] * 4
    assert results[-1]["tricks"] == hands[1]["tricks"]
    assert results[3]["tricks"] == hands[2]["tricks"]


def test_unreadable_file_exits_2_and_goes_on(tmp_path: Path, hands: list[dict]) -> None:
    good = write(tmp_path, "good.jsonl", jsonl(hands[:2]))
    missing = str(tmp_path / "missing.json")
    status, results, err = run(missing, good)
    assert status == 2
    assert len(results) == 2 and all(r["ok"] for r in results)
    assert f"check_hands: {missing}: cannot open" in err


def test_directory_is_unreadable(tmp_path: Path) -> None:
    status, results, err = run(str(tmp_path))
    assert (status, results) == (2, [])
    assert str(tmp_path) in err


def test_malformed_json_lines(tmp_path: Path, hands: list[dict]) -> None:
    text = json.dumps(hands[0]) + "\n{not json\n" + json.dumps(invalid(hands[1])) + "\n"
    path = write(tmp_path, "bad.jsonl", text)
    status, results, err = run(path)
    assert status == 2  # a parse error wins over an invalid record
    assert [r["ok"] for r in results] == [True, False]  # the line after the bad one is checked
    assert f"check_hands: {path}: line 2 column 2: " in err
    assert err.count("\n") == 1


def test_malformed_json_document(tmp_path: Path, hands: list[dict]) -> None:
    text = json.dumps([hands[0], hands[1]], indent=2)[:-2]  # the closing bracket cut off
    path = write(tmp_path, "cut.json", text)
    status, results, err = run(path)
    assert status == 2
    assert len(results) == 2
    assert path in err and "line" in err


def test_not_a_record(tmp_path: Path) -> None:
    path = write(tmp_path, "odd.jsonl", '[[1, 2]]\n"hello"\n{"format": "hand/9"}\n')
    status, results, _ = run(path)
    assert status == 1
    assert [r["errors"][0]["code"] for r in results] == ["bad-format"] * 3


def test_context_rules_and_game(tmp_path: Path, hands: list[dict]) -> None:
    bare = to_summary(hands[0])
    del bare["rules"], bare["game"]
    path = write(tmp_path, "bare.jsonl", jsonl([bare]))
    # Without a context the record is incomplete ...
    status, results, _ = run(path)
    assert status == 1 and results[0]["errors"][0]["code"] == "bad-format"
    # ... with one it takes the game and rules from it.
    status, results, _ = run("--game", "spades", "--rules", "hoyle", path)
    assert status == 0 and results[0]["rules"] == "hoyle" and results[0]["game"] == "spades"
    rules = '{"preset": "standard", "options": {"sandbag": true}}'
    status, results, _ = run("--game", "spades", "--rules", rules, path)
    assert status == 0
    assert results[0]["rules"] == {"preset": "standard", "options": {"sandbag": True}}


def test_context_conflict_is_rules_mismatch(tmp_path: Path, hands: list[dict]) -> None:
    path = write(tmp_path, "hands.jsonl", jsonl([hands[0], hands[1]]))  # spades, standard
    status, results, _ = run("--rules", "hoyle", path)
    assert status == 1
    assert [r["errors"][0]["code"] for r in results] == ["rules-mismatch"] * 2
    status, results, _ = run("--game", "whist", path)
    assert status == 1
    assert [r["errors"][0]["code"] for r in results] == ["rules-mismatch"] * 2
    # The same rules as the record's, spelled differently, agree.
    status, results, _ = run("--rules", '{"preset": "standard"}', path)
    assert status == 0


def test_bad_rules_option() -> None:
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("check_hands", "--rules", "{oops", "-", stdin=io.BytesIO(b""))
    with pytest.raises(CommandError, match="no preset"):
        call_command(
            "check_hands", "--game", "spades", "--rules", "nope", "-", stdin=io.BytesIO(b"")
        )


def test_output_is_compact_utf8(tmp_path: Path, hands: list[dict]) -> None:
    out = io.StringIO()
    path = write(tmp_path, "h.json", json.dumps(hands[0]))
    call_command("check_hands", path, stdout=out)
    line = out.getvalue().splitlines()[0]
    assert line == json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":"))


def test_memory_is_flat(hands: list[dict], monkeypatch: pytest.MonkeyPatch) -> None:
    """2,000 and 20,000 summary records (fast to check): the same peak, give or take.
    Reads are 32 KiB here so that both inputs (0.8 MB, 8 MB) span many reads."""
    monkeypatch.setattr("games.stream.CHUNK_SIZE", 32 * 1024)
    lines = [(json.dumps(to_summary(h)) + "\n").encode() for h in hands]
    n_small, small = checked_peak(lines, 2_000)
    n_large, large = checked_peak(lines, 20_000)
    assert (n_small, n_large) == (2_000, 20_000)
    assert large < small * 1.5 + 256 * 1024, (small, large)


def subprocess_run(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check_hands", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_subprocess_exit_codes(tmp_path: Path, hands: list[dict]) -> None:
    good = write(tmp_path, "good.jsonl", jsonl(hands))
    bad = write(tmp_path, "bad.jsonl", jsonl([hands[0], invalid(hands[1])]))
    broken = write(tmp_path, "broken.json", b'{"format": "hand/1", \xff')

    done = subprocess_run(good)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == len(hands) and done.stderr == b""

    done = subprocess_run(bad, good)
    assert done.returncode == 1
    assert [json.loads(line)["ok"] for line in done.stdout.splitlines()] == [True, False] + [
        True
    ] * len(hands)

    done = subprocess_run(good, broken, str(tmp_path / "nope.json"), bad)
    assert done.returncode == 2
    assert len(done.stdout.splitlines()) == len(hands) + 2
    assert broken.encode() in done.stderr and b"nope.json: cannot open" in done.stderr


def test_subprocess_stdin_and_usage(hands: list[dict]) -> None:
    # A database that cannot be reached does not matter: the command never connects.
    nowhere = {"DATABASE_URL": "postgres://nobody:nothing@127.0.0.1:1/nowhere"}
    done = subprocess_run("--game", "spades", "-", stdin=jsonl(hands[:2]).encode(), env=nowhere)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["tricks"] for line in done.stdout.splitlines()] == [
        h["tricks"] for h in hands[:2]
    ]
    done = subprocess_run("--game", "spades", "--rules", "nope", "-")
    assert done.returncode == 2 and b"no preset" in done.stderr


@pytest.mark.parametrize("jobs", [[], ["--jobs", "1"], ["--jobs=2"]])
def test_plain_invocation_skips_django_and_prints_what_the_command_prints(
    tmp_path: Path, hands: list[dict], jobs: list[str]
) -> None:
    """`manage.py check_hands [--jobs N] FILE...` runs before Django starts (manage.py):
    the same lines, the same stderr, the same exit status as the Django command, here with
    valid, invalid, unparsable and missing files together (exit 2), and enough records
    (2,500) for --jobs 2 and the default to start workers."""
    good = write(tmp_path, "good.jsonl", jsonl(hands))
    bad = write(tmp_path, "bad.jsonl", jsonl([hands[0], invalid(hands[1])]))
    broken = write(tmp_path, "broken.json", b'{"format": "hand/1", \xff')
    many = write(
        tmp_path, "many.jsonl", jsonl([to_summary(hands[i % len(hands)]) for i in range(2_500)])
    )
    files = [*jobs, good, many, bad, broken, str(tmp_path / "nope.json")]
    plain = subprocess_run(*files)
    through_django = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from django.core.management import "
            "execute_from_command_line as run; run(['manage.py', *sys.argv[1:]])",
            "check_hands",
            *files,
        ],
        cwd=REPO,
        capture_output=True,
        timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert plain.returncode == through_django.returncode == 2
    assert plain.stdout == through_django.stdout
    assert plain.stdout.count(b"\n") == len(hands) + 2_500 + 2
    assert plain.stderr == through_django.stderr


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]])
def test_plain_invocation_leaves_django_unloaded(
    tmp_path: Path, hands: list[dict], jobs: list[str]
) -> None:
    good = write(tmp_path, "good.jsonl", jsonl(hands[:1]))
    script = (
        "import runpy, sys; sys.argv = ['manage.py', 'check_hands', *sys.argv[1:]]\n"
        "try:\n    runpy.run_path('manage.py', run_name='__main__')\n"
        "except SystemExit as end:\n    assert end.code == 0, end.code\n"
        "print('django' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *jobs, good], cwd=REPO, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == b"False"
    assert json.loads(done.stdout)["ok"] is True
